/**
 * The operations that name orders: the lookup, cancel-order, cancel-symbol-order, cancel-batch and
 * cancel-strategy-order. An order the caller does not have (unknown, or another account's) is answered as
 * U-NS-UNKNOWN-ORDER reads; an order already finished as U-NS-CANCEL-FINISHED reads.
 */
import { accepted, refused, type Caller, type OperationRequest, type Outcome } from '../contract.ts';
import { answerBatch, asItem, batchSizeRefusal, failed, itemsOf, type Checked } from './batch.ts';
import { ids, isRefusal, naming, resolve, text, type Ctx, type Named } from './context.ts';
import { isOpen, orderRecord, type Order } from './orders.ts';

const unknownOrder = () => refused('state', 'the order does not exist');

/** The order lookup (getOrder): an order still pending settlement is not found yet (the asynchronous reading). */
export function getOrder(ctx: Ctx, req: OperationRequest): Outcome {
  const named = naming(ctx, req.params, { symbol: false });
  if (isRefusal(named)) return named;
  const order = resolve(ctx, req.caller, named as Named, ctx.on('lookup-other-account'));
  if (!order || order.state === 'pending') {
    const { orderId } = named as Named;
    if (ctx.on('lookup-unknown-invented') && orderId !== undefined) return accepted({ orderId, status: 'live' });
    return ctx.reading('U-NS-UNKNOWN-ORDER') === 'empty-data' ? accepted(null) : unknownOrder();
  }
  const strategy = ctx.reading('U-NS-STRATEGY-ORDERS') === 'in-order-record';
  const stated = ctx.settings.strategyOrderIds;
  return accepted(
    orderRecord(order, {
      reading: ctx.reading,
      stuckLive: ctx.on('filled-shows-live'),
      openNew: ctx.on('open-shows-new'),
      ...(strategy ? { strategyMembers: { takeProfit: stated?.takeProfit ?? 'tpOrderId', stopLoss: stated?.stopLoss ?? 'slOrderId' } } : {}),
    }),
  );
}

/**
 * Whether the caller may cancel this order now: the refusal, or undefined when it is open (or already finished and
 * the reading takes that as a no-op, `noOp`).
 */
function cancellable(ctx: Ctx, order: Order | undefined): { refusal?: Outcome; noOp?: boolean } {
  if (!order) return { refusal: unknownOrder() };
  if (isOpen(order)) return {};
  return ctx.reading('U-NS-CANCEL-FINISHED') === 'accepted-no-op' ? { noOp: true } : { refusal: refused('state', 'the order is already finished') };
}

export function cancelOrder(ctx: Ctx, req: OperationRequest): Outcome {
  if (ctx.on('cancel-without-ids-accepted') && req.params.orderId === undefined && req.params.clientOid === undefined) return accepted({});
  const named = naming(ctx, req.params, { symbol: true });
  if (isRefusal(named)) return named;
  const order = resolve(ctx, req.caller, named as Named, ctx.on('cancel-other-account'));
  if (!order && ctx.on('cancel-unknown-accepted')) return accepted(ids({ orderId: (named as Named).orderId ?? '', clientOid: (named as Named).clientOid }));
  const { refusal, noOp } = cancellable(ctx, order);
  if (refusal) return refusal;
  if (!noOp && !ctx.on('cancel-leaves-order-open')) ctx.settle.later(() => ctx.x.cancel(order!));
  return accepted(ids(order!));
}

/** Every open order of the caller in the category (and symbol); the fault cancels the whole account's. */
export function cancelSymbolOrders(ctx: Ctx, req: OperationRequest): Outcome {
  const category = text(req.params.category);
  const symbol = text(req.params.symbol);
  const whole = ctx.on('cancel-symbol-whole-account');
  const matches = (o: Order) => whole || (o.category === category && (symbol === undefined || o.symbol === symbol));
  const chosen = ctx.x.ordersOf(req.caller.account.uid).filter((o) => isOpen(o) && matches(o));
  ctx.settle.later(() => chosen.forEach((o) => ctx.x.cancel(o)));
  return accepted({ list: chosen.map(ids) });
}

export function cancelBatch(ctx: Ctx, req: OperationRequest): Outcome {
  const items = itemsOf(req.params);
  const tooMany = batchSizeRefusal(ctx, items);
  if (tooMany) return tooMany;
  const checked = items!.map((raw) => checkCancelItem(ctx, req.caller, raw));
  return answerBatch(ctx, checked, (plan) => {
    if (!plan.noOp && !ctx.on('batch-cancel-ignores-items')) ctx.settle.later(() => ctx.x.cancel(plan.order));
    return ids(plan.order);
  });
}

function checkCancelItem(ctx: Ctx, caller: Caller, raw: unknown): Checked<{ order: Order; noOp: boolean }> {
  const item = asItem(raw);
  if (isRefusal(item)) return failed(raw, item);
  const i = item as Record<string, unknown>;
  const category = text(i.category);
  const symbol = text(i.symbol);
  if (category === undefined) return failed(i, refused('validation', 'category is required'));
  if (symbol === undefined) return failed(i, refused('validation', 'symbol is required'));
  const named = naming(ctx, i, { symbol: true });
  if (isRefusal(named)) return failed(i, named);
  const order = resolve(ctx, caller, named as Named, false);
  // The item names its market: an order of another category or symbol is not the one it means.
  const mine = order && order.category === category && order.symbol === symbol ? order : undefined;
  const { refusal, noOp } = cancellable(ctx, mine);
  if (refusal) return failed(i, refusal);
  return { ok: true, plan: { order: mine!, noOp: noOp === true } };
}

/** cancel-strategy-order: a live take profit or stop loss of the caller, by its orderId (none carries a clientOid). */
export function cancelStrategyOrder(ctx: Ctx, req: OperationRequest): Outcome {
  const named = naming(ctx, req.params, { symbol: false });
  if (isRefusal(named)) return named;
  const { orderId, clientOid } = named as Named;
  const found = orderId !== undefined ? ctx.x.strategy.get(orderId) : undefined;
  if (!found || found.uid !== req.caller.account.uid || found.state !== 'live') {
    if (ctx.on('strategy-cancel-unknown-accepted')) return accepted({ orderId: orderId ?? '', ...(clientOid !== undefined ? { clientOid } : {}) });
    return refused('state', 'no such take-profit, stop-loss or plan order');
  }
  ctx.settle.later(() => (found.state = 'cancelled'));
  return accepted({ orderId: found.orderId });
}
