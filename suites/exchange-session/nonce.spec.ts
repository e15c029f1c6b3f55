import fc from 'fast-check';
import type { RequirementId } from '../../generated/exchange-session.ts';
import { fitTimeout } from '../../harness/budget.ts';
import { depthFactor } from '../../harness/options.ts';
import { commandProperty, type Step } from '../../harness/stateful.ts';
import { nextNonce, nowMicros, usedNonce } from './auth.ts';
import { accepted, isAccepted } from '../../harness/answers.ts';
import { mustBeRefused, undecidedWhy } from './answers.ts';
import { test, reqTags, shared, Inconclusive, NotTested, RequirementViolation, type AccountId, type Exchange } from './exchange.ts';
import { harmlessOrder } from './commands.ts';
import { dayOf, dayOfSomeZone, nearEdge, nearMidnight, NonceModel, rangeOf, type Day } from './model.ts';
import { stated } from './stated.ts';

const RULES: RequirementId[] = ['A-NONCE-IN-RANGE', 'A-NONCE-GREATER', 'A-NONCE-REUSE', 'A-NONCE-ACCEPTED', 'A-NONCE-REFUSAL-NO-EFFECT'];
const NONCE_CASES = 100;

test.describe('nonce rules on authenticated writes', () => {
  test('a write without BX-NONCE is refused', { tag: reqTags('A-NONCE-REQUIRED') }, async ({ exchange: ex, verify, notApplicable }) => {
    if (!ex.scope.orders) return notApplicable('A-NONCE-REQUIRED', ex.scope.requirements['A-NONCE-REQUIRED']);
    await verify('A-NONCE-REQUIRED', async () => {
      const key = await ex.sessionKey();
      const [account] = await ex.accounts(key);
      const control = await ex.order(key, harmlessOrder(ex.settings, account.id), { label: 'the same order with a nonce (control)' });
      const r = await ex.order(key, harmlessOrder(ex.settings, account.id), { nonce: null, label: 'order without BX-NONCE' });
      mustBeRefused(r, 'A-NONCE-REQUIRED', 'an order without BX-NONCE', { control });
    });
  });

  test('nonce sequences, model-based property: in range, strictly greater, never reused', { tag: reqTags(...RULES) }, async ({ exchange: ex, property, notApplicable, profile, target }, testInfo) => {
    if (!ex.scope.orders) {
      for (const id of RULES) notApplicable(id, ex.scope.requirements[id]);
      return;
    }
    fitTimeout(testInfo, { requests: NONCE_CASES * depthFactor() * 12 * 2 }, profile, !target.reference);
    // Live: one leased key for every case (the model starts above everything the key ever sent). Reference: a fresh
    // key per case, so that a deviation in one case cannot spill into the next.
    const sharedKey = ex.live ? shared(() => ex.sessionKey()) : undefined;
    const steps = nonceSteps();
    await property(
      commandProperty<NonceModel, Real>({
        id: 'exchange-session-nonces',
        requirements: RULES,
        runs: NONCE_CASES,
        steps,
        maxSteps: 8,
        setup: async () => {
          const key = sharedKey ? await sharedKey() : await ex.sessionKey();
          const day = await currentDay(ex, key);
          const [account] = await ex.accounts(key);
          const base = sharedKey ? nextNonce(key) : nowMicros();
          return { model: new NonceModel(day.start, day.end - 1n), real: { ex, key, account: account.id, base, unconfirmed: new Set<string>() } };
        },
      }),
    );
  });

  test('the same nonce sent on several connections at once is accepted at most once', { tag: reqTags('A-NONCE-CONCURRENT') }, async ({ exchange: ex, verify, notApplicable }) => {
    if (!ex.scope.orders) return notApplicable('A-NONCE-CONCURRENT', ex.scope.requirements['A-NONCE-CONCURRENT']);
    await verify('A-NONCE-CONCURRENT', async () => {
      const key = await ex.sessionKey();
      const [account] = await ex.accounts(key);
      let once = 0;
      const undecided: string[] = [];
      for (let round = 0; round < 4; round++) {
        const n = nextNonce(key);
        const replies = await Promise.all([0, 1, 2, 3].map((i) => ex.order(key, harmlessOrder(ex.settings, account.id), { nonce: n, label: `nonce ${n}, connection ${i + 1} of 4` })));
        // Two acceptances break the rule whatever the others were answered.
        const ok = replies.filter((r) => isAccepted(r)).length;
        if (ok > 1) throw new RequirementViolation('A-NONCE-CONCURRENT', `nonce ${n}, sent on 4 connections at once, was accepted ${ok} times`, 'at most once', replies.map((r) => r.exchange));
        // One acceptance shows the rule held only where the others were the API's refusals: a 5xx or a 429 may hide a
        // second order taken.
        const why = replies.map((r, i) => undecidedWhy(r, `nonce ${n} on connection ${i + 1}`)).find((w) => w !== undefined);
        if (why) undecided.push(why);
        else if (ok === 1) once++;
      }
      if (once === 0 && undecided.length) throw new Inconclusive(`no round of concurrent orders was answered by the API alone: ${undecided[0]}`);
      if (once === 0) throw new NotTested('none of the concurrent orders was accepted, so the rule had nothing to hold against');
    });
  });
});

/**
 * The day whose range the nonces of a case must lie in: the day of the profile's time zone where it states one; else
 * the day the target reports, where that is the current day of some zone (A-NS-DAY), else the profile's default's.
 */
async function currentDay(ex: Exchange, key: string): Promise<Day> {
  const now = new Date();
  if (!stated('nonceTimeZone')) {
    const r = await ex.read(key, 'nonce');
    const range = accepted(r, 'the nonce range') ? rangeOf(r.json) : undefined;
    const reported = range && dayOfSomeZone(range.lower, range.upper, now);
    if (reported) {
      if (nearEdge(reported, now)) throw new Inconclusive('too close to midnight in the target\'s time zone to know which day it counts in');
      return reported;
    }
  }
  if (nearMidnight(now, ex.settings.nonceTimeZone)) throw new Inconclusive('too close to midnight in the profile\'s time zone to know which day the target counts in');
  return dayOf(now, ex.settings.nonceTimeZone);
}

interface Real {
  ex: Exchange;
  key: string;
  account: AccountId;
  /** Nonces of this case start above this. */
  base: bigint;
  /**
   * Rules whose refusals this case saw before any order of it was accepted: a refusal counts only beside a control
   * (the same order with a valid nonce, accepted), so they are seen once one is.
   */
  unconfirmed: Set<string>;
}

type NonceStep = Step<NonceModel, Real>;

/** The steps of a nonce sequence: which nonce each sends, from the model's state. */
function nonceSteps(): Array<fc.Arbitrary<NonceStep>> {
  const fresh = (m: NonceModel, r: Real, k: number) => (m.highestInRange() ?? r.base) + BigInt(k);
  const step = (describe: string, testing: string[], applies: (m: NonceModel) => boolean, nonce: (m: NonceModel, r: Real) => bigint, brokenBody = false): NonceStep => ({
    describe: () => describe,
    testing,
    applies,
    run: async (m, r, saw) => {
      const n = nonce(m, r);
      // The key's clock goes on above what this case used in range (out-of-range ones are refused and left behind).
      if (n >= m.lower && n <= m.upper) usedNonce(r.key, n);
      const verdict = m.judge(n);
      const reply = await r.ex.order(r.key, harmlessOrder(r.ex.settings, r.account), { nonce: n, ...(brokenBody ? { body: '{"broken"' } : {}), label: `${describe}: nonce ${n}` });
      // An answer that decides nothing (a throttle, a server error: GEN-NO-5XX judges it) leaves unknown whether the
      // nonce was used up: the model keeps it as such, the rule the step was on is reached but undecided, and the case
      // goes on.
      const undecided = undecidedWhy(reply, `the order with nonce ${n}`);
      if (undecided) {
        m.record(n, false, true);
        if (!brokenBody && verdict.expect !== 'either') saw(verdict.requirement, undecided);
        return;
      }
      const ok = accepted(reply);
      m.record(n, ok, brokenBody);
      if (ok) {
        r.unconfirmed.forEach(saw);
        r.unconfirmed.clear();
      }
      if (verdict.expect === 'refused') {
        // The control is an order of this same case accepted (the same key, a valid nonce): until one is, the refusal
        // is held back, and a case that never gets one leaves the rule undecided.
        mustBeRefused(reply, verdict.requirement, `nonce ${n}`, { why: verdict.why, control: { accepted: 'an order of this case with a valid nonce, accepted (checked below)' } });
        if (m.accepted.size > 0) saw(verdict.requirement);
        else {
          r.unconfirmed.add(verdict.requirement);
          saw(verdict.requirement, `nonce ${n} was refused, but no order of its case with a valid nonce was accepted (the control): the refusal proves nothing about the nonce`);
        }
      } else if (verdict.expect === 'accepted' && !brokenBody) {
        // A refusal that may rest on the order's form (the profile's defaults) rather than its nonce is not judged.
        if (!ok && r.ex.formDoubt(reply)) return;
        if (!ok) throw new RequirementViolation(verdict.requirement, `a valid order with nonce ${n} was refused (${reply.status} ${reply.text.slice(0, 200)}): ${verdict.why}`, 'HTTP 200', [reply.exchange]);
        saw(verdict.requirement);
      }
    },
  });
  const k = fc.integer({ min: 1, max: 1000 });
  const anyAccepted = (m: NonceModel) => m.last !== undefined;
  return [
    k.map((d) => step(`a fresh nonce (+${d})`, ['A-NONCE-ACCEPTED', 'A-NONCE-REFUSAL-NO-EFFECT'], () => true, (m, r) => fresh(m, r, d))),
    fc.constant(step('the last accepted nonce again', ['A-NONCE-REUSE'], anyAccepted, (m) => m.last!)),
    fc.nat().map((i) => step(`an earlier accepted nonce (#${i})`, ['A-NONCE-REUSE'], (m) => m.accepted.size >= 2, (m) => [...m.accepted][i % m.accepted.size])),
    k.map((d) => step(`${d} below the last accepted nonce`, ['A-NONCE-GREATER', 'A-NONCE-REUSE'], anyAccepted, (m) => m.last! - BigInt(d))),
    k.map((d) => step(`${d} below lowerBound`, ['A-NONCE-IN-RANGE'], () => true, (m) => m.lower - BigInt(d))),
    k.map((d) => step(`${d} above upperBound`, ['A-NONCE-IN-RANGE'], () => true, (m) => m.upper + BigInt(d))),
    k.map((d) => step(`a fresh nonce (+${d}) on a body that is not JSON`, RULES, () => true, (m, r) => fresh(m, r, d), true)),
  ];
}
