/**
 * What every trading operation is handed (the state, the readings, the faults, when effects apply) and the small
 * checks several of them share: reading a parameter, naming an order by orderId or clientOid, the precision of a
 * price or quantity.
 */
import type { UnifiedExchangeSettings } from '../../../interfaces/unified-exchange/settings.ts';
import { refused, type Caller, type Outcome } from '../contract.ts';
import type { TradingFault, TradingReading } from './catalogue.ts';
import { dec, multipleOf, parseDec, type Dec } from './decimal.ts';
import type { Exchange } from './exchange.ts';
import type { CategoryValue } from './markets.ts';
import type { Order } from './orders.ts';
import type { Settler } from './settle.ts';

export interface Ctx {
  x: Exchange;
  reading: TradingReading;
  on: (name: TradingFault) => boolean;
  settings: UnifiedExchangeSettings;
  symbols: Record<CategoryValue, string>;
  settle: Settler;
  now: () => number;
}

/** A parameter as text: strings as sent, numbers written out (ids may come back as JSON integers, U-NS-ID-TYPES). */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A refusal, as a handler's checks hand it back. */
export type Refusal = Outcome & { ok: false };

export const isRefusal = (v: unknown): v is Refusal => typeof v === 'object' && v !== null && (v as Outcome).ok === false;

/** A positive decimal amount, in the precision the reading allows (U-NS-MARKET-PRECISION). */
export function amount(ctx: Ctx, name: string, value: unknown, kind: 'price' | 'qty'): Dec | Refusal {
  const parsed = parseDec(value);
  if (!parsed.ok) return refused('validation', `${name} ${parsed.why}`) as Refusal;
  if (parsed.value <= 0n) return refused('validation', `${name} must be above zero`) as Refusal;
  if (ctx.reading('U-NS-MARKET-PRECISION') === 'tick-step-minimum') {
    const step = dec(kind === 'price' ? (ctx.settings.markets?.precision?.tick ?? '0.01') : (ctx.settings.markets?.precision?.step ?? '0.0001'));
    if (!multipleOf(parsed.value, step)) return refused('validation', `${name} must be a multiple of ${kind === 'price' ? 'the tick' : 'the step'}`) as Refusal;
  }
  return parsed.value;
}

/** The smallest SPOT order value in the tick-step reading: the profile's, or the reading's 1 USDT. */
export function minNotional(ctx: Ctx): Dec {
  const stated = dec(ctx.settings.markets?.precision?.minNotional ?? '0');
  return stated > 0n ? stated : dec('1');
}

export interface Named {
  orderId?: string;
  clientOid?: string;
  category?: string;
  symbol?: string;
}

/**
 * The order a request names: orderId or clientOid, one of the two (both: U-NS-BOTH-IDS), and what the
 * category-required reading of U-NS-EXTRA-PARAMETERS needs besides. Returns the refusal, or what it names.
 */
export function naming(ctx: Ctx, params: Record<string, unknown>, needs: { symbol: boolean }): Named | Outcome {
  const named: Named = { orderId: text(params.orderId), clientOid: text(params.clientOid), category: text(params.category), symbol: text(params.symbol) };
  if (named.orderId === undefined && named.clientOid === undefined) return refused('validation', 'orderId or clientOid is required');
  if (named.orderId !== undefined && named.clientOid !== undefined && ctx.reading('U-NS-BOTH-IDS') === 'refused') {
    return refused('validation', 'give orderId or clientOid, not both');
  }
  if (ctx.reading('U-NS-EXTRA-PARAMETERS') === 'category-required') {
    if (named.category === undefined) return refused('validation', 'category is required');
    if (needs.symbol && named.symbol === undefined) return refused('validation', 'symbol is required');
  }
  return named;
}

/**
 * The caller's order a naming resolves to: by orderId when given (orderId wins), else by clientOid. Another
 * account's order is not the caller's (unless a fault says so); in the category-required reading, an order of
 * another category or symbol than named is not found either.
 */
export function resolve(ctx: Ctx, caller: Caller, named: Named, otherAccountFault: boolean): Order | undefined {
  const uid = caller.account.uid;
  const order = named.orderId !== undefined ? ctx.x.orders.get(named.orderId) : ctx.x.byClientOid(uid, named.clientOid!);
  if (!order) return undefined;
  if (order.uid !== uid && !otherAccountFault) return undefined;
  if (ctx.reading('U-NS-EXTRA-PARAMETERS') === 'category-required') {
    if (named.category !== undefined && named.category !== order.category) return undefined;
    if (named.symbol !== undefined && named.symbol !== order.symbol) return undefined;
  }
  return order;
}

/** What an acknowledgement names: the order's id, and its clientOid when it has one. */
export const ids = (o: Pick<Order, 'orderId' | 'clientOid'>) => ({ orderId: o.orderId, ...(o.clientOid !== undefined ? { clientOid: o.clientOid } : {}) });
