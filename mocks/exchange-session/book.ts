// One limit-order book per symbol, matched by price-time priority. Books appear on the first order for a symbol, so
// a test can trade on a market of its own and never meet another test's resting orders.
import { randomInt } from 'node:crypto';
import type { ExchangeSessionFault } from './faults.js';
import { minDecimal } from './decimal.js';

type On = (name: ExchangeSessionFault) => boolean;

export type Side = 'buy' | 'sell';
export type TimeInForce = 'GTC' | 'FOK' | 'IOC';
/** The reference's own states; the profile's status values name them on the wire (settings.orderRecord.statuses). */
export type OrderState = 'open' | 'filled' | 'cancelled';

export interface Order {
  orderId: string;
  userId: string;
  tradingAccountId: string;
  symbol: string;
  side: Side;
  timeInForce: TimeInForce;
  price: bigint;
  quantity: bigint;
  filled: bigint;
  state: OrderState;
  createdAt: number;
  /** The command's price and quantity as the client wrote them, echoed unchanged by the lookup. */
  priceText: string;
  quantityText: string;
  /** Arrival order: the time of price-time priority without ties between orders of the same millisecond. */
  seq: number;
}

export type NewOrder = Pick<Order, 'userId' | 'tradingAccountId' | 'symbol' | 'side' | 'timeInForce' | 'price' | 'quantity' | 'priceText' | 'quantityText'>;

interface Book {
  /** Best first: bids by price descending, asks ascending; arrival order within a price. */
  bids: Order[];
  asks: Order[];
}

export class Exchange {
  private readonly books = new Map<string, Book>();
  private readonly orders = new Map<string, Order>();
  private seq = 0;
  // Ids that look like the public exchange's (long digit strings), increasing, and not guessable from zero; short
  // enough to travel as JSON integers where a reading of A-NS-ID-TYPES sends them as numbers.
  private nextId: bigint;

  constructor(
    private readonly on: On,
    integerIds = false,
  ) {
    this.nextId = BigInt(randomInt(100_000, 900_000)) * 10n ** (integerIds ? 6n : 12n);
  }

  order(orderId: string): Order | undefined {
    return this.orders.get(orderId);
  }

  /** The id of the next order, handed out before it is placed (an acknowledgement that precedes the matching). */
  reserveId(): string {
    this.nextId += BigInt(randomInt(1, 1000));
    return this.nextId.toString();
  }

  /** Places an order: matches what crosses, then applies its time in force to the remainder. */
  place(input: NewOrder, orderId = this.reserveId()): Order {
    const order: Order = { ...input, orderId, filled: 0n, state: 'open', createdAt: Date.now(), seq: ++this.seq };
    this.orders.set(order.orderId, order);
    const book = this.bookOf(order.symbol);
    const opposite = order.side === 'buy' ? book.asks : book.bids;

    const crosses = (resting: Order) => (order.side === 'buy' ? resting.price <= order.price : resting.price >= order.price);
    if (order.timeInForce === 'FOK' && !this.on('fok-fills-partially') && !this.on('fok-partial-fill-unreadable')) {
      let available = 0n;
      for (const resting of opposite) {
        if (!crosses(resting) || available >= order.quantity) break;
        available += resting.quantity - resting.filled;
      }
      if (available < order.quantity) {
        if (this.on('fok-rests')) this.rest(book, order);
        else order.state = 'cancelled';
        return order;
      }
    }

    while (order.filled < order.quantity && opposite.length > 0 && crosses(opposite[0])) {
      const resting = opposite[0];
      const traded = minDecimal(order.quantity - order.filled, resting.quantity - resting.filled);
      order.filled += traded;
      resting.filled += traded;
      if (resting.filled === resting.quantity) {
        resting.state = 'filled';
        opposite.shift();
      }
    }

    if (order.filled === order.quantity) order.state = 'filled';
    else if (order.timeInForce === 'GTC') {
      if (this.on('gtc-cancelled-without-cross') && order.filled === 0n) order.state = 'cancelled';
      else this.rest(book, order);
    } else if (order.timeInForce === 'IOC' && this.on('ioc-remainder-rests')) this.rest(book, order);
    else order.state = 'cancelled';
    return order;
  }

  /** Cancels a resting order; false when it is no longer open. */
  cancel(order: Order): boolean {
    if (order.state !== 'open') return false;
    const book = this.bookOf(order.symbol);
    const side = order.side === 'buy' ? book.bids : book.asks;
    const at = side.indexOf(order);
    if (at >= 0) side.splice(at, 1);
    order.state = 'cancelled';
    return true;
  }

  private rest(book: Book, order: Order): void {
    const side = order.side === 'buy' ? book.bids : book.asks;
    const better = (resting: Order) => (order.side === 'buy' ? resting.price >= order.price : resting.price <= order.price);
    // Behind every order at a better or equal price: equal prices keep arrival order.
    let at = 0;
    while (at < side.length && better(side[at])) at++;
    side.splice(at, 0, order);
    order.state = 'open';
  }

  private bookOf(symbol: string): Book {
    let book = this.books.get(symbol);
    if (!book) this.books.set(symbol, (book = { bids: [], asks: [] }));
    return book;
  }
}
