/**
 * The order as the trading part keeps it, and the order record as the lookup shows it. The part's own states are
 * few (pending, open, filled, cancelled); the status values and the record's member names are readings
 * (U-NS-ORDER-STATUSES, U-NS-ORDER-RECORD), applied only when a record is written.
 */
import type { TradingReading } from './catalogue.ts';
import { fmt, over, type Dec } from './decimal.ts';
import { isFutures } from './markets.ts';

export type Side = 'buy' | 'sell';
export type TimeInForce = 'gtc' | 'ioc' | 'fok' | 'post_only';
export type StpMode = 'none' | 'cancel_taker' | 'cancel_maker' | 'cancel_both';
export type PosSide = 'long' | 'short';
/** pending: acknowledged, not yet matched (the asynchronous reading of U-NS-ORDER-PROCESSING); invisible to reads. */
export type OrderState = 'pending' | 'open' | 'filled' | 'cancelled';

export interface Order {
  orderId: string;
  uid: string;
  /** Whose orders count as one for self-trade prevention in the per-master reading: the master's uid, or its own. */
  group: string;
  clientOid?: string;
  category: string;
  symbol: string;
  side: Side;
  orderType: 'limit' | 'market';
  /** Absent for a market order. */
  price?: Dec;
  /** Base quantity; on a market buy in the quote reading of U-NS-MARKET-BUY-QTY, the quote amount to spend. */
  qty: Dec;
  quoteQty: boolean;
  filled: Dec;
  /** What the fills were worth (sum of price x size): the average price is value / filled. */
  value: Dec;
  timeInForce: TimeInForce;
  /** Sent without timeInForce (gtc by default): the seeded fault tif-default-remainder-cancelled acts on these. */
  tifDefaulted?: boolean;
  stpMode: StpMode;
  posSide?: PosSide;
  marginMode?: 'crossed' | 'isolated';
  reduceOnly: boolean;
  state: OrderState;
  /** Cancelled at placement without ever resting (post_only that would take, fok that cannot fill, reduce-only). */
  rejected: boolean;
  createdTime: number;
  updatedTime: number;
  /** Arrival order on the book: price-time priority without ties inside one millisecond. */
  seq: number;
  tpOrderId?: string;
  slOrderId?: string;
}

export const remaining = (o: Order): Dec => o.qty - o.filled;
export const isOpen = (o: Order): boolean => o.state === 'open' || o.state === 'pending';

/** The status value of an order in the reading the part was started in. */
export function statusOf(o: Order, reading: TradingReading, stuckLive: boolean, openNew = false): string {
  const statuses = reading('U-NS-ORDER-STATUSES');
  if (stuckLive && o.state === 'filled') return 'live';
  if (openNew && o.state === 'open' && o.filled === 0n) return 'new';
  switch (o.state) {
    case 'pending':
    case 'open':
      return o.filled > 0n && statuses !== 'live-while-open' ? 'partially_filled' : 'live';
    case 'filled':
      return 'filled';
    case 'cancelled':
      if (statuses === 'with-rejected' && o.rejected) return 'rejected';
      return statuses === 'live-while-open' ? 'canceled' : 'cancelled';
  }
}

export interface RecordOptions {
  reading: TradingReading;
  /** The members carrying the ids of an order's take profit and stop loss (U-NS-STRATEGY-ORDERS in-order-record). */
  strategyMembers?: { takeProfit: string; stopLoss: string };
  stuckLive: boolean;
  /** The seeded fault open-shows-new: a resting order with nothing filled shows "new". */
  openNew?: boolean;
}

/** The order record: every amount, price, quantity and time a string. */
export function orderRecord(o: Order, options: RecordOptions): Record<string, unknown> {
  const { reading } = options;
  const price = o.price === undefined ? '' : fmt(o.price);
  const avgPrice = o.filled > 0n ? fmt(over(o.value, o.filled)) : '';
  const futures = isFutures(o.category);
  const common = {
    category: o.category,
    symbol: o.symbol,
    side: o.side,
    orderType: o.orderType,
  };
  const rest = {
    timeInForce: o.timeInForce,
    ...(futures ? { marginMode: o.marginMode ?? 'crossed', posSide: o.posSide ?? '', reduceOnly: o.reduceOnly ? 'yes' : 'no' } : {}),
    stpMode: o.stpMode,
    status: statusOf(o, reading, options.stuckLive, options.openNew),
    createdTime: String(o.createdTime),
    updatedTime: String(o.updatedTime),
  };
  const strategy: Record<string, string> = {};
  if (options.strategyMembers) {
    if (o.tpOrderId) strategy[options.strategyMembers.takeProfit] = o.tpOrderId;
    if (o.slOrderId) strategy[options.strategyMembers.stopLoss] = o.slOrderId;
  }
  if (reading('U-NS-ORDER-RECORD') === 'other-names') {
    return {
      orderId: o.orderId,
      ...(o.clientOid !== undefined ? { clientOrderId: o.clientOid } : {}),
      ...common,
      limitPrice: price,
      quantity: fmt(o.qty),
      filledQty: fmt(o.filled),
      averagePrice: avgPrice,
      ...rest,
      ...strategy,
    };
  }
  return {
    orderId: o.orderId,
    clientOid: o.clientOid ?? '',
    ...common,
    price,
    qty: fmt(o.qty),
    cumExecQty: fmt(o.filled),
    avgPrice,
    ...rest,
    ...strategy,
  };
}
