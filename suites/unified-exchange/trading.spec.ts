/**
 * Time in force, post-only and self-trade prevention, as a model-based property: short sequences of limit orders of
 * two accounts ('trade' and 'peer') that rest on and cross each other on the spot market, each order's record compared
 * with what the book of model.ts (UnifiedBook, around harness/models/limit-book.ts) says it became - at once, and
 * again after the last order of the case. Only on a market nobody else trades: the reference, or a target whose profile
 * says so (settings.crossingOrders).
 */
import fc from 'fast-check';
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { answerKind, isAccepted, isRefused } from '../../harness/answers.ts';
import { fitTimeout } from '../../harness/budget.ts';
import type { OrderView, Side } from '../../harness/models/limit-book.ts';
import { depthFactor } from '../../harness/options.ts';
import { Inconclusive, RequirementViolation } from '../../harness/verdicts.ts';
import { TargetError, type Client } from '../../harness/http/client.ts';
import { UnifiedBook, type Stp, type Tif } from './model.ts';
import { levelPrices } from './market.ts';
import { LEASE_WAIT_MS, ordersOf, prepare, reqTags, times, type Observed, type OrderRef, type Orders, type Role } from './orders.ts';
import { undecidedWhy as decidesNothing } from '../../harness/answers.ts';
import { guarded } from './guarded.ts';
import { test } from './test.ts';

const RULES: RequirementId[] = [
  'U-TIF-GTC', 'U-TIF-IOC', 'U-TIF-FOK', 'U-TIF-POST-ONLY', 'U-TIF-POST-ONLY-MAKER', 'U-ORDER-TIF-DEFAULT',
  'U-ORDER-STP-CANCEL-TAKER', 'U-ORDER-STP-CANCEL-MAKER', 'U-ORDER-STP-CANCEL-BOTH', 'U-ORDER-STATUS-LIVE', 'U-ORDER-STATUS-CLOSED',
];
const CASES = 60;
const RATE_LIMITED_CASES = 6;
/** At most 8 orders a case (a self-trade, two crossings, two more), each placed, looked up, looked up again at the end, cancelled and looked up once more. */
const REQUESTS_PER_CASE = 40;
const CATEGORY = 'SPOT' as const;

/** One generated order: whose, which side, price level (1 to 4 in the case's band), lots, time in force (absent: the default), stpMode. */
interface Gen {
  account: number;
  side: Side;
  level: number;
  lots: number;
  tif: Tif | 'default';
  stp?: Stp;
}

const order: fc.Arbitrary<Gen> = fc.record({
  account: fc.integer({ min: 0, max: 1 }),
  side: fc.constantFrom<Side>('buy', 'sell'),
  level: fc.integer({ min: 1, max: 4 }),
  lots: fc.integer({ min: 1, max: 3 }),
  tif: fc.constantFrom<Tif | 'default'>('gtc', 'ioc', 'fok', 'post_only', 'default'),
  stp: fc.option(fc.constantFrom<Stp>('cancel_taker', 'cancel_maker', 'cancel_both'), { nil: undefined, freq: 3 }),
})
  // A post_only never trades, so its stpMode decides nothing: left out, so that a post_only that wrongly takes is blamed on post-only alone.
  .map((g) => (g.tif === 'post_only' ? { ...g, stp: undefined } : g));

/** A self-trade on purpose: a resting gtc of one account, then an order of the same account that crosses it, with stpMode. */
const selfTrade: fc.Arbitrary<Gen[]> = fc
  .record({ account: fc.integer({ min: 0, max: 1 }), side: fc.constantFrom<Side>('buy', 'sell'), level: fc.integer({ min: 1, max: 4 }), lots: fc.integer({ min: 1, max: 3 }), takerLots: fc.integer({ min: 1, max: 3 }), takerTif: fc.constantFrom<Tif>('gtc', 'ioc'), stp: fc.constantFrom<Stp>('cancel_taker', 'cancel_maker', 'cancel_both') })
  .map((p) => [
    { account: p.account, side: p.side, level: p.level, lots: p.lots, tif: 'gtc' },
    { account: p.account, side: p.side === 'buy' ? 'sell' : 'buy', level: p.side === 'buy' ? 1 : 4, lots: p.takerLots, tif: p.takerTif, stp: p.stp },
  ]);

/** A trade on purpose: a resting gtc of one account, then an order of the other that crosses it, in any time in force. */
const crossing: fc.Arbitrary<Gen[]> = fc
  .record({ account: fc.integer({ min: 0, max: 1 }), side: fc.constantFrom<Side>('buy', 'sell'), level: fc.integer({ min: 2, max: 3 }), lots: fc.integer({ min: 1, max: 2 }), more: fc.integer({ min: 1, max: 2 }), takerTif: fc.constantFrom<Gen['tif']>('gtc', 'ioc', 'fok', 'post_only', 'default'), deeper: fc.boolean() })
  .map((p) => [
    { account: p.account, side: p.side, level: p.level, lots: p.lots, tif: 'gtc' },
    // Across the maker's level, or at it, wanting more than the maker has: what it does with the rest is its time in
    // force's (orders that fill in full, and makers filled in part, come from the orders of any kind after).
    { account: p.account + 1, side: p.side === 'buy' ? 'sell' : 'buy', level: p.deeper ? (p.side === 'buy' ? p.level - 1 : p.level + 1) : p.level, lots: p.lots + p.more, tif: p.takerTif },
  ]);

/**
 * A case: a self-trade, two crossings of the two accounts, then up to two orders of any kind. Each case meets
 * one stpMode and a time in force or two on purpose, so that a quarter of the default cases reaches every rule.
 */
const caseOf = fc
  .tuple(selfTrade, fc.array(crossing, { minLength: 2, maxLength: 2 }), fc.array(order, { minLength: 0, maxLength: 2 }))
  .map(([pair, crosses, rest]) => [...pair, ...crosses.flat(), ...rest]);

const TIF_RULE: Record<Gen['tif'], RequirementId> = { gtc: 'U-TIF-GTC', ioc: 'U-TIF-IOC', fok: 'U-TIF-FOK', post_only: 'U-TIF-POST-ONLY-MAKER', default: 'U-ORDER-TIF-DEFAULT' };
const STP_RULE: Record<Stp, RequirementId> = { none: 'U-TIF-GTC', cancel_taker: 'U-ORDER-STP-CANCEL-TAKER', cancel_maker: 'U-ORDER-STP-CANCEL-MAKER', cancel_both: 'U-ORDER-STP-CANCEL-BOTH' };

/** What a case may test: each order's time in force, its stpMode, and post-only's rejection. */
const testingOf = (gens: Gen[]): string[] => [...new Set(['U-ORDER-STATUS-LIVE', 'U-ORDER-STATUS-CLOSED', ...gens.flatMap((g) => [TIF_RULE[g.tif], ...(g.stp ? [STP_RULE[g.stp]] : []), ...(g.tif === 'post_only' ? ['U-TIF-POST-ONLY'] : [])])])];

interface Placed {
  ref: OrderRef & { orderId: string };
  /** The model's id (the clientOid). */
  id: string;
  rule: RequirementId;
  lots: number;
  /** The model's view of it: the book updates a resting order's in place. */
  view: OrderView;
  /** What the record last showed agreeing with the model; undefined until judged. */
  judged?: { state: string; filled: number };
}

test.describe('time in force, post-only and self-trade prevention', () => {
  test('orders of two accounts crossing on a market nobody else trades: fills, rests and cancels as the book predicts, post-only never takes, stpMode never trades with the account itself', { tag: reqTags(...RULES) }, async ({ api, profile, target, writes, identity, property, notApplicable, recorder, reading, note }, testInfo) => guarded(recorder, testInfo, async () => {
    const orders = ordersOf({ api, profile, target, writes });
    fitTimeout(testInfo, { requests: CASES * depthFactor() * REQUESTS_PER_CASE, waitMs: LEASE_WAIT_MS }, profile, orders.live);
    const crossing = target.reference || orders.settings.crossingOrders;
    const requirements = await prepare(RULES, { profile, writes, identity, notApplicable, recorder }, 'the crossing orders', () =>
      crossing ? undefined : 'a live market has other traders: orders that cross are sent only where the profile says nobody else trades its market (settings.crossingOrders)',
    );
    if (requirements.length === 0) return;
    const band = await priceBand(orders, api);
    if (typeof band === 'string') return requirements.forEach((id) => recorder.record(id, 'inconclusive', band));
    const owners: Role[] = orders.roles.includes('peer') ? ['trade', 'peer'] : ['trade'];
    if (owners.length === 1) testInfo.annotations.push({ type: 'note', description: 'no second trading key (credentials.peer): every crossing is a self-trade, so only self-trade prevention and orders that cross nothing are judged' });
    const postOnlyStated = orders.stated('postOnlyTaker') ? orders.settings.postOnlyTaker : undefined;
    let dirty: string | undefined;
    if (orders.rateLimited) note(`the profile states per-UID rate limits (settings.rateLimits): the crossing orders run ${RATE_LIMITED_CASES} cases at the default depth, not ${CASES}`);
    let anyAccepted = false;

    await property({
      id: 'unified-exchange-time-in-force',
      requirements,
      arbitrary: caseOf,
      runs: orders.rateLimited ? RATE_LIMITED_CASES : CASES,
      testing: testingOf,
      check: async (gens, skip, saw) => {
        if (dirty) throw new Inconclusive(dirty);
        const book = new UnifiedBook();
        const placed: Placed[] = [];
        const strays: Array<{ ref: Placed['ref']; lots: number }> = [];
        try {
          for (const [i, g] of gens.entries()) {
            const owner = owners[g.account % owners.length];
            const body = orders.limit({ category: CATEGORY, side: g.side, price: band[g.level - 1], lots: g.lots, tif: g.tif === 'default' ? undefined : g.tif, stp: g.stp });
            const id = String(body.clientOid);
            const openBefore = new Set(book.book.open().map((v) => v.order.id));
            const p = book.place({ id, owner, side: g.side, price: g.level, quantity: g.lots, tif: g.tif === 'default' ? 'gtc' : g.tif, stp: g.stp });
            // Where the readings disagree (a self-trade without stpMode), the order is not sent: the case goes on without it.
            if (p.kind === 'unknown') continue;
            // Makers that self-trade prevention cancelled are judged for it from now on.
            const makersCancelled = p.kind === 'stp' ? p.makersCancelled : g.stp ? book.book.all().filter((v) => openBefore.has(v.order.id) && v.state === 'cancelled').map((v) => v.order.id) : [];
            // The incoming order is judged for its stpMode where that cancelled it, else for its time in force (a
            // cancel_maker order goes on as its time in force says); makers it cancelled, for the stpMode.
            const rule = p.kind === 'post-only-rejected' ? 'U-TIF-POST-ONLY' : p.kind === 'stp' ? STP_RULE[g.stp!] : TIF_RULE[g.tif];
            for (const e of placed) if (makersCancelled.includes(e.id)) e.rule = STP_RULE[g.stp!];
            // The makers a post_only that must not take would have met: looked up at once, for post-only.
            const wouldMeet = p.kind === 'post-only-rejected' ? book.crossing(g.side, g.level).map((v) => v.order.id) : [];
            const label = `order ${i + 1}: ${owner} ${g.tif} ${g.side} ${g.lots} lot(s) at level ${g.level}${g.stp ? ` stpMode ${g.stp}` : ''}`;
            const { reply, ref } = await orders.place(body, { credential: owner, label, mayFill: true });
            // A throttle, a server error, a page that is not the API: what became of the order is not known, and with
            // it the book the rest of the case is judged against. The case ends undecided; after anything but a
            // throttle (which placed nothing) an order the model does not know may rest, and the later cases cannot
            // be judged either.
            const nothing = decidesNothing(reply, label);
            if (nothing) {
              testingOf(gens).filter((id) => !skip.has(id)).forEach((id) => saw(id, nothing));
              if (answerKind(reply) === 'throttled') return;
              dirty = `${nothing}: an order the model does not know may rest on the book`;
              return;
            }
            if (p.kind === 'post-only-rejected') {
              // Cleared at the end of the case whatever it shows: a target that let it rest must not leave it on the book.
              if (ref?.orderId) strays.push({ ref: ref as Placed['ref'], lots: g.lots });
              await postOnlyRejected(orders, reply, ref, postOnlyStated, saw, reading);
              for (const e of placed) if (wouldMeet.includes(e.id) && !(await judge(orders, e, 'after a post_only that would have met it was placed', saw, skip, 'U-TIF-POST-ONLY'))) return;
              continue;
            }
            if (!ref?.orderId) {
              // An order self-trade prevention cancels may be refused instead: nothing traded, which is what is due.
              if (p.kind === 'stp' && isRefused(reply)) {
                saw(rule);
                continue;
              }
              if (isRefused(reply) && !anyAccepted) throw new Inconclusive(`${label} was refused (${reply.status} ${reply.text.slice(0, 160)}) before any order of this test was accepted: the band of prices or the quantity may not suit the market`);
              throw new RequirementViolation(rule, `${label} was answered ${reply.status} ${reply.text.slice(0, 200)}`, 'accepted with data.orderId', [reply.exchange]);
            }
            anyAccepted = true;
            // Listed before anything is judged, so that the case's end cancels it whatever the judgement throws.
            const entry: Placed = { ref: ref as Placed['ref'], id, rule, lots: g.lots, view: p.view };
            placed.push(entry);
            // The makers its stpMode cancelled first: a target that ignored the stpMode shows it there, before the
            // incoming order's own outcome (judged for its time in force) is looked at.
            for (const e of placed) if (makersCancelled.includes(e.id) && !(await judge(orders, e, `after order ${i + 1} (stpMode ${g.stp}) met it`, saw, skip))) return;
            if (!(await judge(orders, entry, 'just after it was placed', saw, skip))) return;
          }
          // Orders that rested may have been filled or cancelled (cancel_maker) since: each record agrees with the book in the end.
          for (const e of placed) {
            if (e.judged && e.judged.state === e.view.state && e.judged.filled === e.view.filled) continue;
            if (!(await judge(orders, e, 'after the last order of the case', saw, skip))) return;
          }
        } finally {
          dirty = await clear(orders, [...placed.filter((p) => p.judged === undefined || p.judged.state === 'open'), ...strays]);
        }
      },
    });
  }));
});

/**
 * Four price levels inside the spot book's spread, clear of the profile's far prices (where other checks' orders rest):
 * from the book's best bid (at least the far buy price) up, a hundredth of the way to its best ask.
 */
async function priceBand(orders: Orders, api: Client): Promise<string[] | string> {
  const { farPrices, precision } = orders.settings.markets;
  const symbol = orders.symbol(CATEGORY);
  const r = await api.send({ method: 'GET', path: `/api/v3/market/orderbook?${new URLSearchParams({ category: CATEGORY, symbol, limit: '5' })}`, label: `the ${symbol} book, to price orders inside its spread` });
  const data = isAccepted(r) ? ((r.json as { data?: { bids?: unknown[]; asks?: unknown[] } } | undefined)?.data ?? {}) : undefined;
  if (!data) return `the ${symbol} order book could not be read (answered ${r.status}): the crossing orders need a band of prices nobody else's orders meet`;
  const bestBid = levelPrices(Array.isArray(data.bids) ? data.bids : []).prices?.[0];
  const bestAsk = levelPrices(Array.isArray(data.asks) ? data.asks : []).prices?.[0];
  const tick = Number(precision.tick);
  const lo = Math.ceil(Math.max(bestBid ?? 0, Number(farPrices.buy)) / tick);
  const hi = Math.floor(Math.min(bestAsk ?? Infinity, Number(farPrices.sell)) / tick);
  const span = hi - lo;
  const unit = Math.max(1, Math.min(100, Math.floor(span / 10)));
  const start = lo + Math.floor(span / 1000);
  if (!(start + 5 * unit < hi)) return `the ${symbol} book leaves no room between ${lo * tick} and ${hi * tick} for four price levels of the checks' own`;
  return [1, 2, 3, 4].map((k) => times(precision.tick, start + k * unit));
}

/**
 * Compares an order's record with the model's view; false when its fill cannot be read (the book is then no longer
 * known: a fok partly filled would shift every later match, so the case ends rather than blame the next order).
 */
async function judge(orders: Orders, e: Placed, when: string, saw: Saw, skip: ReadonlySet<string>, rule: RequirementId = e.rule): Promise<boolean> {
  const v = e.view;
  const agrees = (o: Observed) => {
    if (o.filled !== undefined && o.filled !== v.filled) return false;
    if (v.state === 'open') return o.state === 'open';
    if (v.state === 'filled') return o.state === 'filled';
    // A remainder cancelled after a partial fill may show as filled where the statuses are not stated; nothing filled, cancelled.
    return o.state === 'cancelled' || (v.filled > 0 && o.state === 'filled');
  };
  const o = await settled(orders, e.ref, agrees, rule, saw);
  if (!o) return false;
  // Filled in full as the book says, yet shown open: what was filled is right (the time in force held), the status is not.
  if (v.state === 'filled' && o.state === 'open' && o.filled === v.filled) {
    if (skip.has('U-ORDER-STATUS-CLOSED')) return false;
    throw new RequirementViolation('U-ORDER-STATUS-CLOSED', `order ${e.ref.orderId}, filled in full (${o.filled} lot(s)), shows ${JSON.stringify(o.status)} ${when}`, `a status other than ${JSON.stringify(o.status)}: the order is no longer open`, [o.reply.exchange]);
  }
  // Resting as the book says, nothing filled, but under a status no reading lists: the status is wrong, not the time in force.
  if (v.state === 'open' && v.filled === 0 && o.state === 'unknown' && (o.filled ?? 0) === 0) {
    if (skip.has('U-ORDER-STATUS-LIVE')) return false;
    throw new RequirementViolation('U-ORDER-STATUS-LIVE', `order ${e.ref.orderId}, resting with nothing filled, shows ${JSON.stringify(o.status)}`, 'live', [o.reply.exchange]);
  }
  if (!agrees(o)) {
    throw new RequirementViolation(rule, `order ${e.ref.orderId} (${e.ref.credential}) shows ${o.state === 'absent' ? `no order (answered ${o.reply.status})` : `${JSON.stringify(o.status)} with ${o.filled ?? 'an unstated number of'} lot(s) filled`} ${when}`, `${v.state} with ${v.filled} of ${e.lots} lot(s) filled, as the book predicts`, [o.reply.exchange]);
  }
  // "The lookup of an order resting on the book with nothing filled shows status live": the one value the document names.
  if (v.state === 'open' && v.filled === 0 && !skip.has('U-ORDER-STATUS-LIVE')) {
    if (o.status !== 'live') throw new RequirementViolation('U-ORDER-STATUS-LIVE', `order ${e.ref.orderId}, resting with nothing filled, shows ${JSON.stringify(o.status)}`, 'live', [o.reply.exchange]);
    saw('U-ORDER-STATUS-LIVE');
  }
  if (v.state !== 'open' && o.state !== 'open') saw('U-ORDER-STATUS-CLOSED');
  e.judged = { state: v.state, filled: v.filled };
  const fillKnown = o.filled !== undefined || (v.state === 'filled' && o.state === 'filled');
  if (fillKnown) saw(rule);
  return fillKnown;
}

/**
 * "post_only is rejected if it would match as taker": refused, or accepted and cancelled at once with nothing filled
 * and nothing resting (U-NS-POST-ONLY-REJECTION); one form only where the profile states it (settings.postOnlyTaker).
 * That it never traded shows again when the makers it would have met are looked up at the end of the case.
 */
async function postOnlyRejected(orders: Orders, reply: Awaited<ReturnType<Orders['place']>>['reply'], ref: OrderRef | undefined, stated: 'refused' | 'cancelled' | undefined, saw: Saw, reading: (point: string, r: string | undefined, detail?: string) => void): Promise<void> {
  if (isRefused(reply)) {
    reading('U-NS-POST-ONLY-REJECTION', 'refused');
    if (stated === 'cancelled') throw new RequirementViolation('U-TIF-POST-ONLY', `a post_only order that would take was refused (${reply.status}), though the profile states it is accepted and cancelled`, 'accepted, then cancelled with nothing filled (settings.postOnlyTaker: cancelled)', [reply.exchange]);
    saw('U-TIF-POST-ONLY');
    return;
  }
  // Accepted (what decided nothing ended the case before): it must carry its orderId, to be seen cancelled.
  if (!ref?.orderId) throw new RequirementViolation('U-TIF-POST-ONLY', `a post_only order that would take was accepted without an orderId: ${reply.text.slice(0, 160)}`, 'refused, or accepted with an orderId and cancelled at once', [reply.exchange]);
  if (stated === 'refused') throw new RequirementViolation('U-TIF-POST-ONLY', 'a post_only order that would take was accepted, though the profile states it is refused', 'refused (settings.postOnlyTaker: refused)', [reply.exchange]);
  reading('U-NS-POST-ONLY-REJECTION', 'accepted-then-cancelled');
  // Not found yet is not an outcome: in the asynchronous reading the order shows only after the settle time.
  const o = await settled(orders, ref, (x) => x.state !== 'open' && x.state !== 'absent', 'U-TIF-POST-ONLY', saw);
  if (!o) return;
  if (o.state !== 'cancelled' || (o.filled !== undefined && o.filled !== 0)) {
    throw new RequirementViolation('U-TIF-POST-ONLY', `a post_only order that would take, accepted as ${ref.orderId}, shows ${JSON.stringify(o.status)} with ${o.filled ?? 'an unstated number of'} lot(s) filled`, 'cancelled at once with nothing filled and nothing resting', [reply.exchange, o.reply.exchange]);
  }
  orders.finished(ref);
  if (o.filled !== undefined) saw('U-TIF-POST-ONLY');
}

/** What the property's cases say they saw: a requirement met, or reached but left undecided (`why`). */
type Saw = (id: string, why?: string) => void;

/**
 * An order's record once it agrees with `done` (or the settle time is over); undefined when a lookup decided nothing
 * (a throttle, a server error, a refusal that is not the document's not-found, no answer): the rule is then reached
 * but undecided, and the case ends, never blaming the order for a lookup. An outage ends the property.
 */
async function settled(orders: Orders, ref: OrderRef, done: (o: Observed) => boolean, rule: RequirementId, saw: Saw): Promise<Observed | undefined> {
  try {
    return await orders.settle(ref, done);
  } catch (e) {
    if (e instanceof TargetError && e.kind === 'given-up') throw e;
    if (!(e instanceof Inconclusive) && !(e instanceof TargetError)) throw e;
    saw(rule, `order ${ref.orderId}'s lookup decided nothing: ${e.message}`);
    return undefined;
  }
}

/**
 * Cancels what a case may have left resting (every order its records last showed open, or never showed, and any
 * post_only the target took that should have been rejected) and waits
 * until the lookups show it gone, so that the next case meets an empty book; why it could not, if it could not.
 */
async function clear(orders: Orders, resting: Array<{ ref: OrderRef; lots: number }>): Promise<string | undefined> {
  for (const { ref } of resting) await orders.cancel(ref);
  for (const { ref, lots } of resting) {
    const o = await orders.settle(ref, (x) => x.state !== 'open').catch(() => undefined);
    // Shown open with nothing left to fill is a wrong status (U-ORDER-STATUS-CLOSED), not an order on the book.
    if (o?.state === 'open' && o.filled !== lots) return `order ${ref.orderId} still rests after it was cancelled: the later cases would meet it on the book`;
    orders.finished(ref);
  }
  return undefined;
}
