import { fitTimeout } from '../../harness/budget.ts';
import { test } from './test.ts';
import { reqTags } from './tags.ts';
import type { RequirementId } from '../../generated/chat.ts';
import { ChatRun, chatSettings, replyWaitMs, sleep, toleranceNote } from './driver.ts';
import { readingsOf } from './sightings.ts';
import { chatScope } from './scope.ts';

const JUDGED: RequirementId[] = [
  'E-LIMIT-ALLOWED',
  'E-LIMIT-429',
  'E-PER-INSTANCE',
  'E-WINDOW-SLIDING',
  'E-PRUNE-BEFORE-COUNT',
  'E-LIMITED-NOT-RECORDED',
  'E-PER-CLIENT',
  'E-429-BODY-ERROR',
  'E-429-BODY-MESSAGE',
  'E-429-MESSAGE-SPANISH',
  'E-429-RETRYAFTER-BODY',
  'E-429-RETRY-AFTER-HEADER',
  'E-429-REMAINING-ZERO',
];
// The 429s provoked here are also checked against the spec by the client (schema, headers, content type).
const GENERIC: RequirementId[] = ['E-GEN-SCHEMA', 'E-GEN-HEADERS', 'E-GEN-CONTENT-TYPE'];

test(
  'limit, Retry-After and sliding window: fill up, retry while limited, allowed again as stamps leave',
  { tag: reqTags(...JUDGED, ...GENERIC) },
  async ({ api, profile, target, identity, verify, notApplicable, note, plannedWait, reading }, testInfo) => {
    const settings = chatSettings(profile);
    const { counting } = chatScope(settings, target.baseUrl);
    if (counting) {
      for (const id of JUDGED) notApplicable(id, counting);
      return;
    }
    const { windowMs: w, maxRequests: m, instances: n } = settings;
    // Two clients, each filling up twice and retrying ten times a window per instance while limited (the second up
    // to three times over, on a target that lets it through beyond the limit); where replies wait for a model, each
    // sends a few allowances at once and waits a reply for each.
    fitTimeout(testInfo, { requests: 4 * (2 * (2 * n * m + 2) + 40 * n), waitMs: 4 * w + replyWaitMs(settings, 4 * 6) }, profile, !target.reference);
    // Both clients sit out one window: until their oldest stamps leave it.
    plannedWait(w);
    const run = new ChatRun(api, settings, () => identity.address(), (id) => (JUDGED as readonly string[]).includes(id), readingsOf([...JUDGED, ...GENERIC], reading));
    await run.together([
      // The oldest stamp is part-way through the window when the limit is reached, so Retry-After must be shorter
      // than the window (a Retry-After that always says the whole window shows here). When that one stamp leaves,
      // exactly one request gets through.
      async () => {
        const c = run.client();
        const first = performance.now();
        await run.send(c);
        // 0.6 window after the first stamp, however long its reply took.
        await sleep(0.6 * w - (performance.now() - first));
        await run.fill(c);
        await run.pollUntilAllowed(c);
        await run.fill(c);
      },
      // All stamps leave together. Retries while limited must not have been recorded, nothing older than the window
      // may still count, and the client then gets its whole allowance again (while the other one is limited). Let
      // through beyond the limit before it was ever limited, it proves no window's slide either way: a fresh client
      // tries again, twice at most.
      () =>
        run.untilProvenOrNot('E-WINDOW-SLIDING', 2, async (c) => {
          await run.fill(c);
          await run.pollUntilAllowed(c);
          await run.fill(c);
        }),
    ]);
    await run.judge(verify, JUDGED);
    note(toleranceNote(run.maxRoundTripMs));
  },
);
