/**
 * One price-time priority book per category and symbol: the resting orders of each side, best first, and the
 * trades made on it. The market maker's ladder is seeded here and topped up beyond its worst level when trading
 * thins it, so the book never runs dry and never crosses.
 */
import type { Level } from '../contract.ts';
import { fmt, ONE, type Dec } from './decimal.ts';
import { MAKER, makerSize } from './markets.ts';
import { remaining, type Order, type Side } from './orders.ts';

export interface Trade {
  execId: string;
  price: Dec;
  size: Dec;
  /** The taker's side. */
  side: Side;
  ts: number;
}

/** How many trades a book remembers (newest kept). */
const TRADE_MEMORY = 1000;

export class Book {
  /** Best first: bids by price falling, asks by price rising; arrival order within a price. */
  readonly bids: Order[] = [];
  readonly asks: Order[] = [];
  /** Oldest first. */
  readonly trades: Trade[] = [];
  private makerSeq = 0;

  constructor(
    readonly category: string,
    readonly symbol: string,
    private readonly ids: { next(): string; seq(): number },
    private readonly now: () => number,
  ) {}

  /** The side a resting order of this side sits on. */
  sideOf(side: Side): Order[] {
    return side === 'buy' ? this.bids : this.asks;
  }

  /** The side an incoming order of this side matches against. */
  against(side: Side): Order[] {
    return side === 'buy' ? this.asks : this.bids;
  }

  /** Puts an order behind every resting order at a better or equal price. */
  rest(order: Order): void {
    const side = this.sideOf(order.side);
    const price = order.price!;
    const ahead = (r: Order) => (order.side === 'buy' ? r.price! >= price : r.price! <= price);
    let at = 0;
    while (at < side.length && ahead(side[at])) at++;
    side.splice(at, 0, order);
  }

  remove(order: Order): void {
    const side = this.sideOf(order.side);
    const at = side.indexOf(order);
    if (at >= 0) side.splice(at, 1);
  }

  record(price: Dec, size: Dec, side: Side): void {
    this.trades.push({ execId: this.ids.next(), price, size, side, ts: this.now() });
    if (this.trades.length > TRADE_MEMORY) this.trades.splice(0, this.trades.length - TRADE_MEMORY);
  }

  /** The last trade's price, or the mid of the best prices, or the maker's mid: the "market" of TP/SL checks. */
  marketPrice(): Dec {
    const last = this.trades.at(-1);
    if (last) return last.price;
    if (this.bids[0] && this.asks[0]) return (this.bids[0].price! + this.asks[0].price!) / 2n;
    return MAKER.mid;
  }

  /** Aggregated price levels, best first, at most depth a side. */
  levels(depth: number): { bids: Level[]; asks: Level[] } {
    return { bids: aggregate(this.bids, depth), asks: aggregate(this.asks, depth) };
  }

  /** The maker's ladder around its mid, and a few past trades so fills and tickers have something to show. */
  seed(): void {
    for (let i = 0; i < MAKER.levels; i++) {
      this.bids.push(this.makerOrder('buy', MAKER.mid - MAKER.halfSpread - MAKER.step * BigInt(i), makerSize(i)));
      this.asks.push(this.makerOrder('sell', MAKER.mid + MAKER.halfSpread + MAKER.step * BigInt(i), makerSize(i + 3)));
    }
    const start = this.now() - 60 * 60_000;
    for (let i = 0; i < 60; i++) {
      const price = MAKER.mid + (BigInt((i * 37) % 41) - 20n) * ONE;
      this.trades.push({ execId: this.ids.next(), price, size: makerSize(i) / 10n, side: i % 2 ? 'buy' : 'sell', ts: start + i * 60_000 });
    }
  }

  /** Tops the maker's ladder up beyond the worst level of a side that trading thinned. */
  refill(): void {
    for (const [side, levels] of [['buy', this.bids], ['sell', this.asks]] as const) {
      let count = distinctPrices(levels);
      while (count < MAKER.refillBelow) {
        const worst = levels.at(-1)?.price ?? (side === 'buy' ? MAKER.mid - MAKER.halfSpread : MAKER.mid + MAKER.halfSpread);
        const price = side === 'buy' ? worst - MAKER.step : worst + MAKER.step;
        if (price <= 0n) break;
        levels.push(this.makerOrder(side, price, makerSize(count)));
        count++;
      }
    }
  }

  private makerOrder(side: Side, price: Dec, qty: Dec): Order {
    const t = this.now();
    return {
      orderId: `mm-${++this.makerSeq}`,
      uid: MAKER.uid,
      group: MAKER.uid,
      category: this.category,
      symbol: this.symbol,
      side,
      orderType: 'limit',
      price,
      qty,
      quoteQty: false,
      filled: 0n,
      value: 0n,
      timeInForce: 'gtc',
      stpMode: 'none',
      reduceOnly: false,
      state: 'open',
      rejected: false,
      createdTime: t,
      updatedTime: t,
      seq: this.ids.seq(),
    };
  }
}

function aggregate(orders: Order[], depth: number): Level[] {
  const out: Level[] = [];
  if (depth <= 0) return out;
  let price: Dec | undefined;
  let size = 0n;
  for (const o of orders) {
    if (o.price !== price) {
      if (price !== undefined) {
        out.push([fmt(price), fmt(size)]);
        if (out.length >= depth) return out;
      }
      price = o.price;
      size = 0n;
    }
    size += remaining(o);
  }
  if (price !== undefined && out.length < depth) out.push([fmt(price), fmt(size)]);
  return out;
}

function distinctPrices(orders: Order[]): number {
  let count = 0;
  let last: Dec | undefined;
  for (const o of orders) if (o.price !== last) (count++, (last = o.price));
  return count;
}
