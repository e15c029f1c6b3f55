import { test, reqTags, RequirementViolation } from '../../harness/fixtures.ts';
import { ChatRun, SHARED_COUNTER, chatSettings, sleep, toleranceNote } from './driver.ts';

const JUDGED = [
  'E-LIMIT-ALLOWED',
  'E-LIMIT-429',
  'E-PER-INSTANCE',
  'E-WINDOW-SLIDING',
  'E-PRUNE-BEFORE-COUNT',
  'E-LIMITED-NOT-RECORDED',
  'E-429-BODY-ERROR',
  'E-429-BODY-MESSAGE',
  'E-429-RETRYAFTER-BODY',
  'E-429-RETRY-AFTER-HEADER',
  'E-429-REMAINING-ZERO',
];
// The 429s provoked here are also checked against the spec by the client (schema, headers, content type).
const GENERIC = ['E-GEN-SCHEMA', 'E-GEN-HEADERS', 'E-GEN-CONTENT-TYPE', 'E-GEN-REFUSAL-STATUS'];

test(
  'limit, Retry-After and sliding window: fill up, retry while limited, allowed again as stamps leave',
  { tag: reqTags(...JUDGED, ...GENERIC) },
  async ({ api, profile, identity, verify, notApplicable, note, plannedWait }) => {
    const settings = chatSettings(profile);
    if (!settings.clientAddressesPreserved) {
      for (const id of JUDGED) notApplicable(id, SHARED_COUNTER);
      return;
    }
    const w = settings.windowMs;
    test.setTimeout(60_000 + 10 * w);
    // Both clients sit out one window: until their oldest stamps leave it.
    plannedWait(w);
    const run = new ChatRun(api, settings, () => identity.address(), (id) => JUDGED.includes(id));
    await run.together([
      // The oldest stamp is part-way through the window when the limit is reached, so Retry-After must be shorter
      // than the window (a Retry-After that always says the whole window shows here). When that one stamp leaves,
      // exactly one request gets through.
      async () => {
        const c = run.client();
        await run.send(c);
        await sleep(0.6 * w);
        await run.fill(c);
        await run.pollUntilAllowed(c);
        await run.fill(c);
      },
      // All stamps leave together. Retries while limited must not have been recorded, nothing older than the window
      // may still count, and the client then gets its whole allowance again.
      async () => {
        const c = run.client();
        await run.fill(c);
        await run.pollUntilAllowed(c);
        await run.fill(c);
      },
    ]);
    for (const id of JUDGED) await verify(id, () => run.check(id));
    await verify('E-GEN-REFUSAL-STATUS', () => {
      const odd = run.statuses.filter((s) => s !== 429 && (s < 200 || s > 299));
      if (odd.length > 0) throw new RequirementViolation('E-GEN-REFUSAL-STATUS', `valid chat requests were answered ${[...new Set(odd)].join(', ')}`, '2xx when allowed, 429 when limited');
    });
    note(toleranceNote(run.maxRoundTripMs));
  },
);
