/**
 * "POST /api/v3/trade/countdown-cancel-all: countdown (required, seconds as a string). Arms or refreshes a timer that
 * cancels all open orders when it expires unrefreshed; the value 0 disarms it. The allowed range of seconds: not shown
 * exactly."
 *
 * One timeline, judged by a timed model (model.ts, CountdownModel): the trading account's orders rest while its
 * timer is armed, refreshed before its first deadline (still open after it: U-COUNTDOWN-REFRESH), open just before the
 * refreshed deadline and cancelled just after (U-COUNTDOWN-EXPIRY); meanwhile the second account arms its own and
 * disarms it with "0" (its order still open past the deadline: U-COUNTDOWN-DISARM). The shortest countdown the profile
 * allows that leaves room to refresh and judge keeps the wait near (countdown + about a second).
 */
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { accepted, answerKind, mustAccept, mustBeRefused, needAccepted } from '../../harness/answers.ts';
import { fitTimeout } from '../../harness/budget.ts';
import { TargetError, type Reply } from '../../harness/http/client.ts';
import { waiting } from '../../harness/progress.ts';
import { Inconclusive, NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import { CountdownModel, FUTURES, type Category } from './model.ts';
import { prepare, LEASE_WAIT_MS, ordersOf, reqTags, type Observed, type OrderRef, type Role } from './orders.ts';
import { guarded } from './guarded.ts';
import { test } from './test.ts';

const TIMED: RequirementId[] = ['U-COUNTDOWN-EXPIRY', 'U-COUNTDOWN-REFRESH', 'U-COUNTDOWN-DISARM'];
const RULES: RequirementId[] = [...TIMED, 'U-COUNTDOWN-REQUIRED', 'U-COUNTDOWN-RANGE'];
const PATH = '/api/v3/trade/countdown-cancel-all';
/** The harness's own allowance around a deadline, both ways (its clock, the network), on top of the target's grace. */
const toleranceMs = (live: boolean) => (live ? 1000 : 150);
/** The most any reading of U-NS-COUNTDOWN-TIMING takes after the deadline (a sweep once a second). */
const GRACE_OF_EVERY_READING_MS = 1000;
/** The smallest countdown every reading of U-NS-COUNTDOWN-RANGE arms as given (five-to-sixty, ten-to-one-hundred-twenty, clamped). */
const ACCEPTED_BY_EVERY_READING = 10;

/** A timer may fire a millisecond early: 20 ms more, so that a lookup "after" a moment is sent after it. */
const sleepUntil = (at: number, why: string) => waiting(at + 20 - performance.now(), why);

test('countdown-cancel-all, timed model: armed, refreshed and disarmed timers cancel every open order at the deadline and not before', { tag: reqTags(...RULES) }, async ({ api, profile, target, writes, identity, verify, notApplicable, note, reading, plannedWait, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
  const orders = ordersOf({ api, profile, target, writes });
  const { range, graceMs: ownGrace } = orders.settings.countdown;
  const rangeStated = orders.stated('countdown.range');
  const grace = orders.stated('countdown.graceMs') ? ownGrace : Math.max(ownGrace, GRACE_OF_EVERY_READING_MS);
  const tolerance = toleranceMs(orders.live);
  const settleMs = orders.settings.orderSettleMs;
  // Refreshed once the first deadline is near enough that a timer that ignored the refresh fires before it is
  // looked at, and early enough that it is judged well before the refreshed one.
  const refreshAfterMs = grace + settleMs + 2 * tolerance + 300;
  // The shortest countdown that leaves that room: any value of the range from there up will do, and the shortest
  // keeps the wait short. A live target's range of 5 to 60 s has no room at 5 s (a second's tolerance each way) and
  // has it at 6.
  const roomy = Math.ceil((refreshAfterMs + 2 * tolerance) / 1000);
  // Within the range the profile states; unstated, within the default's, then one every reading takes.
  const shortest = Math.max(range.min, roomy);
  const candidates = rangeStated ? [shortest] : [...new Set([shortest, Math.max(shortest, ACCEPTED_BY_EVERY_READING)])];
  fitTimeout(testInfo, { requests: 40, waitMs: LEASE_WAIT_MS + (candidates.at(-1)! * 2 + 2) * 1000 + grace }, profile, orders.live);
  // COUNTDOWN-REQUIRED and -RANGE need no order, but they arm and disarm the account's timer: writes all the same.
  const left = await prepare(RULES, { profile, writes, identity, notApplicable, recorder }, 'the countdown');
  if (left.length === 0) return;

  const countdown = (credential: Role, json: unknown, label: string) => orders.send(credential, { method: 'POST', path: PATH, json, label });
  // Whatever happens, every timer this test may have armed is disarmed when it ends.
  for (const role of orders.roles.filter((r) => r !== 'read')) writes.undo(PATH, `disarm the countdown of ${role}`, async () => void (await countdown(role, { countdown: '0' }, `undo: disarm the countdown (${role})`)));
  const validation = orders.stated('refusalStatus.validation') ? orders.settings.refusalStatus.validation : undefined;

  // ---- the form of countdown: required, whole seconds as a string; the control "0" disarms (and so undoes any of them)
  if (left.includes('U-COUNTDOWN-REQUIRED')) await verify('U-COUNTDOWN-REQUIRED', async () => {
    const wrong: Array<[unknown, string]> = [[{}, 'without countdown'], [{ countdown: 'soon' }, 'countdown "soon"'], [{ countdown: '-5' }, 'countdown "-5"'], [{ countdown: '2.5' }, 'countdown "2.5"']];
    const replies = [];
    for (const [json, what] of wrong) replies.push({ what, reply: await countdown('trade', json, `countdown-cancel-all ${what}`) });
    const control = await countdown('trade', { countdown: '0' }, 'countdown "0" (control: disarms)');
    for (const { what, reply } of replies) mustBeRefused('U-COUNTDOWN-REQUIRED', reply, `countdown-cancel-all ${what}`, { control, status: validation });
  });

  // ---- the range, where the profile states it
  if (left.includes('U-COUNTDOWN-RANGE')) await verify('U-COUNTDOWN-RANGE', async () => {
    if (!rangeStated) throw new NotTested(`the profile does not state the countdown's range (settings.countdown.range): the readings disagree on every value outside ${ACCEPTED_BY_EVERY_READING} to 60 seconds`);
    const outside = [range.max + 1, ...(range.min > 1 ? [range.min - 1] : [])];
    for (const seconds of outside) {
      const r = await countdown('trade', { countdown: String(seconds) }, `countdown "${seconds}", outside ${range.min} to ${range.max}`);
      const control = await countdown('trade', { countdown: String(range.max) }, `countdown "${range.max}" (control)`);
      await countdown('trade', { countdown: '0' }, 'disarm');
      if (range.outside === 'clamped') mustAccept(r, `countdown "${seconds}", though the profile states values outside the range are clamped,`, { expected: 'accepted (clamped)' });
      else mustBeRefused('U-COUNTDOWN-RANGE', r, `countdown "${seconds}" outside ${range.min} to ${range.max}`, { control, status: validation });
    }
  });

  // ---- the timeline
  const timed = TIMED.filter((id) => left.includes(id));
  if (timed.length === 0) return;
  const peer = orders.roles.includes('peer');
  note(`countdown: orders must go within ${grace} ms of the deadline (settings.countdown.graceMs${orders.stated('countdown.graceMs') ? '' : ' unstated: the slowest reading'}), plus ${settleMs} ms for the lookup to show it (settings.orderSettleMs), plus the harness's tolerance of ${tolerance} ms each way`);
  type Watched = { ref: OrderRef & { orderId: string }; model: CountdownModel };
  // 'undecided': the lookup that was to judge it decided nothing (a throttle, a server error, no answer).
  type Seen = { verdict: 'held' | 'broken' | 'either' | 'undecided'; why: string; exchanges: Reply['exchange'][] };
  const watched: Watched[] = [];
  const seen = new Map<RequirementId, Seen[]>();
  let failure: unknown;
  try {
    // Known before any order is placed: a stated range whose every value is too short to refresh and judge in.
    if (rangeStated && shortest > range.max) throw new Inconclusive(`no countdown of the stated range ${range.min} to ${range.max} s leaves room to refresh it ${refreshAfterMs} ms after arming it and judge the first deadline (${roomy} s at least)`);
    const categories: Category[] = ['SPOT', FUTURES[0]];
    const owners: Role[] = peer ? ['trade', 'trade', 'peer'] : ['trade', 'trade'];
    for (const [i, owner] of owners.entries()) {
      const category = categories[i % categories.length];
      const { ref } = await orders.needOrder(orders.far(category, 'buy'), 'the countdown needs open orders to cancel', { credential: owner, label: `a resting ${category} order of ${owner}` });
      watched.push({ ref, model: new CountdownModel(grace + settleMs, tolerance) });
    }
    const mine = watched.filter((w) => w.ref.credential === 'trade');
    const theirs = watched.filter((w) => w.ref.credential === 'peer');
    const arm = async (credential: Role, seconds: number, what: string) => {
      const r = await countdown(credential, { countdown: String(seconds) }, `countdown "${seconds}": ${what}`);
      // The timers the model holds are those the target took; the caller judges the answer.
      if (answerKind(r) === 'accepted') for (const w of watched) if (w.ref.credential === credential) w.model.set(seconds, r.sentAt, r.receivedAt);
      return r;
    };
    let seconds: number | undefined;
    for (const s of candidates) {
      const r = await arm('trade', s, 'arm');
      if (accepted(r, `countdown "${s}"`)) {
        seconds = s;
        break;
      }
      if (rangeStated) throw new RequirementViolation(TIMED, `countdown "${s}", inside the stated range ${range.min} to ${range.max} (settings.countdown.range), was refused (${r.status}) ${r.text.slice(0, 160)}`, 'accepted: it arms the timer', [r.exchange]);
      reading('U-NS-COUNTDOWN-RANGE', undefined, `countdown "${s}" was refused`);
    }
    if (seconds === undefined) throw new Inconclusive(`no countdown of ${candidates.join(' or ')} seconds was accepted, and the profile does not state the range`);
    let armedAt = performance.now();
    if (theirs.length) {
      needAccepted(await arm('peer', seconds, 'the second account arms its own timer'), `the second account's countdown "${seconds}"`);
      needAccepted(await arm('peer', 0, 'and disarms it'), `the second account's countdown "0"`);
      armedAt = performance.now();
    }
    plannedWait(refreshAfterMs + seconds * 1000 + grace + settleMs + 2 * tolerance);
    await sleepUntil(armedAt + refreshAfterMs, 'before refreshing the countdown');
    mustAccept(await arm('trade', seconds, 'refresh'), 'refreshing the countdown', { rule: ['U-COUNTDOWN-REFRESH'] });

    const judge = async (group: Watched[], requirement: RequirementId, when: string) => {
      for (const w of group) {
        const list = seen.get(requirement) ?? [];
        seen.set(requirement, list);
        let o: Observed;
        try {
          // A cancellation may show in the lookup up to orderSettleMs late: asked again while the model wants it gone.
          o = await orders.settle(w.ref, (x) => x.state !== 'open' || w.model.expect(x.reply.sentAt, x.reply.receivedAt) !== 'cancelled', settleMs + tolerance);
        } catch (e) {
          // A lookup that decides nothing leaves this moment undecided, never "gone": the timeline goes on, unless the
          // client has given up on the target (an outage: nothing later could be read either).
          if (!(e instanceof Inconclusive) && !(e instanceof TargetError)) throw e;
          if (e instanceof TargetError && e.kind === 'given-up') throw e;
          list.push({ verdict: 'undecided', why: `${when}: order ${w.ref.orderId} (${w.ref.credential}, ${w.ref.category}) could not be read: ${e.message}`, exchanges: [] });
          continue;
        }
        const want = w.model.expect(o.reply.sentAt, o.reply.receivedAt);
        const broken = want === 'open' ? o.state !== 'open' : want === 'cancelled' ? o.state === 'open' || o.state === 'filled' : false;
        list.push({ verdict: want === 'either' ? 'either' : broken ? 'broken' : 'held', why: `${when}: order ${w.ref.orderId} (${w.ref.credential}, ${w.ref.category}) shows ${show(o)}; ${want === 'either' ? 'the lookup fell within the tolerance' : `${want} was due`}`, exchanges: [o.reply.exchange] });
      }
    };
    // Past the first deadline by every reading's grace: the refreshed timer (trading account) and the disarmed one
    // (second account) have cancelled nothing.
    await sleepUntil(armedAt + seconds * 1000 + grace + settleMs + tolerance, `past the first deadline of the ${seconds} s countdown`);
    await judge(mine, 'U-COUNTDOWN-REFRESH', 'after the first deadline, the timer refreshed');
    await judge(theirs, 'U-COUNTDOWN-DISARM', 'after the deadline, the timer disarmed');
    // Just before the refreshed deadline: still open ("and none before"); just after it: gone.
    await sleepUntil(mine[0].model.expiresFrom()! - 2 * tolerance - 50, 'until just before the refreshed deadline');
    await judge(mine, 'U-COUNTDOWN-EXPIRY', 'just before the refreshed deadline');
    await sleepUntil(mine[0].model.expiresBy()! + grace + settleMs + tolerance, 'past the refreshed deadline');
    await judge(mine, 'U-COUNTDOWN-EXPIRY', 'after the refreshed deadline');
  } catch (e) {
    failure = e;
  }

  for (const id of timed) {
    await verify(id, async () => {
      const list = seen.get(id) ?? [];
      // A timer that did not take the refresh expired at the first deadline: the refreshed one cannot be judged.
      const refreshBroken = (seen.get('U-COUNTDOWN-REFRESH') ?? []).find((x) => x.verdict === 'broken');
      if (id === 'U-COUNTDOWN-EXPIRY' && refreshBroken && list.some((x) => x.verdict === 'broken')) throw new Inconclusive(`the refresh was not taken (${refreshBroken.why}): the refreshed deadline cannot be judged`);
      if (id === 'U-COUNTDOWN-DISARM' && !peer) throw new NotTested('the profile names no second trading key (credentials.peer): the disarmed timer is judged on that account, beside the trading account\'s running one');
      // A lookup that showed the model broken stands, whatever stopped the timeline after it.
      const bad = list.find((x) => x.verdict === 'broken');
      if (bad) throw new RequirementViolation(id, bad.why, 'as the countdown model says', bad.exchanges);
      // What stopped the timeline: a deviation of another requirement leaves this one undecided.
      if (failure instanceof RequirementViolation && !failure.requirements.includes(id)) throw new Inconclusive(`the timeline stopped before this could be judged: ${failure.message}`);
      if (failure) throw failure;
      // A moment whose lookup decided nothing is a moment not judged: "cancelled at the deadline" is not passed on it.
      const undecided = list.find((x) => x.verdict === 'undecided');
      if (undecided) throw new Inconclusive(undecided.why);
      if (!list.some((x) => x.verdict === 'held')) throw new NotTested(`every lookup fell within the tolerance around a deadline: ${list.map((x) => x.why).join('; ')}`);
    });
  }
}));

function show(o: Observed): string {
  return o.state === 'absent' ? `no order (answered ${o.reply.status})` : `${JSON.stringify(o.status)}`;
}
