import fc from 'fast-check';
import type { RequirementId } from '../../generated/exchange-session.ts';
import { fitTimeout } from '../../harness/budget.ts';
import { LimitBook, type Side, type TimeInForce } from '../../harness/models/limit-book.ts';
import { depthFactor } from '../../harness/options.ts';
import { accepted } from '../../harness/answers.ts';
import { test, reqTags, shared, Inconclusive, NotTested, RequirementViolation, type Exchange, type OrderSpec } from './exchange.ts';
import type { RecordState } from './model.ts';
import type { OrderUndo } from './restore.ts';
import { acknowledged, ackReading, agrees, describe, recordReadings, settle, steps, TIF_REQUIREMENT, type Expected, type Observed, type Placed } from './records.ts';

const ORDER_REQUIREMENTS: RequirementId[] = ['A-ORDER-ACK', 'A-ORDER-STATUS', 'A-TIF-GTC', 'A-TIF-IOC', 'A-TIF-FOK'];
const TIF_CASES = 100;
/** Requests a time-in-force case sends at most: each order placed, looked up (twice, a few polls) and cancelled. */
const REQUESTS_PER_CASE = 6 * 6;

/**
 * How long a record may take to show what the order became ("read by polling the order lookup"): a deployment may
 * acknowledge an order before it matches it, and the lookup may not find it until then.
 */
const settleMs = (ex: Exchange) => (ex.live ? 5000 : 1500);

type Reading = (point: string, reading: string | undefined, detail?: string) => void;

/** What a record showed of the open points it meets. */
function recordSeen(reading: Reading, o: Observed): void {
  for (const [point, r] of recordReadings(o)) reading(point, r);
  reading('A-NS-ORDER-PROCESSING', o.notFoundFirst > 0 ? 'asynchronous' : 'synchronous');
}

test.describe('limit orders and their time in force', () => {
  // What every target can be sent once it allows writes: nothing crosses, so the document alone says what happens.
  test('orders priced far from the market: a GTC rests until cancelled, an IOC and a FOK are cancelled unfilled', { tag: reqTags(...ORDER_REQUIREMENTS) }, async ({ exchange: ex, verify, notApplicable, writes, reading }) => {
    for (const id of ORDER_REQUIREMENTS) if (ex.scope.requirements[id]) notApplicable(id, ex.scope.requirements[id]);
    if (!ex.scope.orders) return;
    // The session and its trading account, made by the first check (a failure there undecides the checks, never breaks the test).
    const session = shared(async () => {
      const key = await ex.sessionKey();
      const [account] = await ex.accounts(key);
      return { key, account };
    });
    const tifs: TimeInForce[] = ex.scope.requirements['A-TIF-GTC'] ? ['IOC', 'FOK'] : ['GTC', 'IOC', 'FOK'];
    const placed = new Map<TimeInForce, Placed>();
    await verify('A-ORDER-ACK', async () => {
      const { key, account } = await session();
      const far = (tif: TimeInForce): OrderSpec => ({ account: account.id, side: 'buy', price: ex.settings.order.farPrices.buy, quantity: ex.settings.order.quantityStep, tif });
      for (const tif of tifs) {
        const ack = await ex.order(key, far(tif));
        const id = acknowledged(ex, ack);
        reading('A-NS-ACK-BODY', ackReading(ack));
        placed.set(tif, { id, account: account.id });
        // Whatever the checks below find, an order that may rest is cancelled when the test ends; against a live
        // target it is journalled, so that npm run restore cancels it if the run is killed before then.
        if (tif === 'GTC') {
          const undo: OrderUndo = { kind: 'order', key, orderId: id, account: account.id, symbol: ex.settings.order.symbol };
          // A refused cancel finds nothing to cancel; one that decides nothing (a throttle) is thrown, and the report
          // says the order was not undone.
          writes.intend('POST /trading-api/v2/orders', `cancel order ${id}`, undo, async () => {
            const r = await ex.cancel(key, id, account.id);
            return r && accepted(r, `the cancel of order ${id}`) ? 'undone' : 'nothing';
          });
        }
      }
    });
    const expected: Record<TimeInForce, Expected> = {
      GTC: { state: 'open', filled: 0, quantity: 1 },
      IOC: { state: 'cancelled', filled: 0, quantity: 1 },
      FOK: { state: 'cancelled', filled: 0, quantity: 1 },
    };
    const seen = new Map<TimeInForce, Observed>();
    await verify('A-ORDER-STATUS', async () => {
      if (placed.size === 0) throw new NotTested('no order was acknowledged with an orderId to look up');
      const { key } = await session();
      for (const [tif, order] of placed) {
        const o = await settle(ex, key, order, expected[tif], settleMs(ex));
        recordSeen(reading, o);
        seen.set(tif, o);
      }
    });
    // A time in force is about how much was filled: a state alone ("cancelled") does not say nothing was.
    const FILL_READ = 'the filled quantity read from the order record (settings.orderRecord.quantityFilled)';
    for (const tif of tifs) {
      await verify(
        TIF_REQUIREMENT[tif],
        (saw) => {
          const o = seen.get(tif);
          if (!o) throw new NotTested(`the ${tif} order could not be looked up`);
          if (!agrees(o, expected[tif])) {
            throw new RequirementViolation(TIF_REQUIREMENT[tif], `a ${tif} buy far below the market shows ${describe(o)}`, tif === 'GTC' ? 'open, nothing filled' : 'cancelled, nothing filled', [o.reply.exchange]);
          }
          if (o.filled !== undefined) saw(FILL_READ);
        },
        { needs: [FILL_READ] },
      );
    }
  });

  test('time in force, model-based property: crossing orders of two trading accounts fill, rest and cancel as the book predicts', { tag: reqTags(...ORDER_REQUIREMENTS) }, async ({ exchange: ex, property, notApplicable, profile, target, reading }, testInfo) => {
    if (!ex.scope.crossing) {
      const why = !ex.scope.orders
        ? ex.scope.requirements['A-ORDER-ACK']
        : ex.live
          ? 'a live market has other traders and self-trade prevention: only orders far from the market are sent (settings.order.crossingOrders)'
          : 'the profile names no way to cancel an order (settings.paths.command or settings.order.cancelBy): crossing orders that may rest are not sent';
      for (const id of ORDER_REQUIREMENTS) notApplicable(id, ex.scope.requirements[id] ?? why);
      return;
    }
    fitTimeout(testInfo, { requests: TIF_CASES * depthFactor() * REQUESTS_PER_CASE }, profile, !target.reference);
    const requirements = ORDER_REQUIREMENTS.filter((id) => !ex.scope.requirements[id]);
    // Every case trades on the profile's market (a deployment may list no other), among orders of its own: prices
    // 101 to 104, which the far-priced orders of other checks never cross. What a case leaves resting is cancelled
    // before the next begins.
    const symbol = ex.settings.order.symbol;
    let dirty: string | undefined;
    await property({
      id: 'exchange-session-time-in-force',
      requirements,
      arbitrary: fc.array(orderCase, { minLength: 1, maxLength: 6 }),
      testing: (orders) => ['A-ORDER-ACK', 'A-ORDER-STATUS', ...new Set(orders.map((o) => TIF_REQUIREMENT[o.tif]))],
      runs: TIF_CASES,
      check: async (orders, _skip, saw) => {
        if (dirty) throw new Inconclusive(dirty);
        const key = await ex.sessionKey();
        const accounts = await ex.accounts(key);
        const book = new LimitBook();
        const placed: Array<Placed & { tif: TimeInForce; quantity: number; last?: RecordState }> = [];
        try {
          for (const [i, o] of orders.entries()) {
            const spec: OrderSpec = { account: accounts[o.account % accounts.length].id, side: o.side, price: String(100 + o.level), quantity: steps(ex.settings.order.quantityStep, o.lots), tif: o.tif, symbol };
            const id = acknowledged(ex, await ex.order(key, spec, { label: `order ${i + 1}: ${o.tif} ${o.side} ${o.lots} step(s) at ${spec.price}` }));
            saw('A-ORDER-ACK');
            const view = book.place({ id, side: o.side, price: o.level, quantity: o.lots, tif: o.tif });
            const p = { id, account: spec.account, tif: o.tif, quantity: o.lots };
            placed.push(p);
            // A record whose fill cannot be read leaves the book unknown: the model may have drifted from the target (a
            // FOK partly filled would shift every later match), so the case ends there rather than blame the next order.
            if (!(await judge(ex, key, p, { state: view.state, filled: view.filled, quantity: o.lots }, 'just after it was placed', saw, reading))) return;
          }
          // Orders that rested may have been filled by later ones: every record must agree with the book in the end.
          for (const p of placed) {
            const v = book.view(p.id)!;
            if (!(await judge(ex, key, p, { state: v.state, filled: v.filled, quantity: p.quantity }, 'after the last order', saw, reading))) return;
          }
        } finally {
          dirty = await clearBook(ex, key, placed, symbol);
        }
      },
    });
  });
});

/** One generated order: which account, side, price level (100 + level), quantity in steps, time in force. */
const orderCase = fc.record({
  account: fc.integer({ min: 0, max: 1 }),
  side: fc.constantFrom<Side>('buy', 'sell'),
  level: fc.integer({ min: 1, max: 4 }),
  lots: fc.integer({ min: 1, max: 3 }),
  tif: fc.constantFrom<TimeInForce>('GTC', 'IOC', 'FOK'),
});

/** Judges one order's record against the book; false when its fill could not be read (the book is no longer known). */
async function judge(ex: Exchange, key: string, p: Placed & { tif: TimeInForce; last?: RecordState }, e: Expected, when: string, saw: (id: string) => void, reading: Reading): Promise<boolean> {
  const o = await settle(ex, key, p, e, settleMs(ex));
  p.last = o.state;
  saw('A-ORDER-STATUS');
  recordSeen(reading, o);
  if (!agrees(o, e)) {
    throw new RequirementViolation(TIF_REQUIREMENT[p.tif], `order ${p.id} (${p.tif}) shows ${describe(o)} ${when}`, `${e.state} with ${e.filled} of ${e.quantity} step(s) filled, as the book predicts`, [o.reply.exchange]);
  }
  // A time in force is about how much was filled: a record whose filled quantity cannot be read shows only its state,
  // which does not tell "nothing filled" from "partly filled", so it is not the condition seen (a fully filled
  // order, shown filled, is).
  const fillKnown = o.filled !== undefined || (e.state === 'filled' && o.state === 'filled');
  if (fillKnown) saw(TIF_REQUIREMENT[p.tif]);
  return fillKnown;
}

/**
 * Cancels what a case may have left resting (every order its records last showed open, or never showed) and waits
 * until the lookups show it gone, so that the next case meets an empty book. Returns why the book could not be
 * cleared, if it could not: the cases after it could not be judged.
 */
async function clearBook(ex: Exchange, key: string, placed: Array<Placed & { quantity: number; last?: RecordState }>, symbol: string): Promise<string | undefined> {
  const resting = placed.filter((p) => p.last === undefined || p.last === 'open');
  for (const p of resting) await ex.cancel(key, p.id, p.account, symbol);
  for (const p of resting) {
    // The record is looked up until it is no longer open (a cancellation, too, may take effect after its
    // acknowledgement). A record the lookup cannot show (judged by the case's own checks) is taken as gone; a lookup
    // that decides nothing (a throttle, a server error, no answer) leaves the book unknown.
    let o: Observed | undefined;
    try {
      o = await settle(ex, key, p, { state: 'cancelled', filled: 0, quantity: p.quantity }, settleMs(ex));
    } catch (e) {
      if (e instanceof RequirementViolation || e instanceof NotTested) continue;
      return `whether order ${p.id} still rests after it was cancelled cannot be told (${(e as Error).message.split('\n')[0]}): the later cases might meet it on the book`;
    }
    if (o.state === 'open') return `order ${p.id} still rests after it was cancelled: the later cases would meet it on the book`;
  }
  return undefined;
}
