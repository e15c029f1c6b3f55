/**
 * Candles and history candles: seeded, deterministic series (no trade ever feeds them), the same on every run for the
 * same times, so that candles and history-candles, MARKET and an omitted type, and two overlapping windows agree.
 *
 * The price is a smooth function of time (a few slow waves around the coin's reference price), so a candle's open is
 * the price at its start and its close the price at its end, whatever the interval: a 1H candle is consistent with its
 * 1m candles. Open points (the document shows none of it):
 * - U-NS-CANDLE-DEFAULTS: hundred candles without limit, or thousand (settings.candles.defaultLimit);
 * - U-NS-CANDLE-LIMIT-OVER: a limit above 1000 capped at 1000, or refused (settings.candles.overLimit);
 * - U-NS-CANDLE-ORDER: oldest-first, or newest-first;
 * - U-NS-CANDLE-BOUNDS: which candles a window holds, and which are kept when more than limit fall in it
 *   (inclusive-newest, end-exclusive-oldest, containing-start);
 * - U-NS-CANDLE-ALIGNMENT: utc-grid, the epoch's grid, or utc-plus-8-grid, UTC+8 days for 6H, 12H and 1D;
 * - U-NS-CANDLE-REACH: public-exchange-spans, candles reaches a month (to 30m) or a year back, or thousand-intervals;
 *   history-candles to the symbol's listing (settings.candles.reachMs);
 * - U-NS-REVERSED-RANGE: an endTime before startTime refused, or answered with no candles.
 */
import { accepted, refused, type Outcome, type PartOptions } from '../contract.ts';
import { dec, given, millis, text, unit, whole } from './params.ts';
import { marketOf, referencePrice, type Market } from './symbols.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const INTERVALS: Readonly<Record<string, number>> = {
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1H': HOUR,
  '4H': 4 * HOUR,
  '6H': 6 * HOUR,
  '12H': 12 * HOUR,
  '1D': DAY,
};
export const CANDLE_TYPES = ['MARKET', 'MARK', 'INDEX'] as const;
/** The most candles any answer holds (the document's limit). */
export const MAX_CANDLES = 1000;

/** When each base coin was listed: history-candles reaches back to there. */
const LISTED: Readonly<Record<string, number>> = { BTC: Date.UTC(2019, 0, 1), ETH: Date.UTC(2019, 5, 1) };

/** How far back candles reaches in each reading, per interval (what settings.candles.reachMs states). */
export function reachTable(reading: string): Record<string, number> {
  return Object.fromEntries(
    Object.entries(INTERVALS).map(([name, ms]) => [name, reading === 'thousand-intervals' ? 1000 * ms : ms <= 30 * MINUTE ? 30 * DAY : 365 * DAY]),
  );
}

/** The offset of the grid a candle starts on: 0 on the epoch's grid; UTC+8 days begin at 16:00 UTC. */
function gridOffset(options: PartOptions, interval: number): number {
  if (options.reading('U-NS-CANDLE-ALIGNMENT') !== 'utc-plus-8-grid' || interval < 6 * HOUR) return 0;
  return (((-8 * HOUR) % interval) + interval) % interval;
}

/** The seeded price of a market at a time; MARK and INDEX lie a hair off the traded price. */
function priceAt(market: Market, type: string, t: number): number {
  const ref = referencePrice(market.base);
  const wave =
    0.06 * Math.sin((2 * Math.PI * t) / (30 * DAY)) + 0.02 * Math.sin((2 * Math.PI * t) / (2.3 * DAY)) + 0.004 * Math.sin((2 * Math.PI * t) / (3.7 * HOUR));
  const skew = type === 'MARK' ? 1.0002 : type === 'INDEX' ? 0.9998 : 1;
  const categorySkew = market.category === 'SPOT' || market.category === 'MARGIN' ? 1 : 1.0005;
  return ref * (1 + wave) * skew * categorySkew;
}

/** The seeded traded price of a market at a time (where tickers and indexes start without trades). */
export const seededPrice = (market: Market, t: number): number => priceAt(market, 'MARKET', t);

/** One candle: [start, open, high, low, close, volume, quote volume], every element a string. */
function candle(market: Market, type: string, start: number, interval: number, seconds: boolean): string[] {
  const open = priceAt(market, type, start);
  const close = priceAt(market, type, start + interval);
  const seed = `${market.category}|${market.symbol}|${type}|${interval}|${start}`;
  const high = Math.max(open, close) * (1 + 0.0015 * unit(`${seed}|h`));
  const low = Math.min(open, close) * (1 - 0.0015 * unit(`${seed}|l`));
  // Index and mark prices trade nothing: their volume is zero.
  const volume = type === 'MARKET' ? ((0.5 + 4 * unit(`${seed}|v`)) * interval) / MINUTE / (referencePrice(market.base) / 3000) : 0;
  const vwap = (open + close + high + low) / 4;
  const stamp = seconds ? Math.floor(start / 1000) : start;
  return [String(stamp), dec(open, 2), dec(high, 2), dec(low, 2), dec(close, 2), dec(volume, 4), dec(volume * vwap, 4)];
}

/** GET /api/v3/market/candles (history = false) and /history-candles (history = true). */
export function candlesAnswer(options: PartOptions, params: Record<string, unknown>, history: boolean): Outcome {
  const { fault } = options;
  const category = text(params.category);
  const symbol = text(params.symbol);
  if (!category || !symbol) return refused('validation', 'category and symbol are required');
  if (category === 'MARGIN') return refused('validation', 'candles are not served for MARGIN');
  const market = marketOf(options, category, symbol);
  if (!market) return refused('validation', `symbol ${symbol} is not listed in ${category}`);
  const intervalName = text(params.interval);
  if (!intervalName || !(intervalName in INTERVALS)) return refused('validation', 'interval must be one of 1m, 3m, 5m, 15m, 30m, 1H, 4H, 6H, 12H, 1D');
  const type = given(params.type) ? text(params.type) : fault('candles-type-default-mark') ? 'MARK' : 'MARKET';
  if (!type || !(CANDLE_TYPES as readonly string[]).includes(type)) return refused('validation', 'type must be MARKET, MARK or INDEX');

  // candles-wrong-interval: every interval is cut on the minute grid.
  const interval = fault('candles-wrong-interval') ? MINUTE : INTERVALS[intervalName]!;

  let limit: number;
  if (given(params.limit)) {
    const n = whole(params.limit);
    if (n === undefined || n < 1) return refused('validation', 'limit must be a positive whole number');
    if (n > MAX_CANDLES) {
      // candles-over-limit-crash: the over-limit request reaches a buffer sized for 1000 and fails.
      if (fault('candles-over-limit-crash')) throw new RangeError(`candle buffer overflow: ${n} > ${MAX_CANDLES}`);
      if (fault('candles-over-1000')) limit = Math.min(n, 1500);
      else if (options.reading('U-NS-CANDLE-LIMIT-OVER') === 'refused') return refused('validation', `limit must be at most ${MAX_CANDLES}`);
      else limit = MAX_CANDLES;
    } else limit = n;
    if (fault('candles-limit-ignored')) limit = defaultLimit(options);
  } else limit = defaultLimit(options);

  const start = given(params.startTime) ? millis(params.startTime) : undefined;
  const end = given(params.endTime) ? millis(params.endTime) : undefined;
  if ((given(params.startTime) && start === undefined) || (given(params.endTime) && end === undefined)) return refused('validation', 'startTime and endTime are Unix milliseconds');
  if (start !== undefined && end !== undefined && end < start) {
    if (options.reading('U-NS-REVERSED-RANGE') === 'empty') return accepted([]);
    return refused('validation', 'endTime is before startTime');
  }

  const now = options.now();
  const off = gridOffset(options, interval);
  const floor = (t: number) => Math.floor((t - off) / interval) * interval + off;
  const ceil = (t: number) => Math.ceil((t - off) / interval) * interval + off;

  // What the operation reaches: candles a span back from now, history-candles back to the listing.
  const reach = reachTable(options.reading('U-NS-CANDLE-REACH'))[intervalName]!;
  const reachesListing = history && !fault('history-candles-short');
  const oldest = ceil(reachesListing ? (LISTED[market.base] ?? Date.UTC(2020, 0, 1)) : now - reach);
  const newest = floor(now);

  // The window's first and last candle start, and which end a limit keeps, as the bounds reading says.
  const bounds = options.reading('U-NS-CANDLE-BOUNDS');
  let first = oldest;
  let last = newest;
  let keepOldest = false;
  if (bounds === 'end-exclusive-oldest') {
    if (start !== undefined) first = Math.max(first, ceil(start));
    if (end !== undefined) last = Math.min(last, ceil(end) - interval);
    keepOldest = start !== undefined;
  } else if (bounds === 'containing-start') {
    if (start !== undefined) first = Math.max(first, floor(start));
    if (end !== undefined) last = Math.min(last, floor(end));
    keepOldest = start !== undefined;
  } else {
    if (start !== undefined) first = Math.max(first, ceil(start));
    if (end !== undefined) last = Math.min(last, floor(end));
  }
  // candles-outside-window: three candles before startTime slip in.
  if (fault('candles-outside-window') && start !== undefined) first = Math.max(oldest, first - 3 * interval);

  const count = last < first ? 0 : Math.floor((last - first) / interval) + 1;
  const n = Math.min(count, limit);
  const from = keepOldest ? first : last - (n - 1) * interval;
  const rows: string[][] = [];
  const seconds = fault('candle-times-seconds');
  for (let i = 0; i < n; i++) rows.push(candle(market, type, from + i * interval, interval, seconds));
  if (options.reading('U-NS-CANDLE-ORDER') === 'newest-first') rows.reverse();
  return accepted(rows);
}

function defaultLimit(options: PartOptions): number {
  return options.reading('U-NS-CANDLE-DEFAULTS') === 'thousand' ? MAX_CANDLES : Math.min(options.settings.candles?.defaultLimit ?? 100, MAX_CANDLES);
}
