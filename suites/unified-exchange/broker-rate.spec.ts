/**
 * "request rate | broker operations | 20 requests per second per UID", as a property over generated request schedules
 * (issue 24): each case is a run of broker requests, most sent back to back and some after a pause, each with one of
 * the broker master account's keys (credentials.broker, and credentials.broker2 where the profile names a second key of
 * the same account: the identity is the UID, so its keys share one limit). The cases follow one another, and the model
 * (broker-window.ts) keeps the whole schedule, as the server's window does.
 *
 * How a second is counted is open (U-NS-BROKER-RATE-WINDOW: whole seconds of the server's clock, or a sliding second);
 * the model asserts what both agree on:
 * - U-LIMIT-BROKER-RATE: a whole second of the server's clock holds at most 20 accepted requests of the UID;
 * - U-LIMIT-BROKER-RATE-ALLOWED: a request is not refused while fewer than 20 of the UID's requests, of any outcome, may
 *   lie in the second before it and in the whole second it starts in.
 * What a limited request gets is not shown: any refusal (a 5xx is never one). The server's clock is read from the public
 * time (its offset from the harness's, to within half the fastest round trip), and each request is placed on it between
 * its sending and its answer, widened by that uncertainty.
 */
import fc from 'fast-check';
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { isAccepted, isRefused, isThrottled, needAccepted } from '../../harness/answers.ts';
import { fitTimeout } from '../../harness/budget.ts';
import type { Reply } from '../../harness/http/client.ts';
import { depthFactor } from '../../harness/options.ts';
import { RequirementViolation } from '../../harness/verdicts.ts';
import { hasRole } from './auth.ts';
import { brokerTimer, sleep } from './broker-timing.ts';
import { BROKER_LIMIT, BrokerWindow } from './broker-window.ts';
import { takeBrokerRate } from './patient.ts';
import { withQuery } from './requests.ts';
import { serverClock } from './server-clock.ts';
import { reqTags } from './tags.ts';
import { guarded } from './guarded.ts';
import { test } from './test.ts';

const RATE: RequirementId = 'U-LIMIT-BROKER-RATE';
const ALLOWED: RequirementId = 'U-LIMIT-BROKER-RATE-ALLOWED';
const CASES = 100;
const MAX_REQUESTS = 8;

/** One request of a schedule: the pause before it, and which of the UID's keys sends it. */
interface Planned {
  pauseMs: number;
  secondKey: boolean;
}

// Mostly back to back, so that seconds fill; now and then a pause, so that windows empty part of the way.
const schedule: fc.Arbitrary<Planned[]> = fc.array(
  fc.record({ pauseMs: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 40 }) }), secondKey: fc.boolean() }),
  { minLength: 3, maxLength: MAX_REQUESTS },
);

test('broker rate, property: one UID\'s broker requests, whichever of its keys sends them, are held to 20 in a second and not refused below it', { tag: reqTags(RATE, ALLOWED) }, async ({ api, spec, profile, target, secrets, identity, property, notApplicable, notTested, note, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
  if (!hasRole(secrets, 'broker')) {
    for (const id of [RATE, ALLOWED]) notApplicable(id, 'the profile names no key of a broker master account (credentials.broker)');
    return;
  }
  fitTimeout(testInfo, { requests: CASES * depthFactor() * MAX_REQUESTS + 10, waitMs: CASES * depthFactor() * 1000 + 5000 }, profile, !target.reference);
  const two = hasRole(secrets, 'broker2');
  const op = spec.operations.find((o) => o.operationId === 'listBrokerSubAccounts');
  const path = withQuery(op?.path ?? '/api/v3/broker/sub-list', { limit: 1 });
  // No other check sends the broker keys' requests meanwhile, nor until the last of these has left the window.
  const release = await takeBrokerRate(identity, 'the broker rate property');
  try {
    const clock = await serverClock(api, 'broker');
    const why = !clock ? 'the public time gave no serverTime: the requests cannot be placed on the server\'s clock' : clock.slack > 100 ? `the server time took ${Math.round(clock.slack * 2)} ms to answer: its seconds cannot be told apart from the harness's clock` : undefined;
    if (why) return [RATE, ALLOWED].forEach((id) => notTested(id, why));
    const window = new BrokerWindow<Reply['exchange']>();
    const timer = brokerTimer(api, path, clock!);
    // The schedule's requests are sent to find the limit: a throttle among them is its answer.
    const timed = (credential: 'broker' | 'broker2', label: string) => timer.send(credential, label, true);
    // A quiet second: whatever came before has left the window.
    await sleep(1100);
    // The controls: each key's request, sent into an empty window, is accepted. A refusal within the property is then
    // about the limit, not the request (a signature the profile does not describe, a key of another user type).
    for (const credential of two ? (['broker', 'broker2'] as const) : (['broker'] as const)) {
      // Not provoking: a throttle of the control is the environment's, and leaves the test inconclusive.
      const { r, from, to } = await timer.send(credential, `broker sub-list with the ${credential} key, into an empty window (control)`);
      window.record({ from, to, accepted: isAccepted(r), exchange: r.exchange });
      needAccepted(r, `the broker sub-list with the ${credential} key, after a second without broker requests,`, { untested: true, why: "the key's requests are not accepted, so no refusal can be told to be the limit's" });
    }
    let n = 0;
    /** A quiet second, then the limit's worth of requests back to back (both readings let them all through): the first refused, if any. */
    const confirm = async (): Promise<{ nth: number; reply: Reply } | undefined> => {
      await sleep(1100);
      for (let i = 1; i <= BROKER_LIMIT; i++) {
        const { r, from, to } = await timed('broker', `broker sub-list after a quiet second, ${i} of ${BROKER_LIMIT} (confirming a refusal)`);
        window.record({ from, to, accepted: isAccepted(r), exchange: r.exchange });
        if (isRefused(r) || isThrottled(r)) return { nth: i, reply: r };
      }
      return undefined;
    };
    await property({
      id: 'unified-exchange-broker-rate',
      requirements: [RATE, ALLOWED],
      arbitrary: schedule,
      // A hundred cases at any depth: the whole seconds the model judges need about that much traffic (a few seconds),
      // and a quick run's quarter spanned too few for a window's count to show.
      runs: Math.ceil(CASES / Math.min(1, depthFactor())),
      testing: () => [RATE, ALLOWED],
      check: async (planned, skip, saw) => {
        for (const p of planned) {
          await sleep(p.pauseMs);
          // No request straddles a whole second of the server's clock: what a fixed window lets through at its start,
          // right after the boundary, is then counted in full. (It costs a round trip a second at most.)
          await timer.clearOfSecondBoundary();
          const credential = p.secondKey && two ? 'broker2' : 'broker';
          const { r, from, to } = await timed(credential, `broker sub-list, request ${++n}, with the ${credential} key`);
          const refused = isRefused(r) || isThrottled(r);
          const { sliding, fixed } = window.before(from);
          if (refused && window.mustLetThrough(from) && !skip.has(ALLOWED)) {
            window.record({ from, to, accepted: false, exchange: r.exchange });
            // Another client of the UID may have spent the room (the document counts per UID, not per caller): the
            // refusal stands only if a second without requests, then 20 back to back, meet a refusal again.
            const again = await confirm();
            if (again) {
              throw new RequirementViolation(
                ALLOWED,
                `broker request ${n} was refused (${r.status}) although at most ${sliding} of the UID's requests may lie in the second before it, and ${fixed} in its whole second; after a second without any, request ${again.nth} of ${BROKER_LIMIT} sent back to back was refused too (${again.reply.status})`,
                `answered: the limit is ${BROKER_LIMIT} a second`,
                [r.exchange, again.reply.exchange],
              );
            }
            note(`broker request ${n} was refused (${r.status}) with room left in both windows, but ${BROKER_LIMIT} sent after a quiet second were all answered: another client of the UID may have spent the room`);
            continue;
          }
          if (isAccepted(r) && Math.max(sliding, fixed) >= BROKER_LIMIT - 1 && window.mustLetThrough(from)) saw(ALLOWED);
          if (refused) saw(RATE);
          window.record({ from, to, accepted: isAccepted(r), exchange: r.exchange });
        }
        const now = timer.now();
        const over = window.overfull(now);
        if (over && !skip.has(RATE)) {
          throw new RequirementViolation(
            RATE,
            `${over.accepted.length} broker requests of one UID${two ? ' (sent with either of its two keys)' : ''} were accepted within one second of the server's clock (${new Date(over.second).toISOString()})`,
            `at most ${BROKER_LIMIT} in a second`,
            [over.accepted[0]!.exchange, over.accepted[BROKER_LIMIT]!.exchange],
          );
        }
        window.forget(now);
      },
    });
  } finally {
    await sleep(1100);
    release();
  }
}));
