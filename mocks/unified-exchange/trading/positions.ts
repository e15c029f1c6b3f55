/**
 * Futures positions, built from fills per account, category, symbol and position side. One-way mode keeps one net
 * position (long above zero, short below); hedge mode keeps a long and a short apart, where a buy with posSide long
 * opens and a sell with posSide long closes (the public exchange's convention). No documented operation reads a
 * position; reduce-only orders and close-positions act on them.
 */
import type { Dec } from './decimal.ts';
import type { Order, PosSide, Side } from './orders.ts';

export interface Position {
  uid: string;
  category: string;
  symbol: string;
  /** 'net' in one-way mode. */
  slot: PosSide | 'net';
  /** Signed for 'net'; never below zero for long and short. */
  size: Dec;
}

export class Positions {
  private readonly all = new Map<string, Position>();

  private get(uid: string, category: string, symbol: string, slot: Position['slot']): Position {
    const key = `${uid}\n${category}\n${symbol}\n${slot}`;
    let p = this.all.get(key);
    if (!p) this.all.set(key, (p = { uid, category, symbol, slot, size: 0n }));
    return p;
  }

  /** A fill of an order: a hedge-mode order (one with posSide) moves its slot; a one-way order the net position. */
  apply(order: Order, size: Dec): void {
    if (order.posSide) {
      const p = this.get(order.uid, order.category, order.symbol, order.posSide);
      const opens = (order.posSide === 'long') === (order.side === 'buy');
      // A closing order beyond the position is not refused (only reduceOnly is checked): the excess is not a position.
      p.size = opens ? p.size + size : p.size > size ? p.size - size : 0n;
    } else {
      const p = this.get(order.uid, order.category, order.symbol, 'net');
      p.size += order.side === 'buy' ? size : -size;
    }
  }

  /**
   * How much an order of this side (and posSide) may reduce: the position it would shrink, or 0 when it would open or
   * increase one.
   */
  reducible(uid: string, category: string, symbol: string, side: Side, posSide: PosSide | undefined): Dec {
    if (posSide) {
      const closes = (posSide === 'long') !== (side === 'buy');
      return closes ? this.get(uid, category, symbol, posSide).size : 0n;
    }
    const net = this.get(uid, category, symbol, 'net').size;
    if (side === 'sell') return net > 0n ? net : 0n;
    return net < 0n ? -net : 0n;
  }

  /** The open positions of an account in a category, optionally of one symbol and one side. */
  open(uid: string, category: string, symbol?: string, posSide?: PosSide): Position[] {
    return [...this.all.values()].filter(
      (p) =>
        p.uid === uid &&
        p.category === category &&
        (symbol === undefined || p.symbol === symbol) &&
        p.size !== 0n &&
        (posSide === undefined || (p.slot === 'net' ? (posSide === 'long') === p.size > 0n : p.slot === posSide)),
    );
  }

  /** The order that closes a position: its side and size, and its posSide in hedge mode. */
  static closing(p: Position): { side: Side; qty: Dec; posSide?: PosSide } {
    if (p.slot === 'net') return p.size > 0n ? { side: 'sell', qty: p.size } : { side: 'buy', qty: -p.size };
    return { side: p.slot === 'long' ? 'sell' : 'buy', qty: p.size, posSide: p.slot };
  }
}
