/**
 * The trading part of the unified-exchange reference: the operations under /api/v3/trade/ (by operationId) and
 * the market view market data is served from (the live book and its trades). The routing has authenticated the
 * caller, checked its trading permission and validated the parameters against the spec before a handler runs.
 *
 * The modules: exchange.ts (state and effects: books, orders, positions), book.ts and matching.ts (price-time
 * priority), place.ts, cancel.ts, modify.ts, close.ts (the operations), countdown.ts (the cancel-all timer),
 * settle.ts (when effects apply), orders.ts (the record), catalogue.ts (faults and readings).
 */
import { accepted, refused, type MarketView, type OperationRequest, type Outcome, type Part, type PartOptions } from '../contract.ts';
import type { TradingFault, TradingReading } from './catalogue.ts';
import { cancelBatch, cancelOrder, cancelStrategyOrder, cancelSymbolOrders, getOrder } from './cancel.ts';
import { closePositions } from './close.ts';
import { isRefusal, type Ctx } from './context.ts';
import { Countdown } from './countdown.ts';
import { fmt } from './decimal.ts';
import { Exchange } from './exchange.ts';
import { symbolsOf } from './markets.ts';
import { batchModifyOrders } from './modify.ts';
import { placeOrder } from './place.ts';
import { Settler } from './settle.ts';
import { withBlanketFaults } from './blanket.ts';

export { symbolsOf } from './markets.ts';

export function createTrading(options: PartOptions): Part & MarketView {
  const reading = options.reading as TradingReading;
  const on = (name: TradingFault) => options.fault(name);
  const symbols = symbolsOf(options.settings);
  const x = new Exchange(reading, on, options.now, symbols);
  const settle = new Settler(reading('U-NS-ORDER-PROCESSING') === 'asynchronous');
  const ctx: Ctx = { x, reading, on, settings: options.settings, symbols, settle, now: options.now };

  const countdown = new Countdown({
    now: options.now,
    timing: reading('U-NS-COUNTDOWN-TIMING') === 'periodic-sweep' ? 'periodic-sweep' : 'at-deadline',
    neverFires: on('countdown-never-fires') || on('countdown-never-fires-lookups-throttled'),
    expire: (uid) => {
      settle.drain(); // what was acknowledged before the deadline is on the book before it is swept
      x.cancelAll(uid);
    },
  });

  const handle = (fn: (ctx: Ctx, req: OperationRequest) => Outcome) => (req: OperationRequest) => fn(ctx, req);

  /**
   * The fault refused-order-placed: an order refused for its parameters is stored all the same, as a far buy resting
   * under its clientOid (a deployment that writes the order before it checks it).
   */
  const placeRefusedAnyway = (params: unknown, caller: OperationRequest['caller']) => {
    const clientOid = (params as { clientOid?: unknown } | undefined)?.clientOid;
    if ((!on('refused-order-placed') && !on('refused-order-placed-cancels-throttled')) || typeof clientOid !== 'string') return;
    const markets = options.settings.markets;
    placeOrder(ctx, { operationId: 'placeOrder', caller, params: { category: 'SPOT', symbol: ctx.symbols.SPOT, side: 'buy', orderType: 'limit', qty: markets?.quantity ?? '0.001', price: markets?.farPrices?.buy ?? '1000', clientOid } });
  };

  return {
    refused: (operationId, params, caller) => {
      if (operationId === 'placeOrder') placeRefusedAnyway(params, caller);
    },
    operations: withBlanketFaults({
      placeOrder: (req) => {
        const out = placeOrder(ctx, req);
        if (isRefusal(out) && out.kind === 'validation') placeRefusedAnyway(req.params, req.caller);
        return out;
      },
      cancelOrder: handle(cancelOrder),
      cancelSymbolOrders: handle(cancelSymbolOrders),
      batchModifyOrders: handle(batchModifyOrders),
      cancelBatch: handle(cancelBatch),
      countdownCancelAll: (req) => countdownCancelAll(ctx, countdown, req),
      closePositions: handle(closePositions),
      cancelStrategyOrder: handle(cancelStrategyOrder),
      getOrder: handle(getOrder),
    }, { x, on, firstDeadlinePassed: () => countdown.firstDeadlinePassed() }),

    close() {
      countdown.close();
      settle.close();
    },

    book(category, symbol, depth) {
      const b = x.book(category, symbol);
      if (!b) return { bids: [], asks: [], ts: options.now() };
      const { bids, asks } = b.levels(Math.max(0, depth));
      if (on('book-worst-first')) (bids.reverse(), asks.reverse());
      return { bids, asks, ts: options.now() };
    },

    trades(category, symbol, limit) {
      const b = x.book(category, symbol);
      if (!b || limit <= 0) return [];
      return b.trades
        .slice(-Math.max(0, limit))
        .reverse()
        .map((t) => ({ execId: t.execId, price: fmt(t.price), size: fmt(t.size), side: t.side, ts: t.ts }));
    },
  };
}

/** The countdown's range of seconds, per U-NS-COUNTDOWN-RANGE ("0" always disarms). */
function rangeOf(reading: TradingReading): { min: number; max: number; clamped: boolean } {
  switch (reading('U-NS-COUNTDOWN-RANGE')) {
    case 'ten-to-one-hundred-twenty':
      return { min: 10, max: 120, clamped: false };
    case 'clamped':
      return { min: 5, max: 60, clamped: true };
    default:
      return { min: 5, max: 60, clamped: false };
  }
}

/** countdown-cancel-all: arms, refreshes or ("0") disarms the scope's timer (U-NS-COUNTDOWN-SCOPE). */
function countdownCancelAll(ctx: Ctx, countdown: Countdown, req: OperationRequest): Outcome {
  const raw = req.params.countdown;
  if (raw === undefined && ctx.on('countdown-without-value-accepted')) return accepted({});
  const value = typeof raw === 'number' && Number.isInteger(raw) ? String(raw) : raw;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return refused('validation', 'countdown must be a whole number of seconds as a string');
  const { account, apiKey } = req.caller;
  const scope = ctx.reading('U-NS-COUNTDOWN-SCOPE') === 'per-key' ? `key ${apiKey}` : `uid ${account.uid}`;
  const range = rangeOf(ctx.reading);
  let seconds = Number(value);
  if (seconds === 0) {
    if (ctx.on('countdown-zero-arms')) countdown.arm(scope, account.uid, range.min);
    else countdown.disarm(scope);
    return accepted({ countdown: '0' });
  }
  if ((seconds < range.min || seconds > range.max) && !ctx.on('countdown-range-unchecked')) {
    if (!range.clamped) return refused('validation', `countdown must be 0 or between ${range.min} and ${range.max} seconds`);
    seconds = Math.min(range.max, Math.max(range.min, seconds));
  }
  const armed = countdown.deadlineOf(scope);
  if (armed !== undefined && ctx.on('countdown-refresh-ignored')) return accepted({ countdown: String(seconds), deadline: String(armed) });
  const deadline = countdown.arm(scope, account.uid, seconds);
  return accepted({ countdown: String(seconds), deadline: String(deadline) });
}
