/**
 * The trading part's state and its effects: the books, every order of every account, the clientOid index, the
 * futures positions and the take-profit/stop-loss orders. The operations (engine.ts and the modules it calls)
 * validate a request and then hand its effect here, at once or later (settle.ts); nothing here refuses a request.
 */
import { randomInt } from 'node:crypto';
import { Book } from './book.ts';
import type { TradingFault, TradingReading } from './catalogue.ts';
import type { Dec } from './decimal.ts';
import { CATEGORY_VALUES, isFutures, MAKER } from './markets.ts';
import { exhausted, fillsInFull, match, wouldTake, type MatchHooks } from './matching.ts';
import { isOpen, type Order } from './orders.ts';
import { Positions } from './positions.ts';

export interface StrategyOrder {
  orderId: string;
  uid: string;
  parentOrderId: string;
  kind: 'take_profit' | 'stop_loss';
  triggerPrice: Dec;
  triggerType: 'mark_price' | 'last_price';
  state: 'live' | 'cancelled';
}

export class Exchange {
  readonly books = new Map<string, Book>();
  readonly orders = new Map<string, Order>();
  readonly positions = new Positions();
  readonly strategy = new Map<string, StrategyOrder>();
  /** uid -> clientOid -> the newest order that carried it. */
  private readonly clientOids = new Map<string, Map<string, Order>>();
  /** Per uid, its orders newest last (cancel-all, cancel by symbol, the clientoid fault). */
  private readonly byAccount = new Map<string, Order[]>();
  private seqCounter = 0;
  // Ids like the public exchange's (long digit strings), increasing, not guessable from zero, and below 2^53 so a
  // deployment that writes them as JSON integers (U-NS-ID-TYPES) loses nothing.
  private nextId = BigInt(randomInt(1_000_000, 9_000_000)) * 1_000_000n;

  constructor(
    private readonly reading: TradingReading,
    private readonly on: (name: TradingFault) => boolean,
    readonly now: () => number,
    symbols: Record<string, string>,
  ) {
    const ids = { next: () => this.newId(), seq: () => ++this.seqCounter };
    for (const category of CATEGORY_VALUES) {
      const book = new Book(category, symbols[category], ids, now);
      book.seed();
      this.books.set(key(category, symbols[category]), book);
    }
  }

  newId(): string {
    this.nextId += BigInt(randomInt(1, 1000));
    return this.nextId.toString();
  }

  nextSeq(): number {
    return ++this.seqCounter;
  }

  book(category: string, symbol: string): Book | undefined {
    return this.books.get(key(category, symbol));
  }

  ordersOf(uid: string): Order[] {
    return this.byAccount.get(uid) ?? [];
  }

  /** The newest order of the account that carried the clientOid (pending ones included). */
  byClientOid(uid: string, clientOid: string): Order | undefined {
    const found = this.clientOids.get(uid)?.get(clientOid);
    if (found && this.on('clientoid-lookup-other-order')) return [...this.ordersOf(uid)].reverse().find((o) => o !== found);
    return found;
  }

  /** The newest order of the account that carried the clientOid, whatever fault is on (the repeat check). */
  clientOidOwner(uid: string, clientOid: string): Order | undefined {
    return this.clientOids.get(uid)?.get(clientOid);
  }

  /** Records an acknowledged order (pending until submit runs), so its id and clientOid are taken from now on. */
  register(order: Order): void {
    this.orders.set(order.orderId, order);
    let mine = this.byAccount.get(order.uid);
    if (!mine) this.byAccount.set(order.uid, (mine = []));
    mine.push(order);
    if (order.clientOid !== undefined) {
      let index = this.clientOids.get(order.uid);
      if (!index) this.clientOids.set(order.uid, (index = new Map()));
      index.set(order.clientOid, order);
    }
  }

  /**
   * Matches a registered order and applies its time in force to the remainder: gtc and post_only rest, ioc, fok and
   * market orders never do. A post_only that would take is cancelled here (the refused reading refuses it before).
   */
  submit(order: Order): void {
    if (order.state !== 'pending') return; // cancelled before it settled
    const book = this.book(order.category, order.symbol)!;
    order.state = 'open';
    order.seq = this.nextSeq();
    const hooks = this.hooks();

    if (order.timeInForce === 'post_only' && !this.on('post-only-takes') && wouldTake(book, order)) return this.reject(order);
    if (order.timeInForce === 'fok' && !this.on('fok-fills-partly') && !fillsInFull(book, order, hooks)) return this.reject(order);

    const { stopped } = match(book, order, hooks);
    book.refill();
    if (exhausted(book, order)) {
      order.state = 'filled';
      return;
    }
    const rests = order.orderType === 'limit' && (order.timeInForce === 'gtc' || order.timeInForce === 'post_only' || (order.timeInForce === 'ioc' && this.on('ioc-rests')));
    const remainderDropped = order.filled > 0n && (order.tifDefaulted === true ? this.on('tif-default-remainder-cancelled') : order.timeInForce === 'gtc' && this.on('gtc-remainder-cancelled'));
    if (rests && !stopped && !remainderDropped) book.rest(order);
    else this.close(order);
  }

  /** Cancels an open (or still pending) order; false when it was already finished. */
  cancel(order: Order): boolean {
    if (!isOpen(order)) return false;
    if (order.state === 'open') this.book(order.category, order.symbol)?.remove(order);
    this.close(order);
    return true;
  }

  /**
   * Moves a resting order to a new price and quantity in place (amend-in-place): it loses its time priority unless
   * only its quantity went down, and a new price that crosses matches as a taker would. False when the change cannot
   * be made (the new quantity is not above what was filled, or a post_only would take).
   */
  amend(order: Order, price: Dec | undefined, qty: Dec | undefined): boolean {
    if (order.state !== 'open') return false;
    const book = this.book(order.category, order.symbol)!;
    const newQty = qty ?? order.qty;
    if (newQty <= order.filled) return false;
    const newPrice = price ?? order.price!;
    const keepsPlace = newPrice === order.price && newQty <= order.qty;
    if (order.timeInForce === 'post_only' && wouldTake(book, { ...order, price: newPrice })) return false;
    order.qty = newQty;
    order.updatedTime = this.now();
    if (keepsPlace) return true;
    book.remove(order);
    order.price = newPrice;
    order.seq = this.nextSeq();
    match(book, order, this.hooks());
    book.refill();
    if (exhausted(book, order)) order.state = 'filled';
    else book.rest(order);
    return true;
  }

  /** Cancels every open order of the account (the countdown), optionally of one category and symbol. */
  cancelAll(uid: string, filter: (o: Order) => boolean = () => true): Order[] {
    return this.ordersOf(uid).filter((o) => isOpen(o) && filter(o) && this.cancel(o));
  }

  private reject(order: Order): void {
    order.rejected = true;
    this.close(order);
  }

  private close(order: Order): void {
    order.state = 'cancelled';
    order.updatedTime = this.now();
    // A take profit or stop loss of an order that never traded has nothing to protect.
    if (order.filled === 0n) for (const id of [order.tpOrderId, order.slOrderId]) if (id && this.strategy.get(id)) this.strategy.get(id)!.state = 'cancelled';
  }

  private hooks(): MatchHooks {
    const perMaster = this.reading('U-NS-STP-DEFAULT') === 'cancel-taker-per-master';
    return {
      own: (taker, maker) => !this.on('stp-ignored') && (perMaster ? taker.group === maker.group : taker.uid === maker.uid),
      filled: (taker, maker, size) => {
        for (const o of [taker, maker]) if (o.uid !== MAKER.uid && isFutures(o.category)) this.positions.apply(o, size);
      },
      makerCancelled: (maker) => this.close(maker),
      now: this.now,
    };
  }
}

const key = (category: string, symbol: string) => `${category} ${symbol}`;
