import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { fitTimeout } from '../../harness/budget.ts';
import { LimitBook, type Side, type TimeInForce } from '../../harness/models/limit-book.ts';
import { depthFactor } from '../../harness/options.ts';
import { test, reqTags, NotTested, RequirementViolation, type Exchange, type OrderSpec } from './exchange.ts';
import type { OrderUndo } from './restore.ts';
import { acknowledged, agrees, describe, settle, steps, TIF_REQUIREMENT, type Expected } from './records.ts';

const ORDER_REQUIREMENTS = ['A-ORDER-ACK', 'A-ORDER-STATUS', 'A-TIF-GTC', 'A-TIF-IOC', 'A-TIF-FOK'];
const TIF_CASES = 100;

/** How long a record may take to show what the order became ("read by polling the order lookup"). */
const settleMs = (ex: Exchange) => (ex.live ? 5000 : 500);

test.describe('limit orders and their time in force', () => {
  // What every target can be sent once it allows writes: nothing crosses, so the document alone says what happens.
  test('orders priced far from the market: a GTC rests until cancelled, an IOC and a FOK are cancelled unfilled', { tag: reqTags(...ORDER_REQUIREMENTS) }, async ({ exchange: ex, verify, notApplicable, writes }) => {
    for (const id of ORDER_REQUIREMENTS) if (ex.scope.requirements[id]) notApplicable(id, ex.scope.requirements[id]);
    if (!ex.scope.orders) return;
    const key = await ex.sessionKey();
    const [account] = await ex.accounts(key);
    const tifs: TimeInForce[] = ex.scope.requirements['A-TIF-GTC'] ? ['IOC', 'FOK'] : ['GTC', 'IOC', 'FOK'];
    const far = (tif: TimeInForce): OrderSpec => ({ account: account.id, side: 'buy', price: ex.settings.order.farPrices.buy, quantity: ex.settings.order.quantityStep, tif });
    const ids = new Map<TimeInForce, string>();
    await verify('A-ORDER-ACK', async () => {
      for (const tif of tifs) {
        const id = acknowledged(await ex.order(key, far(tif)));
        ids.set(tif, id);
        // Whatever the checks below find, an order that may rest is cancelled when the test ends; against a live
        // target it is journalled first, so that npm run restore cancels it if the run is killed before then.
        if (tif === 'GTC') {
          const undo: OrderUndo = { kind: 'order', key, orderId: id, account: account.id, symbol: ex.settings.order.symbol };
          writes.intend('POST /trading-api/v2/orders', `cancel order ${id}`, undo, async () => ((await ex.cancel(key, id, account.id)).status === 200 ? 'undone' : 'nothing'));
        }
      }
    });
    const expected: Record<TimeInForce, Expected> = {
      GTC: { state: 'open', filled: 0, quantity: 1 },
      IOC: { state: 'cancelled', filled: 0, quantity: 1 },
      FOK: { state: 'cancelled', filled: 0, quantity: 1 },
    };
    const seen = new Map<TimeInForce, Awaited<ReturnType<typeof settle>>>();
    await verify('A-ORDER-STATUS', async () => {
      if (ids.size === 0) throw new NotTested('no order was acknowledged with an orderId to look up');
      for (const [tif, id] of ids) seen.set(tif, await settle(ex, key, id, expected[tif], settleMs(ex)));
    });
    for (const tif of tifs) {
      await verify(TIF_REQUIREMENT[tif], () => {
        const o = seen.get(tif);
        if (!o) throw new NotTested(`the ${tif} order could not be looked up`);
        if (!agrees(o, expected[tif])) {
          throw new RequirementViolation(TIF_REQUIREMENT[tif], `a ${tif} buy far below the market shows ${describe(o)}`, tif === 'GTC' ? 'open, nothing filled' : 'cancelled, nothing filled', [o.reply.exchange]);
        }
      });
    }
  });

  test('time in force, model-based property: crossing orders of two trading accounts fill, rest and cancel as the book predicts', { tag: reqTags(...ORDER_REQUIREMENTS) }, async ({ exchange: ex, property, notApplicable, profile, target }, testInfo) => {
    if (!ex.scope.crossing) {
      const why = ex.scope.orders ? 'a live market has other traders and self-trade prevention: only orders far from the market are sent (settings.order.crossingOrders)' : ex.scope.requirements['A-ORDER-ACK'];
      for (const id of ORDER_REQUIREMENTS) notApplicable(id, ex.scope.requirements[id] ?? why);
      return;
    }
    fitTimeout(testInfo, { requests: TIF_CASES * depthFactor() * 16 * 2 }, profile, !target.reference);
    const requirements = ORDER_REQUIREMENTS.filter((id) => !ex.scope.requirements[id]);
    await property({
      id: 'exchange-session-time-in-force',
      requirements,
      arbitrary: fc.array(orderCase, { minLength: 1, maxLength: 6 }),
      testing: (orders) => ['A-ORDER-ACK', 'A-ORDER-STATUS', ...new Set(orders.map((o) => TIF_REQUIREMENT[o.tif]))],
      runs: TIF_CASES,
      check: async (orders, _skip, saw) => {
        const key = await ex.sessionKey();
        const accounts = await ex.accounts(key);
        // The reference opens a market per symbol: each case trades on one nobody else uses.
        const symbol = ex.live ? ex.settings.order.symbol : `TIF${randomBytes(5).toString('hex').toUpperCase()}`;
        const book = new LimitBook();
        const placed: Array<{ id: string; tif: TimeInForce; quantity: number; account: string }> = [];
        try {
          for (const [i, o] of orders.entries()) {
            const spec: OrderSpec = { account: accounts[o.account % accounts.length].id, side: o.side, price: String(100 + o.level), quantity: steps(ex.settings.order.quantityStep, o.lots), tif: o.tif, symbol };
            const id = acknowledged(await ex.order(key, spec, { label: `order ${i + 1}: ${o.tif} ${o.side} ${o.lots} step(s) at ${spec.price}` }));
            saw('A-ORDER-ACK');
            const view = book.place({ id, side: o.side, price: o.level, quantity: o.lots, tif: o.tif });
            placed.push({ id, tif: o.tif, quantity: o.lots, account: spec.account });
            await judge(ex, key, id, o.tif, { state: view.state, filled: view.filled, quantity: o.lots }, 'just after it was placed', saw);
          }
          // Orders that rested may have been filled by later ones: every record must agree with the book in the end.
          for (const p of placed) {
            const v = book.view(p.id)!;
            await judge(ex, key, p.id, p.tif, { state: v.state, filled: v.filled, quantity: p.quantity }, 'after the last order', saw);
          }
        } finally {
          // A live market keeps what rests: every order placed is cancelled (one already done is refused, harmlessly).
          if (ex.live) for (const p of placed) await ex.cancel(key, p.id, p.account, symbol).catch(() => undefined);
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

async function judge(ex: Exchange, key: string, id: string, tif: TimeInForce, e: Expected, when: string, saw: (id: string) => void): Promise<void> {
  const o = await settle(ex, key, id, e, settleMs(ex));
  saw('A-ORDER-STATUS');
  if (!agrees(o, e)) {
    throw new RequirementViolation(TIF_REQUIREMENT[tif], `order ${id} (${tif}) shows ${describe(o)} ${when}`, `${e.state} with ${e.filled} of ${e.quantity} step(s) filled, as the book predicts`, [o.reply.exchange]);
  }
  saw(TIF_REQUIREMENT[tif]);
}
