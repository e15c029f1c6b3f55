import fc from 'fast-check';
import { test, reqTags } from '../../harness/fixtures.ts';
import { runsAtDepth } from '../../harness/property.ts';
import { ChatRun, FORMS, SHARED_COUNTER, chatSettings, sleep, toleranceNote, type Form } from './driver.ts';

const COUNTING = ['E-LIMIT-ALLOWED', 'E-LIMIT-429', 'E-PER-INSTANCE', 'E-WINDOW-SLIDING', 'E-PRUNE-BEFORE-COUNT', 'E-LIMITED-NOT-RECORDED'];
const ANSWER = ['E-429-BODY-ERROR', 'E-429-BODY-MESSAGE', 'E-429-RETRYAFTER-BODY', 'E-429-RETRY-AFTER-HEADER', 'E-429-REMAINING-ZERO'];
const IDENTITY = ['E-PER-CLIENT', 'E-CLIENT-ID-XFF-FIRST', 'E-CLIENT-ID-XREALIP'];
/**
 * Three cases at the default depth, split so that the larger part runs beside the limit test and the smaller after
 * it: on two workers the suite then takes about 2.2 windows.
 */
const PARTS = [
  { id: 'chat-schedules-a', runs: 2 },
  { id: 'chat-schedules-b', runs: 1 },
];

interface Burst {
  /** Pause before the burst, in windows. */
  gap: number;
  size: number;
}
interface Plan {
  form: Form;
  bursts: Burst[];
}

const pauseOf = (p: { bursts: Burst[] }) => p.bursts.reduce((t, b) => t + b.gap, 0);

/**
 * Each client sends a few bursts within the first 0.9 window, then a last burst 1 to 1.1 windows after the case
 * began, when its earliest stamps may have left the window. So every case lasts about 1.1 windows, whatever it draws.
 */
function schedules(maxRequests: number): fc.Arbitrary<Plan[]> {
  const size = fc.integer({ min: 1, max: maxRequests + 2 });
  const burst = fc.record({ gap: fc.constantFrom(0, 0.1, 0.25, 0.4, 0.6), size });
  const plan = fc
    .record({ form: fc.constantFrom(...FORMS), bursts: fc.array(burst, { minLength: 1, maxLength: 3 }), lastAt: fc.constantFrom(1, 1.05, 1.1), lastSize: size })
    .map(({ form, bursts, lastAt, lastSize }) => {
      const early: Burst[] = [];
      for (const b of bursts) if (pauseOf({ bursts: [...early, b] }) <= 0.9) early.push(b);
      return { form, bursts: [...early, { gap: lastAt - pauseOf({ bursts: early }), size: lastSize }] };
    });
  // A case costs a window of wall time and timing does not shrink reliably: cases are reported as drawn.
  return fc.noShrink(fc.array(plan, { minLength: 3, maxLength: 5 }));
}

for (const part of PARTS) {
  test(
    `generated schedules of clients against the sliding-window model (${part.id})`,
    { tag: reqTags(...COUNTING, ...ANSWER, ...IDENTITY) },
    async ({ api, profile, identity, property, notApplicable, note, plannedWait }) => {
      const settings = chatSettings(profile);
      const w = settings.windowMs;
      // Each failing requirement reruns the property with it set aside.
      test.setTimeout(120_000 + runsAtDepth(part.runs) * 20 * w);
      const requirements = [...COUNTING, ...ANSWER, ...IDENTITY];
      if (!settings.clientAddressesPreserved) {
        for (const id of requirements) notApplicable(id, SHARED_COUNTER);
        return;
      }
      let maxRoundTripMs = 0;
      await property({
        id: part.id,
        requirements,
        runs: part.runs,
        arbitrary: schedules(settings.maxRequests),
        // A schedule's requests are judged together: one that got no answer names no single requirement.
        testing: () => [],
        check: async (plans, skip) => {
          // Fresh clients every case: a case never inherits stamps from an earlier one.
          const run = new ChatRun(api, settings, () => identity.address(), (id) => requirements.includes(id) && !skip.has(id));
          plannedWait(Math.max(...plans.map(pauseOf)) * w);
          await run.together(
            plans.map((p) => async () => {
              const c = run.client();
              for (const b of p.bursts) {
                await sleep(b.gap * w);
                for (let i = 0; i < b.size; i++) await run.send(c, p.form);
              }
            }),
          );
          maxRoundTripMs = Math.max(maxRoundTripMs, run.maxRoundTripMs);
          run.throwFirst();
        },
      });
      note(toleranceNote(maxRoundTripMs));
    },
  );
}
