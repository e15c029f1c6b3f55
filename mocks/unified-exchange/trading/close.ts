/**
 * close-positions: each open futures position of the caller in the category (one symbol's, one side's, or all)
 * is closed by a reduce-only market order against the book, which the market maker's depth always fills.
 * Nothing to close is answered as U-NS-CLOSE-NOTHING reads.
 */
import { accepted, refused, type OperationRequest, type Outcome } from '../contract.ts';
import { text, type Ctx } from './context.ts';
import type { Order, PosSide } from './orders.ts';
import { Positions } from './positions.ts';

const FUTURES_CATEGORIES = ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'];

export function closePositions(ctx: Ctx, req: OperationRequest): Outcome {
  const { x } = ctx;
  const { account } = req.caller;
  const category = text(req.params.category) ?? '';
  const symbol = text(req.params.symbol);
  const posSide = req.params.posSide as PosSide | undefined;
  if (ctx.on('close-any-category') && !FUTURES_CATEGORIES.includes(category)) return accepted({ list: [] });
  if (posSide !== undefined && posSide !== 'long' && posSide !== 'short') return refused('validation', 'posSide must be long or short');
  const open = x.positions.open(account.uid, category, symbol, posSide);
  if (!open.length) return ctx.reading('U-NS-CLOSE-NOTHING') === 'refused' ? refused('state', 'no position to close') : accepted({ list: [] });

  const list = open.map((p) => {
    const closing = Positions.closing(p);
    const t = ctx.now();
    const order: Order = {
      orderId: x.newId(),
      uid: account.uid,
      group: account.masterUid ?? account.uid,
      category: p.category,
      symbol: p.symbol,
      side: closing.side,
      orderType: 'market',
      qty: closing.qty,
      quoteQty: false,
      filled: 0n,
      value: 0n,
      timeInForce: 'ioc',
      stpMode: 'none',
      ...(closing.posSide ? { posSide: closing.posSide } : {}),
      marginMode: 'crossed',
      reduceOnly: true,
      state: 'pending',
      rejected: false,
      createdTime: t,
      updatedTime: t,
      seq: 0,
    };
    x.register(order);
    ctx.settle.later(() => x.submit(order));
    return { orderId: order.orderId, symbol: p.symbol, posSide: closing.posSide ?? (closing.side === 'sell' ? 'long' : 'short') };
  });
  return accepted({ list });
}
