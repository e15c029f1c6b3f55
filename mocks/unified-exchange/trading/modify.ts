/**
 * batch-modify-order: each item names an open order and its new qty and/or price (U-NS-MODIFY-RULES). Amended in
 * place, the order keeps its orderId; replaced, a new order (new orderId, same clientOid) rests at the new price and
 * quantity and the old one is cancelled. autoCancel yes cancels the order whose modification fails.
 */
import { refused, type Caller, type OperationRequest, type Outcome } from '../contract.ts';
import { answerBatch, asItem, batchSizeRefusal, failed, itemsOf, type Checked } from './batch.ts';
import { amount, ids, isRefusal, naming, resolve, type Ctx, type Named } from './context.ts';
import type { Dec } from './decimal.ts';
import { wouldTake } from './matching.ts';
import { isOpen, remaining, type Order } from './orders.ts';

interface Plan {
  order: Order;
  price?: Dec;
  qty?: Dec;
  autoCancel: boolean;
}

export function batchModifyOrders(ctx: Ctx, req: OperationRequest): Outcome {
  const items = itemsOf(req.params);
  const tooMany = batchSizeRefusal(ctx, items);
  if (tooMany) return tooMany;
  const checked = items!.map((raw) => checkItem(ctx, req.caller, raw));
  return answerBatch(ctx, checked, (plan) => (ctx.on('modify-ignored') ? ids(plan.order) : apply(ctx, plan)));
}

function checkItem(ctx: Ctx, caller: Caller, raw: unknown): Checked<Plan> {
  const item = asItem(raw);
  if (isRefusal(item)) return failed(raw, item);
  const i = item as Record<string, unknown>;
  const named = naming(ctx, i, { symbol: false });
  if (isRefusal(named)) return failed(i, named);
  if (i.autoCancel !== undefined && i.autoCancel !== 'yes' && i.autoCancel !== 'no') return failed(i, refused('validation', 'autoCancel must be yes or no'));
  const plan: Omit<Plan, 'order'> = { autoCancel: i.autoCancel === 'yes' };
  if (i.price !== undefined) {
    const price = amount(ctx, 'price', i.price, 'price');
    if (isRefusal(price)) return failed(i, price);
    plan.price = price;
  }
  if (i.qty !== undefined) {
    const qty = amount(ctx, 'qty', i.qty, 'qty');
    if (isRefusal(qty)) return failed(i, qty);
    plan.qty = qty;
  }
  const order = resolve(ctx, caller, named as Named, false);
  if (!order) return failed(i, refused('state', 'the order does not exist'));
  if (!isOpen(order)) return failed(i, refused('state', 'the order is already finished'));
  if (order.orderType !== 'limit') return failed(i, refused('state', 'only a resting limit order can be modified'));
  return { ok: true, plan: { ...plan, order } };
}

/** Applies one item (at once, or after the acknowledgement in the asynchronous reading) and names its result. */
function apply(ctx: Ctx, plan: Plan): Record<string, unknown> {
  const { x } = ctx;
  const { order } = plan;
  if (plan.price === undefined && plan.qty === undefined) return ids(order); // nothing to change
  if (ctx.reading('U-NS-MODIFY-RULES') === 'cancel-replace') {
    const replacement: Order = {
      ...order,
      orderId: x.newId(),
      price: plan.price ?? order.price,
      qty: plan.qty ?? remaining(order),
      filled: 0n,
      value: 0n,
      state: 'pending',
      rejected: false,
      createdTime: ctx.now(),
      updatedTime: ctx.now(),
      tpOrderId: undefined,
      slOrderId: undefined,
    };
    const book = x.book(order.category, order.symbol)!;
    if (order.timeInForce === 'post_only' && wouldTake(book, replacement)) {
      if (plan.autoCancel) ctx.settle.later(() => x.cancel(order));
      return { ...ids(order), code: '43002', msg: 'the replacement would take as a post_only order' };
    }
    x.register(replacement);
    ctx.settle.later(() => {
      x.cancel(order);
      x.submit(replacement);
    });
    return ids(replacement);
  }
  // Amended in place: the outcome is known only when it applies, so a failure of a settled-later amendment shows in
  // the order (unchanged, or cancelled with autoCancel) rather than in the item's result.
  let result: Record<string, unknown> = ids(order);
  ctx.settle.later(() => {
    if (x.amend(order, plan.price, plan.qty)) return;
    if (plan.autoCancel) x.cancel(order);
    result = { ...ids(order), code: '43002', msg: 'the order cannot take that price or quantity' };
  });
  return result;
}
