/**
 * An executable reading of limit orders and their time in force, for every interface that places them (the
 * exchange-session interface; the unified exchange will add post-only). One market, price-time priority, integer
 * prices and quantities (ticks and lots: the suites convert), no fees and no self-trade prevention: what fills, what
 * rests and what is cancelled, never at which price (no document shows fill prices).
 *
 *   GTC  good till cancelled: fills what crosses, the rest stays open until filled or cancelled.
 *   IOC  immediate or cancel: fills what crosses, in full or in part; the remainder is cancelled.
 *   FOK  fill or kill: filled in full at once if the book holds enough crossing quantity, else cancelled, nothing filled.
 */
export type Side = 'buy' | 'sell';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';
export type OrderState = 'open' | 'filled' | 'cancelled';

export interface LimitOrder {
  id: string;
  side: Side;
  price: number;
  quantity: number;
  tif: TimeInForce;
  /** Who placed it (a trading account): kept for the suites' bookkeeping; any two may trade with each other. */
  owner?: string;
}

export interface OrderView {
  order: LimitOrder;
  filled: number;
  state: OrderState;
}

export class LimitBook {
  private readonly orders = new Map<string, OrderView>();
  /** Resting orders in time order; priority is price first, then this order. */
  private resting: OrderView[] = [];

  /** Places an order and returns its view; resting orders it trades with are updated in place. */
  place(order: LimitOrder): OrderView {
    if (this.orders.has(order.id)) throw new Error(`order ${order.id} placed twice`);
    const view: OrderView = { order, filled: 0, state: 'open' };
    this.orders.set(order.id, view);
    const crossing = this.crossing(order);
    const available = crossing.reduce((n, v) => n + (v.order.quantity - v.filled), 0);
    if (order.tif === 'FOK' && available < order.quantity) {
      view.state = 'cancelled';
      return view;
    }
    for (const maker of crossing) {
      const want = order.quantity - view.filled;
      if (want === 0) break;
      const traded = Math.min(want, maker.order.quantity - maker.filled);
      maker.filled += traded;
      view.filled += traded;
      if (maker.filled === maker.order.quantity) maker.state = 'filled';
    }
    this.resting = this.resting.filter((v) => v.state === 'open');
    if (view.filled === order.quantity) view.state = 'filled';
    else if (order.tif === 'GTC') this.resting.push(view);
    else view.state = 'cancelled';
    return view;
  }

  /** Cancels a resting order; false when it is not open (filled, cancelled, unknown). */
  cancel(id: string): boolean {
    const view = this.orders.get(id);
    if (!view || view.state !== 'open') return false;
    view.state = 'cancelled';
    this.resting = this.resting.filter((v) => v !== view);
    return true;
  }

  view(id: string): OrderView | undefined {
    return this.orders.get(id);
  }

  all(): OrderView[] {
    return [...this.orders.values()];
  }

  open(): OrderView[] {
    return [...this.resting];
  }

  /** The resting orders an incoming one trades with, best price first, earliest first at one price. */
  private crossing(order: LimitOrder): OrderView[] {
    const other = this.resting.filter((v) => v.order.side !== order.side);
    const crosses = (v: OrderView) => (order.side === 'buy' ? v.order.price <= order.price : v.order.price >= order.price);
    const better = (a: OrderView, b: OrderView) => (order.side === 'buy' ? a.order.price - b.order.price : b.order.price - a.order.price);
    // Array.prototype.sort is stable: equal prices keep their time order.
    return other.filter(crosses).sort(better);
  }
}
