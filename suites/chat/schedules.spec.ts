import fc from 'fast-check';
import { fitTimeout } from '../../harness/budget.ts';
import { test } from './test.ts';
import { reqTags } from './tags.ts';
import type { RequirementId } from '../../generated/chat.ts';
import { runsAtDepth } from '../../harness/property.ts';
import { ChatRun, FORMS, KINDS, chatSettings, replyWaitMs, sleep, toleranceNote, type Form, type Kind } from './driver.ts';
import { readingsOf } from './sightings.ts';
import { chatScope } from './scope.ts';

const COUNTING: RequirementId[] = ['E-LIMIT-ALLOWED', 'E-LIMIT-429', 'E-PER-INSTANCE', 'E-WINDOW-SLIDING', 'E-PRUNE-BEFORE-COUNT', 'E-LIMITED-NOT-RECORDED'];
const ANSWER: RequirementId[] = ['E-429-BODY-ERROR', 'E-429-BODY-MESSAGE', 'E-429-MESSAGE-SPANISH', 'E-429-RETRYAFTER-BODY', 'E-429-RETRY-AFTER-HEADER', 'E-429-REMAINING-ZERO'];
const IDENTITY: RequirementId[] = ['E-PER-CLIENT', 'E-CLIENT-ID-XFF-FIRST', 'E-CLIENT-ID-XREALIP'];
/**
 * Three cases at the default depth, split so that the larger part runs beside the limit test and the smaller after
 * it: on two workers the suite then takes about 2.2 windows. Where the depth leaves a single case (quick), part a has
 * it and part b does not run: a third window sat out after the limit test would hold no case of its own.
 */
const PARTS = [
  { id: 'chat-schedules-a', part: 'a', runs: 2 },
  { id: 'chat-schedules-b', part: 'b', runs: 1 },
];

interface Burst {
  /** Pause before the burst, in windows. */
  gap: number;
  size: number;
}
interface Plan {
  form: Form;
  kind: Kind;
  bursts: Burst[];
}

/** Rounds of the property a run makes room for: the first, and reruns after failures. */
const ROUNDS = 5;

const pauseOf = (p: { bursts: Burst[] }) => p.bursts.reduce((t, b) => t + b.gap, 0);

/**
 * Each client sends a few bursts within the first 0.9 window, then a last burst 1 to 1.1 windows after the case
 * began, when its earliest stamps may have left the window. So every case lasts about 1.1 windows, whatever it draws.
 * One client of every case is a retrier: it fills every instance's allowance, retries a whole allowance more while
 * limited part-way through the window, and comes back when its stamps (not its retries) have left, which is where
 * recorded retries, or stamps counted past the window, would show.
 */
function schedules(maxRequests: number, instances: number): fc.Arbitrary<Plan[]> {
  const size = fc.integer({ min: 1, max: maxRequests + 2 });
  const burst = fc.record({ gap: fc.constantFrom(0, 0.1, 0.25, 0.4, 0.6), size });
  const lastAt = fc.constantFrom(1, 1.05, 1.1);
  const plan = fc
    .record({
      form: fc.constantFrom(...FORMS),
      kind: fc.constantFrom(...KINDS),
      bursts: fc.array(burst, { minLength: 1, maxLength: 3 }),
      lastAt,
      lastSize: size,
    })
    .map(({ form, kind, bursts, lastAt, lastSize }) => {
      const early: Burst[] = [];
      for (const b of bursts) if (pauseOf({ bursts: [...early, b] }) <= 0.9) early.push(b);
      return { form, kind, bursts: [...early, { gap: lastAt - pauseOf({ bursts: early }), size: lastSize }] };
    });
  const full = instances * maxRequests;
  const retrier = fc
    .record({ form: fc.constantFrom(...FORMS), kind: fc.constantFrom(...KINDS), retryAt: fc.constantFrom(0.2, 0.4, 0.6), lastAt, lastSize: size })
    .map(({ form, kind, retryAt, lastAt, lastSize }) => ({
      form,
      kind,
      bursts: [
        { gap: 0, size: full },
        { gap: retryAt, size: full + 1 },
        { gap: lastAt - retryAt, size: lastSize },
      ],
    }));
  // A case costs a window of wall time and timing does not shrink reliably: cases are reported as drawn.
  return fc.noShrink(fc.tuple(retrier, fc.array(plan, { minLength: 2, maxLength: 4 })).map(([r, rest]) => [r, ...rest]));
}

for (const part of PARTS) {
  test(
    `generated schedules of clients against the sliding-window model (part ${part.part})`,
    { tag: reqTags(...COUNTING, ...ANSWER, ...IDENTITY) },
    async ({ api, profile, target, identity, property, notApplicable, note, plannedWait, reading }, testInfo) => {
      const before = PARTS.slice(0, PARTS.indexOf(part)).reduce((n, p) => n + p.runs, 0);
      const all = PARTS.reduce((n, p) => n + p.runs, 0);
      test.skip(before > 0 && runsAtDepth(all) <= runsAtDepth(before), `at depth ${process.env.HARNESS_DEPTH || 'default'} the earlier parts hold every case`);
      const settings = chatSettings(profile);
      const { windowMs: w, maxRequests: m } = settings;
      const requirements: string[] = [...COUNTING, ...ANSWER, ...IDENTITY];
      const { counting } = chatScope(settings, target.baseUrl);
      if (counting) {
        for (const id of requirements) notApplicable(id, counting);
        return;
      }
      // A case: up to 5 clients, 4 bursts each of up to maxRequests + 2 (and the retrier's two allowances), over 1.1
      // windows, and where replies wait for a model a reply's time per burst. A failing requirement reruns the
      // property with it set aside: room for a few such rounds.
      const cases = runsAtDepth(part.runs) * ROUNDS;
      fitTimeout(testInfo, { requests: cases * (5 * 4 * (m + 2) + 2 * settings.instances * m), waitMs: cases * (1.1 * w + replyWaitMs(settings, 4)) }, profile, !target.reference);
      const sighted = readingsOf(requirements, reading);
      let maxRoundTripMs = 0;
      await property({
        id: part.id,
        requirements,
        runs: part.runs,
        arbitrary: schedules(m, settings.instances),
        // A schedule's requests are judged together: one that got no answer names no single requirement.
        testing: () => [],
        check: async (plans, skip, saw) => {
          // Fresh clients every case: a case never inherits stamps from an earlier one.
          const run = new ChatRun(api, settings, () => identity.address(), (id) => requirements.includes(id) && !skip.has(id), sighted);
          plannedWait(Math.max(...plans.map(pauseOf)) * w);
          await run.together(
            plans.map((p) => async () => {
              const c = run.client(p.kind);
              for (const b of p.bursts) {
                await sleep(b.gap * w);
                await run.burst(c, p.form, b.size);
              }
            }),
          );
          maxRoundTripMs = Math.max(maxRoundTripMs, run.maxRoundTripMs);
          for (const id of run.seenIds) if (requirements.includes(id)) saw(id);
          run.throwFirst();
          // The client gave up on the target: the property stops there, what it did not judge inconclusive.
          if (run.outage) throw run.outage;
          // Some answers decided nothing (the environment's 429, a 5xx, no answer): what this case did not see it reached
          // undecided, inconclusive unless another case sees it.
          const trouble = run.trouble;
          if (trouble) for (const id of requirements) if (!run.seenIds.includes(id)) saw(id, trouble);
        },
      });
      note(toleranceNote(maxRoundTripMs));
    },
  );
}
