import fc from 'fast-check';
import { test, reqTags } from '../../harness/fixtures.ts';
import { runsAtDepth } from '../../harness/property.ts';
import { ChatRun, FORMS, chatSettings, sleep, toleranceNote, type Form } from './driver.ts';

const COUNTING = ['E-LIMIT-ALLOWED', 'E-LIMIT-429', 'E-PER-INSTANCE', 'E-WINDOW-SLIDING', 'E-PRUNE-BEFORE-COUNT', 'E-LIMITED-NOT-RECORDED'];
const ANSWER = ['E-429-BODY-ERROR', 'E-429-BODY-MESSAGE', 'E-429-RETRYAFTER-BODY', 'E-429-RETRY-AFTER-HEADER', 'E-429-REMAINING-ZERO'];
const IDENTITY = ['E-PER-CLIENT', 'E-CLIENT-ID-XFF-FIRST', 'E-CLIENT-ID-XREALIP'];
const RUNS = 2;
/** A case lasts about one window: long enough for stamps to leave it, short enough to keep the suite quick. */
const SPAN = 1.1;

interface Burst {
  /** Pause before the burst, in windows. */
  gap: number;
  size: number;
}
interface Plan {
  form: Form;
  bursts: Burst[];
}

const pauseOf = (p: Plan) => p.bursts.reduce((t, b) => t + b.gap, 0);

function schedules(maxRequests: number): fc.Arbitrary<Plan[]> {
  const burst = fc.record({ gap: fc.constantFrom(0, 0.1, 0.25, 0.4, 0.6), size: fc.integer({ min: 1, max: maxRequests + 2 }) });
  const plan = fc.record({ form: fc.constantFrom(...FORMS), bursts: fc.array(burst, { minLength: 1, maxLength: 4 }) }).map((p) => {
    const bursts: Burst[] = [];
    for (const b of p.bursts) if (pauseOf({ ...p, bursts: [...bursts, b] }) <= SPAN) bursts.push(b);
    return { ...p, bursts };
  });
  // A case costs a window of wall time and timing does not shrink reliably: cases are reported as drawn.
  return fc.noShrink(fc.array(plan, { minLength: 3, maxLength: 5 }));
}

test(
  'generated schedules of clients against the sliding-window model',
  { tag: reqTags(...COUNTING, ...ANSWER, ...IDENTITY) },
  async ({ api, profile, identity, property, notApplicable, note, plannedWait }) => {
    const settings = chatSettings(profile);
    const w = settings.windowMs;
    // Each failing requirement reruns the property with it set aside.
    test.setTimeout(120_000 + runsAtDepth(RUNS) * 20 * w);
    let requirements = [...COUNTING, ...ANSWER, ...IDENTITY];
    if (!settings.clientAddressesPreserved) {
      for (const id of IDENTITY) notApplicable(id, 'the profile says a proxy rewrites X-Forwarded-For (clientAddressesPreserved: false)');
      requirements = requirements.filter((id) => !IDENTITY.includes(id));
    }
    let maxRoundTripMs = 0;
    await property({
      id: 'chat-schedules',
      requirements,
      runs: RUNS,
      arbitrary: schedules(settings.maxRequests),
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
