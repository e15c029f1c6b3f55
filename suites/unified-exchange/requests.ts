/**
 * Valid requests of the unified exchange's operations where the spec's schemas are not enough: the profile's symbol,
 * coins, far prices and quantity (settings.markets), the account types it transfers between, a recent time window.
 * The generic checks and the suite's own checks take them from here, so that both send what the profile states.
 */
import { randomBytes } from 'node:crypto';
import type { RequestSpec } from '../../harness/http/client.ts';
import type { LoadedSpec, Operation } from '../../harness/spec/types.ts';
import type { Secrets } from '../../harness/secrets.ts';
import { mainRole } from './auth.ts';
import { loadSpec } from '../../harness/spec/load.ts';
import type { Category, KeyRole, UnifiedExchangeSettings } from '../../interfaces/unified-exchange/settings.ts';

export type Settings = UnifiedExchangeSettings;

/**
 * Operations that move funds or create accounts (the spec's x-moves-funds), by operation id: no request goes to one
 * (neither its valid request, which a conforming target would take, nor a wrong one, which a broken one could) unless
 * the profile names it in settings.fundWrites.
 */
export const FUND_WRITES: Readonly<Record<string, string>> = Object.fromEntries(
  loadSpec('unified-exchange').operations.filter((op) => op.movesFunds).map((op) => [op.operationId!, op.key]),
);
export type FundWrite = string;

export const COPY_OPERATIONS = ['getCopyTradingPairs', 'getCopyMaxTransferable', 'copyTransfer'] as const;
export const BROKER_OPERATIONS = ['createBrokerSubAccount', 'listBrokerSubAccounts'] as const;
export const FUTURES: Category[] = ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'];
/** The categories the book and the candles list (not MARGIN). */
export const BOOK_CATEGORIES: Category[] = ['SPOT', ...FUTURES];

const has = (list: readonly string[], op: Operation) => list.includes(op.operationId ?? '');

/** The key a valid request of the operation is sent with: the copy-trading key, the broker key, else the run's main key. */
export function roleOf(op: Operation, secrets: Secrets): KeyRole {
  if (has(COPY_OPERATIONS, op)) return 'copy';
  if (has(BROKER_OPERATIONS, op)) return 'broker';
  return mainRole(secrets);
}

/** Why the run must not send the operation's valid request, if it must not: a fund-moving write the profile leaves out. */
export function fundWriteForbidden(op: Operation, settings: Settings): string | undefined {
  const id = op.operationId ?? '';
  if (!(id in FUND_WRITES) || settings.fundWrites.includes(id)) return undefined;
  return `${op.operationId} moves funds or creates accounts (${op.write}); the profile does not name it in settings.fundWrites`;
}

/** The operation as the target serves it (its relocated path, x-path-setting). */
export const servedOp = (spec: LoadedSpec, operationId: string): Operation => {
  const op = spec.operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`harness: the unified-exchange spec has no operation ${operationId}`);
  return op;
};

/** A path with its query, parameters in the order given (undefined ones left out). */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.append(k, String(v));
  const text = q.toString();
  return text ? `${path}?${text}` : path;
}

/** A window the record operations serve in every reading (U-NS-TIME-RANGE: the last week, well under 90 days). */
export function recentWindow(now = Date.now()): { startTime: string; endTime: string } {
  return { startTime: String(now - 7 * 24 * 3600_000), endTime: String(now) };
}

/** A client id no other request of the run uses: letters and digits only, which every reading takes. */
export const freshClientOid = () => `ux${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;

/** Names for sub-accounts: eight lowercase letters (settings.subNames' default pattern; U-NS-SUB-NAMES). */
export function freshSubName(): string {
  return [...randomBytes(8)].map((b) => String.fromCharCode(97 + (b % 26))).join('');
}

/** The required query values of a read, from the profile (undefined: the spec's own request will do). */
export function readQuery(operationId: string, s: Settings): Record<string, string | number> | undefined {
  const m = s.markets;
  const futures = 'USDT-FUTURES';
  switch (operationId) {
    case 'getOrderBook':
    case 'getCandles':
    case 'getHistoryCandles':
      return { category: 'SPOT', symbol: m.symbols.SPOT, ...(operationId === 'getOrderBook' ? {} : { interval: '1m' }) };
    case 'getCurrentFundingRate':
      return { symbol: m.symbols[futures] };
    case 'getFundingRateHistory':
      return { category: futures, symbol: m.symbols[futures] };
    case 'getIndexComponents':
      return { symbol: m.symbols[futures] };
    case 'getMarginLoans':
    case 'getDepositAddress':
    case 'getCopyMaxTransferable':
      return { coin: m.coins.quote };
    case 'getTransferableCoins':
      return { fromType: s.transferPair.fromType, toType: s.transferPair.toType };
    case 'getDepositRecords':
    case 'getWithdrawalRecords':
    case 'getLoanHistory':
      return recentWindow();
    case 'listP2pAds':
      return { token: m.coins.quote, fiat: 'USD', side: 'buy', pageNum: s.p2p.firstPage, limit: 10 };
    default:
      return undefined;
  }
}

export interface OrderOptions {
  category?: Category;
  side?: 'buy' | 'sell';
  clientOid?: string;
  timeInForce?: 'gtc' | 'ioc' | 'fok' | 'post_only';
  qty?: string;
  price?: string;
}

/**
 * A limit order at the profile's far price (a buy far below the market, a sell far above it): it never trades, and it
 * rests until cancelled (gtc). In hedge mode a futures order names its side (U-NS-HOLD-MODE).
 */
export function farOrder(s: Settings, o: OrderOptions = {}): Record<string, string> {
  const category = o.category ?? 'SPOT';
  const side = o.side ?? 'buy';
  const hedge = s.holdMode === 'hedge' && FUTURES.includes(category);
  return {
    category,
    symbol: s.markets.symbols[category],
    side,
    orderType: 'limit',
    qty: o.qty ?? s.markets.quantity,
    price: o.price ?? s.markets.farPrices[side],
    timeInForce: o.timeInForce ?? 'gtc',
    ...(hedge ? { posSide: side === 'buy' ? 'long' : 'short' } : {}),
    ...(o.clientOid ? { clientOid: o.clientOid } : {}),
  };
}

/** An order named by orderId or clientOid, with its category and symbol where the profile says the target needs them (U-NS-EXTRA-PARAMETERS). */
export function orderRef(s: Settings, ref: { orderId?: string; clientOid?: string }, category: Category = 'SPOT'): Record<string, string> {
  const out: Record<string, string> = ref.orderId ? { orderId: ref.orderId } : { clientOid: ref.clientOid! };
  if (s.orderIdentity === 'with-category') Object.assign(out, { category, symbol: s.markets.symbols[category] });
  return out;
}

/** The order lookup (at its relocated path) of one order. */
export function lookupRequest(spec: LoadedSpec, s: Settings, orderId: string, credential: KeyRole = 'trade'): RequestSpec {
  const op = servedOp(spec, 'getOrder');
  return { method: 'GET', path: withQuery(op.path, orderRef(s, { orderId })), authenticate: true, credential, label: `look order ${orderId} up` };
}

export function placeRequest(spec: LoadedSpec, order: Record<string, string>, credential: KeyRole = 'trade'): RequestSpec {
  return { method: 'POST', path: servedOp(spec, 'placeOrder').path, json: order, authenticate: true, credential, label: `place ${order.side} ${order.qty} ${order.symbol} at ${order.price}` };
}

export function cancelRequest(spec: LoadedSpec, s: Settings, ref: { orderId?: string; clientOid?: string }, credential: KeyRole = 'trade'): RequestSpec {
  return { method: 'POST', path: servedOp(spec, 'cancelOrder').path, json: orderRef(s, ref), authenticate: true, credential, label: `cancel order ${ref.orderId ?? ref.clientOid}` };
}

/** data.orderId of an order's acknowledgement, as a string (U-NS-ID-TYPES), if it has one. */
export function orderIdOf(json: unknown): string | undefined {
  const id = (json as { data?: { orderId?: unknown } } | undefined)?.data?.orderId;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** One tick below a decimal price, in the tick's own precision (never below one tick). */
export function tickBelow(price: string, tick: string): string {
  const scale = Math.max(decimals(price), decimals(tick));
  const p = scaled(price, scale);
  const t = scaled(tick, scale);
  const v = p - t > 0n ? p - t : t;
  const text = v.toString().padStart(scale + 1, '0');
  return scale ? `${text.slice(0, -scale)}.${text.slice(-scale)}` : text;
}
const decimals = (d: string) => (d.split('.')[1] ?? '').length;
const scaled = (d: string, scale: number) => BigInt(d.replace('.', '') + '0'.repeat(scale - decimals(d)));
