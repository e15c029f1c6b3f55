/**
 * "request rate | broker operations | 20 requests per second per UID": the limit is each UID's own. Where the profile
 * names a key of a second broker master account (credentials.otherBroker), the first account's 20 requests are sent
 * at once, and the second account's request right after them, all within one whole second of the server's clock. In
 * both readings of U-NS-BROKER-RATE-WINDOW the first UID's window is then full and the second's empty: the second's
 * request must be answered. A refusal stands only beside its control (the same request after a quiet second, alone,
 * answered) and only if it repeats: another client of the second UID may have spent its room once.
 */
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { answerKind, isAccepted, isRefused, isThrottled, needAccepted } from '../../harness/answers.ts';
import { fitTimeout } from '../../harness/budget.ts';
import { NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import { hasRole } from './auth.ts';
import { brokerTimer, sleep, type Timed } from './broker-timing.ts';
import { BROKER_LIMIT } from './broker-window.ts';
import { takeBrokerRate } from './patient.ts';
import { servedOp, withQuery } from './requests.ts';
import { serverClock } from './server-clock.ts';
import { reqTags } from './tags.ts';
import { guarded } from './guarded.ts';
import { test } from './test.ts';

const PER_UID: RequirementId = 'U-LIMIT-BROKER-RATE-PER-UID';
/** Tries at fitting the 21 requests into one second before the check gives up (a slow target fits none). */
const ATTEMPTS = 5;
/** Longer than any reading's window: whatever came before has left it. */
const QUIET_MS = 1100;

test("broker rate per UID: one broker account's 20 requests in a second leave another broker account's 20 untouched", { tag: reqTags(PER_UID) }, async ({ api, spec, profile, target, secrets, identity, verify, notApplicable, notTested, note, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
  if (!hasRole(secrets, 'broker') || !hasRole(secrets, 'otherBroker')) return notApplicable(PER_UID, 'the profile names no key of a second broker master account (credentials.otherBroker) beside credentials.broker');
  fitTimeout(testInfo, { requests: ATTEMPTS * 2 * (BROKER_LIMIT + 2) + 10, waitMs: ATTEMPTS * 3 * (QUIET_MS + 1000) + 5000 }, profile, !target.reference);
  const path = withQuery(servedOp(spec, 'listBrokerSubAccounts').path, { limit: 1 });
  // No other check sends broker requests meanwhile, nor until the last of these has left the window.
  const release = await takeBrokerRate(identity, 'the broker rate per UID');
  try {
    const clock = await serverClock(api, 'broker');
    if (!clock) return notTested(PER_UID, "the public time gave no serverTime: the requests cannot be placed on the server's clock");
    if (clock.slack > 100) return notTested(PER_UID, `the server time took ${Math.round(clock.slack * 2)} ms to answer: its seconds cannot be told apart from the harness's clock`);
    const timer = brokerTimer(api, path, clock);

    /** The second account's request alone, after a quiet second: the control of a refusal. */
    const alone = async (why: string): Promise<Timed> => {
      await sleep(QUIET_MS);
      return timer.send('otherBroker', `broker sub-list with the second broker account's key, alone after a quiet second (${why})`);
    };
    /** After a quiet second: the first account's 20 at once, then the second account's one; whether all fit in one server second. */
    const crowded = async (attempt: number) => {
      await sleep(QUIET_MS);
      // Held clear of a second's start by the time the 21 take: 20 side by side, then one.
      await timer.clearOfSecondBoundary(4 * timer.roundTrip() + 20);
      // Sent to fill the first UID's second: a throttle among them is the limit's answer, not trouble.
      const first = await Promise.all(Array.from({ length: BROKER_LIMIT }, (_, i) => timer.send('broker', `broker sub-list with the first broker account's key, ${i + 1} of ${BROKER_LIMIT} at once (attempt ${attempt})`, true)));
      const other = await timer.send('otherBroker', `broker sub-list with the second broker account's key, right after the first account's ${BROKER_LIMIT} (attempt ${attempt})`, true);
      const start = Math.min(...first.map((t) => t.from));
      // The first UID has used up its second: all 20 answered, and they and the second UID's request in one whole second.
      const full = first.every((t) => isAccepted(t.r)) && Math.floor(start / 1000) === Math.floor(other.to / 1000);
      return { first, other, full };
    };

    await verify(PER_UID, async () => {
      const control = await alone('the control');
      needAccepted(control.r, "the second broker account's request, sent into an empty window,", { untested: true, why: "its key's requests are not accepted, so no refusal can be told to be the limit's" });
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const { first, other, full } = await crowded(attempt);
        if (isAccepted(other.r)) {
          if (full) return;
          continue;
        }
        // Neither answered nor limited (a server error, a page that is not the API): this attempt decides nothing.
        const kind = answerKind(other.r);
        const limited = kind === 'refused' || kind === 'throttled';
        if (!limited) continue;
        // Refused: the same request alone is answered, and the refusal comes again beside the first UID's 20.
        const again = await alone('the control of the refusal');
        needAccepted(again.r, `the second broker account's request, refused (${other.r.status}) right after the first account's ${BROKER_LIMIT}, sent again alone after a quiet second,`, { why: 'the refusal proves nothing about the limit' });
        const repeat = await crowded(attempt);
        if (isRefused(repeat.other.r) || isThrottled(repeat.other.r)) {
          throw new RequirementViolation(
            PER_UID,
            `the second broker account's request was refused (${other.r.status}, then ${repeat.other.r.status}) each time it followed the first account's ${BROKER_LIMIT} requests of a second, and answered ${again.r.status} alone: the first UID's requests spent the second UID's limit`,
            `answered: each UID has ${BROKER_LIMIT} a second of its own`,
            [other.r.exchange, again.r.exchange, repeat.other.r.exchange, first[0]!.r.exchange],
          );
        }
        note(`the second broker account's request was refused (${other.r.status}) after the first account's ${BROKER_LIMIT}, but answered when the same was repeated: another client of that UID may have spent its room`);
        if (isAccepted(repeat.other.r) && repeat.full) return;
      }
      throw new NotTested(`in ${ATTEMPTS} tries the first broker account's ${BROKER_LIMIT} requests and the second account's one never all fell, answered, within one second of the server's clock (round trip ${timer.roundTrip()} ms)`);
    });
  } finally {
    await sleep(QUIET_MS);
    release();
  }
}));
