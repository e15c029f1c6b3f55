/**
 * An incoming order against one book: it takes the best resting orders while they cross, at their prices, and
 * self-trade prevention decides what happens when the next resting order is the taker's own (U-ORDER-STP-*; the
 * taker's stpMode decides, as on the public exchange). Time in force is the caller's business (what the remainder
 * does); this module only fills, and tells how much a walk could fill without touching anything (fok).
 */
import type { Book } from './book.ts';
import { min, ONE, over, times, type Dec } from './decimal.ts';
import { remaining, type Order } from './orders.ts';

export interface MatchHooks {
  /** Whether the resting order counts as the taker's own for self-trade prevention (U-NS-STP-DEFAULT). */
  own(taker: Order, maker: Order): boolean;
  /** After each fill: positions follow. */
  filled(taker: Order, maker: Order, size: Dec, price: Dec): void;
  /** A resting order self-trade prevention cancelled. */
  makerCancelled(maker: Order): void;
  now(): number;
}

const crosses = (taker: Order, maker: Order): boolean =>
  taker.orderType === 'market' || (taker.side === 'buy' ? maker.price! <= taker.price! : maker.price! >= taker.price!);

/** What is left of the taker, in its own unit: base quantity, or quote amount for a quote-sized market buy. */
const left = (taker: Order): Dec => (taker.quoteQty ? taker.qty - taker.value : remaining(taker));

/** How much of one resting order the taker can take. */
function take(taker: Order, maker: Order): Dec {
  return taker.quoteQty ? min(remaining(maker), over(left(taker), maker.price!)) : min(left(taker), remaining(maker));
}

/** Whether a walk of the book would fill the taker in full (fok), with nothing changed. */
export function fillsInFull(book: Book, taker: Order, hooks: MatchHooks): boolean {
  let need = left(taker);
  for (const maker of book.against(taker.side)) {
    if (need <= 0n || !crosses(taker, maker)) break;
    if (taker.stpMode !== 'none' && hooks.own(taker, maker)) {
      if (taker.stpMode === 'cancel_maker') continue;
      break;
    }
    const size = taker.quoteQty ? min(remaining(maker), over(need, maker.price!)) : min(need, remaining(maker));
    if (size === 0n) break;
    need -= taker.quoteQty ? times(maker.price!, size) : size;
  }
  return taker.quoteQty ? need * ONE < (book.against(taker.side)[0]?.price ?? ONE) : need <= 0n;
}

/** Whether the taker would match anything at once (a post_only that would take). */
export function wouldTake(book: Book, taker: Order): boolean {
  const best = book.against(taker.side)[0];
  return best !== undefined && crosses(taker, best);
}

/** Fills the taker against the book. `stopped`: self-trade prevention cancelled the taker's remainder. */
export function match(book: Book, taker: Order, hooks: MatchHooks): { stopped: boolean } {
  const side = book.against(taker.side);
  let i = 0;
  while (i < side.length && left(taker) > 0n) {
    const maker = side[i];
    if (!crosses(taker, maker)) break;
    if (taker.stpMode !== 'none' && hooks.own(taker, maker)) {
      if (taker.stpMode === 'cancel_maker' || taker.stpMode === 'cancel_both') {
        side.splice(i, 1);
        maker.state = 'cancelled';
        maker.updatedTime = hooks.now();
        hooks.makerCancelled(maker);
      } else i++;
      if (taker.stpMode === 'cancel_taker' || taker.stpMode === 'cancel_both') return { stopped: true };
      continue;
    }
    const size = take(taker, maker);
    if (size === 0n) break;
    const price = maker.price!;
    const t = hooks.now();
    for (const o of [taker, maker]) {
      o.filled += size;
      o.value += times(price, size);
      o.updatedTime = t;
    }
    book.record(price, size, taker.side);
    hooks.filled(taker, maker, size, price);
    if (remaining(maker) === 0n) {
      maker.state = 'filled';
      side.splice(i, 1);
    } else i++;
  }
  return { stopped: false };
}

/** Whether the taker has nothing left to fill (a quote-sized buy: its leftover buys less than one unit at the best price). */
export function exhausted(book: Book, taker: Order): boolean {
  if (!taker.quoteQty) return remaining(taker) === 0n;
  const best = book.against(taker.side)[0]?.price;
  return taker.filled > 0n && (best === undefined || over(left(taker), best) === 0n);
}
