/**
 * Executable readings of the trading rules of 001_627a805a8a8ef522.txt, small enough to check by eye against it:
 *
 *   "| category | yes | SPOT, MARGIN, USDT-FUTURES, COIN-FUTURES, USDC-FUTURES |" ... "| side | yes | buy or sell |"
 *   "| price | conditional | required when orderType is limit |"
 *   "| posSide | conditional | long or short; required in hedge mode |"
 *   "timeInForce meanings: gtc stays until filled or cancelled; ioc fills what is available at once and cancels the
 *    rest; fok fills in full at once or is cancelled entirely; post_only is rejected if it would match as taker."
 *   "Arms or refreshes a timer that cancels all open orders when it expires unrefreshed; the value 0 disarms it."
 *
 * Limit orders and gtc/ioc/fok are read once for every interface, by harness/models/limit-book.ts; this file adds what
 * the unified exchange has beyond it (post-only, self-trade prevention) around that book, without changing it.
 * The reference (mocks/) is another reading of the same text: the two never import each other.
 */
import { LimitBook, type OrderView, type Side, type TimeInForce } from '../../harness/models/limit-book.ts';
import type { RequirementId } from '../../generated/unified-exchange.ts';

// ---------------------------------------------------------------------------------------------------------------
// The place-order table and its conditional rules

export const CATEGORIES = ['SPOT', 'MARGIN', 'USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'] as const;
export type Category = (typeof CATEGORIES)[number];
export const FUTURES: readonly Category[] = ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'];
export const isFutures = (c: unknown): boolean => (FUTURES as readonly unknown[]).includes(c);

/** The values each enumerated field of place-order takes, as the table lists them. */
export const PLACE_ORDER_VALUES = {
  category: CATEGORIES,
  side: ['buy', 'sell'],
  orderType: ['limit', 'market'],
  timeInForce: ['gtc', 'ioc', 'fok', 'post_only'],
  posSide: ['long', 'short'],
  marginMode: ['crossed', 'isolated'],
  reduceOnly: ['yes', 'no'],
  stpMode: ['none', 'cancel_taker', 'cancel_maker', 'cancel_both'],
  takeProfitTriggerType: ['mark_price', 'last_price'],
  stopLossTriggerType: ['mark_price', 'last_price'],
} as const;

export const REQUIRED_FIELDS = ['category', 'symbol', 'side', 'orderType', 'qty'] as const;

/** The rule an enumerated field's value outside its list breaks. */
const ENUM_RULE: Partial<Record<keyof typeof PLACE_ORDER_VALUES, RequirementId>> = {
  side: 'U-ORDER-SIDE',
  orderType: 'U-ORDER-TYPE',
  timeInForce: 'U-ORDER-TIF-VALUES',
  posSide: 'U-ORDER-POSSIDE-VALUES',
  marginMode: 'U-ORDER-MARGINMODE',
  reduceOnly: 'U-ORDER-REDUCEONLY',
  stpMode: 'U-ORDER-STP-VALUES',
  takeProfitTriggerType: 'U-ORDER-TPSL-TRIGGER-TYPES',
  stopLossTriggerType: 'U-ORDER-TPSL-TRIGGER-TYPES',
};

export type Expectation = { expect: 'refused'; rule: RequirementId; why: string } | { expect: 'accepted'; why: string } | { expect: 'either'; why: string };

/**
 * What every reading of the document says a place-order body gets. `hedge`: the account is in hedge mode as the
 * profile states it (U-NS-HOLD-MODE); undefined when the profile does not say, so that a futures order without posSide
 * is then "either". Fields a category does not use (marginMode, posSide, reduceOnly on SPOT) are refused or ignored
 * (U-NS-OUT-OF-CATEGORY-FIELDS): their values are judged on futures orders only.
 */
export function expectPlaceOrder(body: Record<string, unknown>, hedge: boolean | undefined): Expectation {
  for (const f of REQUIRED_FIELDS) if (body[f] === undefined) return { expect: 'refused', rule: 'U-ORDER-REQUIRED', why: `${f} is required` };
  if (!(CATEGORIES as readonly unknown[]).includes(body.category)) return { expect: 'either', why: `category ${JSON.stringify(body.category)} is not listed (no place-order rule names it)` };
  const futures = isFutures(body.category);
  for (const [field, rule] of Object.entries(ENUM_RULE) as Array<[keyof typeof PLACE_ORDER_VALUES, RequirementId]>) {
    const v = body[field];
    if (v === undefined || (PLACE_ORDER_VALUES[field] as readonly unknown[]).includes(v)) continue;
    const outOfCategory = !futures && (field === 'posSide' || field === 'marginMode' || field === 'reduceOnly');
    if (outOfCategory) return { expect: 'either', why: `${field} on a ${body.category} order may be ignored (U-NS-OUT-OF-CATEGORY-FIELDS)` };
    return { expect: 'refused', rule, why: `${field} ${JSON.stringify(v)} is outside ${PLACE_ORDER_VALUES[field].join(', ')}` };
  }
  if (body.orderType === 'limit' && body.price === undefined) return { expect: 'refused', rule: 'U-ORDER-LIMIT-PRICE', why: 'price is required when orderType is limit' };
  if (futures && body.posSide === undefined) {
    if (hedge === true) return { expect: 'refused', rule: 'U-ORDER-POSSIDE-HEDGE', why: 'posSide is required in hedge mode' };
    if (hedge === undefined) return { expect: 'either', why: 'the profile does not state the hold mode: a futures order without posSide is refused in hedge mode' };
  }
  if (futures && body.posSide !== undefined && hedge !== true) return { expect: 'either', why: 'posSide in one-way mode is refused or ignored (U-NS-POSSIDE-ONE-WAY)' };
  if (!futures && (body.posSide !== undefined || body.marginMode !== undefined || body.reduceOnly !== undefined)) {
    return { expect: 'either', why: `a field ${body.category} does not use is refused or ignored (U-NS-OUT-OF-CATEGORY-FIELDS)` };
  }
  return { expect: 'accepted', why: 'every required field, each value listed, price for a limit order' };
}

/** "close-positions: category (required; the three futures categories), symbol (optional), posSide (optional; long or short)". */
export function expectClosePositions(body: Record<string, unknown>): Expectation {
  if (body.category === undefined) return { expect: 'refused', rule: 'U-CLOSE-CATEGORY', why: 'category is required' };
  if (!isFutures(body.category)) return { expect: 'refused', rule: 'U-CLOSE-CATEGORY', why: `${JSON.stringify(body.category)} is not one of the three futures categories` };
  if (body.posSide !== undefined && !['long', 'short'].includes(body.posSide as string)) return { expect: 'refused', rule: 'U-CLOSE-CATEGORY', why: `posSide ${JSON.stringify(body.posSide)} is neither long nor short` };
  // Nothing to close may be accepted or refused (U-NS-CLOSE-NOTHING).
  return { expect: 'either', why: 'a valid close-positions request, accepted or refused when nothing is open (U-NS-CLOSE-NOTHING)' };
}

/** "cancel-order: orderId or clientOid (one of the two)." */
export function expectCancelOrder(body: Record<string, unknown>): Expectation {
  if (body.orderId === undefined && body.clientOid === undefined) return { expect: 'refused', rule: 'U-CANCEL-ONE-OF', why: 'neither orderId nor clientOid' };
  return { expect: 'either', why: 'names an order (accepted when it is an open order of the account)' };
}

// ---------------------------------------------------------------------------------------------------------------
// Order states, as the profile (or, where it is silent, every listed reading) names them

export type RecordState = 'open' | 'filled' | 'cancelled' | 'unknown';
export interface Statuses {
  open: readonly string[];
  filled: readonly string[];
  cancelled: readonly string[];
}

/** The readings of U-NS-ORDER-STATUSES, as the spec lists them. */
export const STATUS_READINGS: Array<{ reading: string; statuses: Statuses }> = [
  { reading: 'public-exchange-statuses', statuses: { open: ['live', 'partially_filled'], filled: ['filled'], cancelled: ['cancelled'] } },
  { reading: 'live-while-open', statuses: { open: ['live'], filled: ['filled'], cancelled: ['canceled'] } },
  { reading: 'with-rejected', statuses: { open: ['live', 'partially_filled'], filled: ['filled'], cancelled: ['cancelled', 'rejected'] } },
];

/** The member of what was filled, per reading of U-NS-ORDER-RECORD. */
export const FILLED_MEMBERS = ['cumExecQty', 'filledQty'] as const;

export function stateOf(status: unknown, s: Statuses): RecordState {
  if (typeof status !== 'string') return 'unknown';
  if (s.open.includes(status)) return 'open';
  if (s.filled.includes(status)) return 'filled';
  if (s.cancelled.includes(status)) return 'cancelled';
  return 'unknown';
}

// ---------------------------------------------------------------------------------------------------------------
// Post-only and self-trade prevention around the shared limit book

export type Tif = 'gtc' | 'ioc' | 'fok' | 'post_only';
export type Stp = 'none' | 'cancel_taker' | 'cancel_maker' | 'cancel_both';

export interface BookOrder {
  id: string;
  owner: string;
  side: Side;
  /** Price level (ticks) and quantity (lots): the suites convert. */
  price: number;
  quantity: number;
  tif: Tif;
  /** Absent: the request carried none. */
  stp?: Stp;
}

/** What the model says of an order at the moment it is placed. */
export type Placement =
  /** Certain: the order's state and fill, the makers it traded with or cancelled updated in the book. */
  | { kind: 'placed'; view: OrderView }
  /** A post_only that would take: refused, or accepted and cancelled at once with nothing filled (U-NS-POST-ONLY-REJECTION). */
  | { kind: 'post-only-rejected' }
  /** Self-trade prevention cancelled the incoming order (and perhaps makers): its view, nothing filled. */
  | { kind: 'stp'; view: OrderView; makersCancelled: string[] }
  /** The readings disagree on what happens (a self-trade without stpMode, STP among other accounts' orders...). */
  | { kind: 'unknown'; why: string };

const TIF: Record<Exclude<Tif, 'post_only'>, TimeInForce> = { gtc: 'GTC', ioc: 'IOC', fok: 'FOK' };

/**
 * The unified exchange's book: the shared LimitBook (price-time priority, gtc/ioc/fok), plus
 * - post_only: "rejected if it would match as taker"; otherwise it rests as a gtc;
 * - stpMode between two orders of the same account, only where the one resting order the incoming one would meet is the
 *   account's own and the incoming order is a gtc or ioc (elsewhere the readings differ: which makers, fok):
 *   cancel_taker cancels the incoming order, cancel_maker the makers (the incoming one goes on, resting or cancelled as
 *   its time in force says), cancel_both all of them; nothing trades.
 * A self-trade without stpMode (or with none) is "unknown": U-NS-STP-DEFAULT's readings disagree.
 */
export class UnifiedBook {
  readonly book = new LimitBook();
  private readonly owners = new Map<string, string>();

  /** The resting orders an incoming order at this side and price would meet. */
  crossing(side: Side, price: number): OrderView[] {
    return this.book.open().filter((v) => v.order.side !== side && (side === 'buy' ? v.order.price <= price : v.order.price >= price));
  }

  place(o: BookOrder): Placement {
    const meets = this.crossing(o.side, o.price);
    if (o.tif === 'post_only') {
      if (meets.length > 0) return { kind: 'post-only-rejected' };
      this.owners.set(o.id, o.owner);
      return { kind: 'placed', view: this.book.place({ id: o.id, side: o.side, price: o.price, quantity: o.quantity, tif: 'GTC', owner: o.owner }) };
    }
    const own = meets.filter((v) => this.owners.get(v.order.id) === o.owner);
    if (own.length > 0) {
      if (o.stp === undefined || o.stp === 'none') return { kind: 'unknown', why: 'a self-trade without stpMode (or with none): U-NS-STP-DEFAULT' };
      // Which makers a cancel_both or cancel_maker order cancels once it met more than one is not said (the first it
      // meets, or every one it crosses): judged with exactly one.
      if (own.length !== meets.length || own.length > 1 || o.tif === 'fok') return { kind: 'unknown', why: 'self-trade prevention among several resting orders, other accounts\' among them, or on a fok: not every reading agrees' };
      const makersCancelled = o.stp === 'cancel_taker' ? [] : own.map((v) => v.order.id);
      for (const id of makersCancelled) this.book.cancel(id);
      if (o.stp === 'cancel_maker') {
        this.owners.set(o.id, o.owner);
        return { kind: 'placed', view: this.book.place({ id: o.id, side: o.side, price: o.price, quantity: o.quantity, tif: TIF[o.tif], owner: o.owner }) };
      }
      // The incoming order is cancelled before it trades: it never enters the book (a cancel_taker's makers still rest).
      const view: OrderView = { order: { id: o.id, side: o.side, price: o.price, quantity: o.quantity, tif: 'IOC', owner: o.owner }, filled: 0, state: 'cancelled' };
      return { kind: 'stp', view, makersCancelled };
    }
    this.owners.set(o.id, o.owner);
    return { kind: 'placed', view: this.book.place({ id: o.id, side: o.side, price: o.price, quantity: o.quantity, tif: TIF[o.tif], owner: o.owner }) };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The countdown, as a timed model

/**
 * "Arms or refreshes a timer that cancels all open orders when it expires unrefreshed; the value 0 disarms it."
 * Times are the harness's monotonic clock (ms). A request takes effect somewhere between when it was sent and when its
 * answer came, so the deadline is an interval; `graceMs` is how soon after it the orders go (U-NS-COUNTDOWN-TIMING)
 * and `toleranceMs` what the harness allows on top for its own clock and the network, both ways.
 */
export class CountdownModel {
  /** Earliest and latest moment the armed timer expires; undefined when disarmed. */
  private deadline: { from: number; to: number } | undefined;

  constructor(
    readonly graceMs: number,
    readonly toleranceMs: number,
  ) {}

  /** A countdown of `seconds` accepted, sent at `sentAt` and answered at `answeredAt`; "0" disarms. */
  set(seconds: number, sentAt: number, answeredAt: number): void {
    this.deadline = seconds === 0 ? undefined : { from: sentAt + seconds * 1000, to: answeredAt + seconds * 1000 };
  }

  /** The deadline's earliest moment, if armed. */
  expiresFrom(): number | undefined {
    return this.deadline?.from;
  }

  /** The deadline's latest moment, if armed. */
  expiresBy(): number | undefined {
    return this.deadline?.to;
  }

  /**
   * What an order open when the timer was armed must show to a lookup sent at `sentAt` and answered at `answeredAt`:
   * still open when the answer came before the earliest deadline (less the tolerance), cancelled when the lookup was
   * sent after the latest deadline plus grace and tolerance; in between, either.
   */
  expect(sentAt: number, answeredAt: number): 'open' | 'cancelled' | 'either' {
    if (!this.deadline) return 'open';
    if (answeredAt < this.deadline.from - this.toleranceMs) return 'open';
    if (sentAt > this.deadline.to + this.graceMs + this.toleranceMs) return 'cancelled';
    return 'either';
  }
}
