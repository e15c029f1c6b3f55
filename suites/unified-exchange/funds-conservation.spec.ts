/**
 * Conservation of the unified account's funds, as a model-based property (issue 24): generated sequences of transfers
 * between the account types of the trading key's account, earn subscriptions redeemed, and loans repaid, each followed
 * by the reads that show the types it touched (funds-model.ts, balance-reads.ts). An accepted transfer must move its
 * amount (less at most the fee the profile allows, U-NS-FEES); a refused one must move nothing; a transfer to the type
 * it comes from must be refused, beside the same transfer to another type, accepted (U-TRANSFER-SAME-TYPE).
 *
 * Where the profile names the writes: an earn subscription of a product's minimum takes exactly that from uta
 * (paymentAccount unified), and its fast redemption to uta gives it back at once, less at most the fee the profile
 * allows (both readings of U-NS-REDEEM-TYPES credit a fast redemption at once); a loan of the quote coin pays exactly its
 * amount into the account the profile names (U-NS-LOAN-ACCOUNT), and its repayment in full takes it back, with at most
 * the interest the profile allows. Each is undone within its step: the redemption and the repayment are the undo.
 *
 * The types are the funding account and uta, which the reads show, and the other end of the profile's pair
 * (settings.transferPair), which none shows: what it was given, it must give back. The pairs are the profile's (both
 * ways) and funding <-> uta where transferable-coins answers for it (U-NS-TRANSFER-PAIRS). Transfers are small (1 to 3
 * times settings.amounts.transfer of the quote coin), sent only where settings.fundWrites names transfer, and what the
 * accepted ones moved is put back when the test ends (netted: a few transfers), through the write journal, so that an
 * interrupted run's are put back by `npm run restore`. The test holds the funds lease (leases.ts): no other check moves
 * the account's funds meanwhile.
 *
 * Conservation is seen only where a write the target accepted moved funds and the reads agree with it: refusals alone
 * (every write refused) leave it not tested, though a refused write that moved anything still breaks it. On accounts
 * others may use (settings.exclusiveAccounts; unstated on a live target), a balance off the mark cannot be told from
 * their doing: the property stops there, inconclusive, never failed.
 */
import fc from 'fast-check';
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { answerKind, describeAnswer, judged, mustBeRefused } from '../../harness/answers.ts';
import { fitTimeout } from '../../harness/budget.ts';
import type { Client, Reply } from '../../harness/http/client.ts';
import { depthFactor } from '../../harness/options.ts';
import type { LoadedSpec } from '../../harness/spec/types.ts';
import { commandProperty, type Step } from '../../harness/stateful.ts';
import { Inconclusive, RequirementViolation } from '../../harness/verdicts.ts';
import { readBalance, readOf, type BalanceRead } from './balance-reads.ts';
import { FundsModel } from './funds-model.ts';
import { FUNDS_LEASE, takeLease } from './leases.ts';
import { exclusiveAccounts, flatEarnProducts, rolesOf, settingsOf } from './profile.ts';
import { orderIdOf, servedOp, withQuery, type Settings } from './requests.ts';
import { loan, minimumEarnProduct, redemptionIds } from './fund-requests.ts';
import { putBack, transferSender, type TransfersUndo } from './restore.ts';
import { announce, type Announced, type EarnUndo, type LoanUndo } from './fund-undo.ts';
import { keyedPacer } from './pacing.ts';
import { uxScope } from './scope.ts';
import { reqTags } from './tags.ts';
import { guarded } from './guarded.ts';
import { test } from './test.ts';

const CONSERVED: RequirementId = 'U-FUNDS-CONSERVED';
const SAME_TYPE: RequirementId = 'U-TRANSFER-SAME-TYPE';
const REQUIREMENTS: RequirementId[] = [CONSERVED, SAME_TYPE];
const CASES = 100;
const MAX_STEPS = 6;
/** A step sends at most a transfer, its control and two reads; a case starts with two reads. */
const REQUESTS_PER_CASE = MAX_STEPS * 4 + 2;

interface Real {
  api: Client;
  spec: LoadedSpec;
  s: Settings;
  coin: string;
  /** The types a read shows, read at the start of each case. */
  shown: string[];
  /** The last read of each type: the evidence beside a transfer that disagrees with it. */
  last: Map<string, Reply>;
  /** Waits, where the profile states per-UID rate limits, until the operation has room in its second. */
  pace: (operationId: string) => Promise<void>;
  /** Records an accepted transfer in the test's undo. */
  moved: (move: TransfersUndo['moves'][number]) => void;
  /** What a redemption names, where the profile states it (U-NS-EARN-PRODUCTS). */
  flat?: boolean;
  /** Journals a subscription or a loan before it is made (fund-undo.ts): undone when the test ends if its step did not. */
  announce: (operationId: string, undo: EarnUndo | LoanUndo, what: string) => Announced;
  /** Only the harness moves the account's funds (settings.exclusiveAccounts): a balance off the mark is then the target's. */
  exclusive: boolean;
}

/** The earn product a step subscribes to (its minimum, in the coin the model counts), and the loan a step takes. */
interface Plans {
  /** What one transfer moves (settings.amounts.transfer). */
  transferUnit: string;
  earn?: { productId: string; productSubId: string; min: string };
  loan?: { type: string; amount: number };
}

type Edge = { from: string; to: string };
type ConservationStep = Step<Model, Real>;

/** The model of one case, and whether a read it could not make has ended the case. */
class Model extends FundsModel {
  lost = false;
}

test.describe('conservation of funds', () => {
  test(
    'funds conservation, model-based property: transfers, earn subscriptions redeemed and loans repaid move exactly their amount, and a refused request moves nothing',
    { tag: reqTags(...REQUIREMENTS) },
    async ({ api, spec, profile, target, writes, identity, property, notApplicable, notTested, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
      const s = settingsOf(profile);
      const scope = uxScope(s, { writes: profile.writes && writes.allowed, roles: rolesOf(profile) });
      const judging = REQUIREMENTS.filter((id) => {
        const why = scope.requirements[id];
        if (why) notApplicable(id, why);
        return !why;
      });
      if (judging.length === 0) return;
      fitTimeout(testInfo, { requests: CASES * depthFactor() * REQUESTS_PER_CASE + 40, waitMs: 60_000 }, profile, !target.reference);
      const release = await takeLease(identity, FUNDS_LEASE, 'the conservation property');
      try {
        const coin = s.markets.coins.quote;
        // Every accepted transfer is put back when the test ends, netted (restore.ts): journalled before the first
        // is sent, each appended once acknowledged.
        const moves: TransfersUndo['moves'] = [];
        const undo: TransfersUndo = { kind: 'transfers', credential: 'trade', coin, moves: [] };
        const more = writes.intend('POST /api/v3/account/transfer', `put back what the conservation property's transfers of ${coin} moved`, undo, async () => {
          if (moves.length === 0) return 'nothing';
          const refused = await putBack(moves, s.fees.transfer, transferSender(api, undo, 'undo'));
          if (refused.length) throw new Error(`moving back ${refused.join(', ')} was refused`);
          return 'undone';
        });
        // Under stated per-UID limits (20 a second for each private operation), each operation's requests are paced under them.
        const paced = keyedPacer(18);
        const real: Real = {
          api, spec, s, coin, shown: [], last: new Map(), flat: flatEarnProducts(profile), exclusive: exclusiveAccounts(profile, Boolean(target.reference)),
          announce: (operationId, u, what) => announce(writes, api, servedOp(spec, operationId).key, u, what),
          pace: (op) => (s.rateLimits === 'per-uid-and-ip' ? paced(op) : Promise.resolve()),
          moved: (m) => {
            moves.push(m);
            more({ moves: [m] });
          },
        };
        const found = await discover(real);
        if ('notTested' in found) return judging.forEach((id) => notTested(id, found.notTested));
        real.shown = found.types.filter((t) => readOf(s, t));
        await property(
          commandProperty<Model, Real>({
            id: 'unified-exchange-funds-conservation',
            requirements: judging,
            runs: CASES,
            maxSteps: MAX_STEPS,
            steps: steps(found.types, found.edges, judging, found.plans),
            setup: async () => {
              const model = new Model(s.fees.transfer);
              for (const t of found.types) model.start(t);
              for (const t of real.shown) {
                const r = await read(real, t, `what ${t} holds of ${coin} as the case starts`);
                if ('unreadable' in r) throw new Inconclusive(r.unreadable);
                model.start(t, r.amount);
              }
              return { model, real };
            },
          }),
        );
      } finally {
        release();
      }
    }),
  );
});

/**
 * The account types and pairs the property moves funds between, or why it cannot: the profile's pair, both ways, and
 * the funding account <-> uta where transferable-coins lists the coin for both ways; at least one type a read shows.
 */
async function discover(r: Real): Promise<{ types: string[]; edges: Edge[]; plans: Plans } | { notTested: string }> {
  const { s } = r;
  if (!s.funded) return { notTested: 'the profile says the accounts hold no funds (settings.funded false)' };
  if (!s.fundWrites.includes('transfer')) return { notTested: 'the profile does not name transfer in settings.fundWrites: no transfer is sent' };
  const pair = s.transferPair;
  const edges: Edge[] = [
    { from: pair.fromType, to: pair.toType },
    { from: pair.toType, to: pair.fromType },
  ];
  const funding = s.balances.fundingType;
  const between = [funding, 'uta'];
  if (!between.every((t) => [pair.fromType, pair.toType].includes(t))) {
    const listed = await Promise.all([
      transferable(r, funding, 'uta'),
      transferable(r, 'uta', funding),
    ]);
    if (listed.every(Boolean)) edges.push({ from: funding, to: 'uta' }, { from: 'uta', to: funding });
  }
  const plans = await planned(r);
  const types = [...new Set([...edges.flatMap((e) => [e.from, e.to]), ...(plans.earn ? ['uta'] : []), ...(plans.loan ? [plans.loan.type] : [])])];
  if (!types.some((t) => readOf(s, t))) return { notTested: `no read shows ${pair.fromType} or ${pair.toType} (the account assets show uta, the funding assets ${funding}), and the account does not transfer between ${funding} and uta` };
  // Each read that will judge must be readable now, or the property would judge nothing; a read that decided nothing
  // (a throttle, a server error) is thrown, not taken for a read the account lacks.
  for (const t of types.filter((x) => readOf(s, x))) {
    const b = await read(r, t, `can the reads show what ${t} holds of ${r.coin}?`);
    if ('unreadable' in b) {
      judged(b.reply, `the read of what ${t} holds`);
      return { notTested: b.unreadable };
    }
  }
  return { types, edges, plans };
}

/** The earn and loan steps the profile allows: it names their writes, and a read shows the type they move. */
async function planned(r: Real): Promise<Plans> {
  const { s } = r;
  const named = (...ops: string[]) => ops.every((op) => s.fundWrites.includes(op));
  const plans: Plans = { transferUnit: s.amounts.transfer };
  if (named('subscribeEarn', 'redeemEarn') && readOf(s, 'uta')) {
    await r.pace('getEarnProducts');
    const products = await r.api.send({ method: 'GET', path: servedOp(r.spec, 'getEarnProducts').path, authenticate: true, credential: 'trade', label: `an earn product of ${r.coin} and its minimum` });
    if (judged(products, 'the earn products') === 'accepted') plans.earn = minimumEarnProduct(products.json, s, r.flat === true, r.coin);
  }
  const type = s.balances.loans === 'funding' ? s.balances.fundingType : 'uta';
  if (named('borrow', 'repayLoan') && readOf(s, type) && loan(s).loanCoin === r.coin) plans.loan = { type, amount: Number(loan(s).loanAmount) };
  return plans;
}

async function transferable(r: Real, fromType: string, toType: string): Promise<boolean> {
  const op = servedOp(r.spec, 'getTransferableCoins');
  await r.pace('getTransferableCoins');
  const label = `does the account transfer ${r.coin} from ${fromType} to ${toType}?`;
  const reply = await r.api.send({ method: 'GET', path: withQuery(op.path, { fromType, toType }), authenticate: true, credential: 'trade', label });
  return judged(reply, label) === 'accepted' && JSON.stringify((reply.json as { data?: unknown } | undefined)?.data ?? '').includes(`"${r.coin}"`);
}

async function read(r: Real, type: string, label: string): Promise<BalanceRead> {
  await r.pace(readOf(r.s, type) ?? type);
  const b = await readBalance(r.api, r.spec, r.s, type, r.coin, 'trade', label);
  if (!('unreadable' in b)) r.last.set(type, b.reply);
  return b;
}

/** Sends a fund write other than a transfer (its step undoes it). */
async function write(r: Real, operationId: string, json: unknown, label: string): Promise<Reply> {
  await r.pace(operationId);
  return r.api.send({ method: 'POST', path: servedOp(r.spec, operationId).path, json, authenticate: true, credential: 'trade', label });
}

/** Sends a transfer; an accepted one is recorded in the test's undo (journalled, for an interrupted run). */
async function transfer(r: Real, from: string, to: string, amount: number, label: string): Promise<Reply> {
  await r.pace('transfer');
  const reply = await r.api.send({ method: 'POST', path: servedOp(r.spec, 'transfer').path, json: { fromType: from, toType: to, coin: r.coin, amount: String(amount) }, authenticate: true, credential: 'trade', label });
  if (answerKind(reply) === 'accepted' && from !== to) r.moved({ fromType: from, toType: to, amount: String(amount) });
  return reply;
}

/**
 * Reads each type a read shows among `types` and compares it with the model. A read that cannot be made ends the case
 * undecided; one outside the model's bounds breaks conservation, with the transfers and both reads as evidence, where
 * only the harness moves the account's funds. Where others may, it is no verdict: the property stops, inconclusive.
 */
async function judgeReads(m: Model, r: Real, types: string[], what: string, sent: Reply[], saw: (id: string, why?: string) => void): Promise<boolean> {
  for (const t of types.filter((x) => r.shown.includes(x))) {
    const before = r.last.get(t);
    const b = await read(r, t, `what ${t} holds of ${r.coin} after ${what}`);
    if ('unreadable' in b) {
      m.lost = true;
      saw(CONSERVED, b.unreadable);
      return false;
    }
    const expected = m.expected(t);
    if (!m.agrees(t, b.amount, b.unit)) {
      if (!r.exclusive) {
        throw new Inconclusive(
          `after ${what}, ${t} shows ${b.amount} ${r.coin}, where the transfers the target accepted leave ${expected}: funds moved that the harness did not move, which on an account others may use cannot be told from their doing (the profile does not state that the harness uses the accounts alone: settings.exclusiveAccounts)`,
        );
      }
      throw new RequirementViolation(
        CONSERVED,
        `after ${what}, ${t} shows ${b.amount} ${r.coin}`,
        `${expected} ${r.coin}, what it showed before moved by the transfers the target accepted`,
        [...(before ? [before.exchange] : []), ...sent.map((x) => x.exchange), b.reply.exchange],
      );
    }
  }
  return true;
}

/**
 * Whether a write's answer tells what it did: accepted or refused. Otherwise (a 5xx, a throttle, no answer) whether
 * it moved anything cannot be told, and the case ends undecided.
 */
function told(m: Model, reply: Reply, what: string, saw: (id: string, why?: string) => void): boolean {
  const kind = answerKind(reply);
  if (kind === 'accepted' || kind === 'refused') return true;
  m.lost = true;
  saw(CONSERVED, `${what} was answered ${describeAnswer(reply)}: whether it moved anything cannot be told`);
  return false;
}

const isTaken = (reply: Reply) => answerKind(reply) === 'accepted';
const outcome = (reply: Reply) => (isTaken(reply) ? 'accepted' : `refused (${reply.status})`);

/**
 * At most this many earn steps, and as many loan steps, in one property: each leaves records (subscriptions and
 * redemptions, loans in the history) that a live account keeps, and that would fill the lists the paging checks walk.
 */
const RECORD_MAKING_STEPS = 12;

/** Subscribes a product's minimum from uta, then redeems it fast to uta. */
function earnStep(p: NonNullable<Plans['earn']>, left: { n: number }): ConservationStep {
  return {
    describe: () => `subscribe ${p.min} to earn product ${p.productSubId} from uta, then redeem it fast to uta`,
    testing: [CONSERVED],
    applies: (m) => !m.lost && m.canMove('uta', Number(p.min), 0),
    run: async (m, r, saw) => {
      if (left.n-- <= 0) return;
      const amount = Number(p.min);
      const what = `an earn subscription of ${p.min} ${r.coin} from uta`;
      const undo = r.announce('subscribeEarn', { kind: 'earn-subscription', credential: 'trade', productId: p.productId, productSubId: p.productSubId, amount: p.min, flat: r.flat }, what);
      const sub = await write(r, 'subscribeEarn', { productSubId: p.productSubId, amount: p.min, paymentAccount: 'unified' }, what);
      if (!told(m, sub, what, saw)) return;
      if (isTaken(sub)) m.take('uta', amount);
      if (!(await judgeReads(m, r, ['uta'], `${what}, ${outcome(sub)}`, [sub], saw))) return;
      const orderId = isTaken(sub) ? orderIdOf(sub.json) : undefined;
      // Refused, it moved nothing, as it must: no conservation seen. Accepted without an orderId, it cannot be redeemed.
      if (!orderId) return isTaken(sub) ? saw(CONSERVED) : undefined;
      undo.made(orderId);
      let info: unknown;
      if (r.flat === undefined) {
        await r.pace('getEarnRedeemInfo');
        const answer = await r.api.send({ method: 'GET', path: withQuery(servedOp(r.spec, 'getEarnRedeemInfo').path, { productId: p.productId }), authenticate: true, credential: 'trade', label: `the redemption information of product ${p.productId}` });
        info = isTaken(answer) ? (answer.json as { data?: unknown } | undefined)?.data : undefined;
      }
      const redemption = `a fast redemption of the ${p.min} ${r.coin} just subscribed, to uta`;
      let redeemed: Reply | undefined;
      for (const productSubId of redemptionIds(p.productSubId, orderId, r.flat, info)) {
        redeemed = await write(r, 'redeemEarn', { productId: p.productId, productSubId, redeemType: 'fast', amount: p.min, receiveAccount: 'unified' }, `${redemption} (${productSubId})`);
        if (!told(m, redeemed, redemption, saw)) return;
        if (isTaken(redeemed)) {
          m.give('uta', amount, r.s.fees.redeemEarn);
          undo.undone();
          break;
        }
      }
      if (await judgeReads(m, r, ['uta'], `${redemption}, ${outcome(redeemed!)}`, [sub, redeemed!], saw)) saw(CONSERVED);
    },
  };
}

/** Borrows the quote coin against the base coin, then repays the loan in full with the borrowed coin. */
function loanStep(p: NonNullable<Plans['loan']>, left: { n: number }): ConservationStep {
  return {
    describe: () => `borrow ${p.amount} into ${p.type}, then repay it in full`,
    testing: [CONSERVED],
    applies: (m) => !m.lost,
    run: async (m, r, saw) => {
      if (left.n-- <= 0) return;
      const what = `a loan of ${p.amount} ${r.coin}, paid into ${p.type}`;
      const undo = r.announce('borrow', { kind: 'loan', credential: 'trade' }, what);
      const lent = await write(r, 'borrow', loan(r.s), what);
      if (!told(m, lent, what, saw)) return;
      if (isTaken(lent)) m.give(p.type, p.amount);
      if (!(await judgeReads(m, r, [p.type], `${what}, ${outcome(lent)}`, [lent], saw))) return;
      const orderId = isTaken(lent) ? orderIdOf(lent.json) : undefined;
      if (!orderId) return isTaken(lent) ? saw(CONSERVED) : undefined;
      undo.made(orderId);
      const repayment = `the repayment in full of loan ${orderId} from ${p.type}`;
      const repaid = await write(r, 'repayLoan', { orderId, method: 'borrowed_coin', repayAll: 'yes' }, repayment);
      if (!told(m, repaid, repayment, saw)) return;
      if (isTaken(repaid)) {
        m.take(p.type, p.amount, r.s.fees.repayLoan);
        undo.undone();
      }
      if (await judgeReads(m, r, [p.type], `${repayment}, ${outcome(repaid)}`, [lent, repaid], saw)) saw(CONSERVED);
    },
  };
}

function steps(types: string[], edges: Edge[], judging: RequirementId[], plans: Plans): Array<fc.Arbitrary<ConservationStep>> {
  // 1 to 3 times the profile's transfer amount (settings.amounts.transfer), in decimals a deployment takes.
  const unit = Number(plans.transferUnit);
  const amounts = fc.integer({ min: 1, max: 3 }).map((n) => Number((n * unit).toFixed(8)));
  const move = (e: Edge, amount: number): ConservationStep => ({
    describe: () => `transfer ${amount} from ${e.from} to ${e.to}`,
    testing: [CONSERVED],
    applies: (m) => !m.lost && m.canMove(e.from, amount),
    run: async (m, r, saw) => {
      const what = `a transfer of ${amount} ${r.coin} from ${e.from} to ${e.to}`;
      const reply = await transfer(r, e.from, e.to, amount, what);
      // A 5xx or a throttle leaves it unknown whether the funds moved: the case ends undecided.
      if (!told(m, reply, what, saw)) return;
      if (isTaken(reply)) m.transfer(e.from, e.to, amount);
      // A refused transfer that moved nothing is as it must be, but no conservation seen: only an accepted one is.
      if ((await judgeReads(m, r, [e.from, e.to], `${what}, ${outcome(reply)}`, [reply], saw)) && isTaken(reply)) saw(CONSERVED);
    },
  });
  const sameType = (type: string, to: string, amount: number): ConservationStep => ({
    describe: () => `transfer ${amount} from ${type} to ${type}, then to ${to} (the control)`,
    testing: [SAME_TYPE, CONSERVED],
    applies: (m) => !m.lost && m.canMove(type, amount),
    run: async (m, r, saw) => {
      const what = `a transfer of ${amount} ${r.coin} from ${type} to ${type}`;
      const wrong = await transfer(r, type, type, amount, what);
      if (!told(m, wrong, what, saw)) return;
      const control = await transfer(r, type, to, amount, `the same transfer to ${to} (control)`);
      // The control accepted moved its amount; refused, nothing; otherwise the case ends undecided (told says so).
      if (isTaken(control)) m.transfer(type, to, amount);
      else told(m, control, `the same transfer to ${to} (control)`, saw);
      if (judging.includes(SAME_TYPE)) {
        try {
          mustBeRefused(SAME_TYPE, wrong, what, { control });
          saw(SAME_TYPE);
        } catch (e) {
          if (!(e instanceof Inconclusive)) throw e;
          saw(SAME_TYPE, e.message);
        }
      }
      if (!m.lost && (await judgeReads(m, r, [type, to], `${what} and its control`, [wrong, control], saw)) && isTaken(control)) saw(CONSERVED);
    },
  });
  const out: Array<fc.Arbitrary<ConservationStep>> = [fc.tuple(fc.constantFrom(...edges), amounts).map(([e, n]) => move(e, n))];
  if (types.length > 0) out.push(fc.tuple(fc.constantFrom(...edges), amounts).map(([e, n]) => sameType(e.from, e.to, n)));
  if (plans.earn) out.push(fc.constant(earnStep(plans.earn, { n: RECORD_MAKING_STEPS })));
  if (plans.loan) out.push(fc.constant(loanStep(plans.loan, { n: RECORD_MAKING_STEPS })));
  return out;
}
