/**
 * Funding rates of the futures symbols: seeded (a rate per 8-hour funding time, deterministic), since the reference
 * charges no funding. The current rate is the one of the next funding time; the history lists the past funding times
 * newest first, back to the symbol's listing, paged by limit and cursor (U-NS-PAGE-LIMITS, U-NS-CURSOR-PAGING) and held
 * as U-NS-LIST-SHAPE says (resultList when wrapped).
 */
import { accepted, refused, type Outcome, type PartOptions } from '../contract.ts';
import { isRefusal, pageLimit, pageOf } from '../funds/paging.ts';
import { listData } from './lists.ts';
import { dec, text, unit } from './params.ts';
import { FUTURES, marketInAny, marketOf, type Market } from './symbols.ts';

const PERIOD = 8 * 3_600_000;
const LISTED = Date.UTC(2020, 0, 1);

/** The rate of a funding time: between -0.0003 and 0.0007, mostly positive (longs pay). */
function rateAt(market: Market, fundingTime: number): string {
  return dec(-0.0003 + 0.001 * unit(`${market.category}|${market.symbol}|${fundingTime}`), 6);
}

/** The current rate of a futures market (the coming funding time's). */
export function fundingRateOf(market: Market, now: number): string {
  return rateAt(market, Math.ceil(now / PERIOD) * PERIOD);
}

export function currentFundingAnswer(options: PartOptions, params: Record<string, unknown>): Outcome {
  const symbol = text(params.symbol);
  if (!symbol) return refused('validation', 'symbol is required');
  const market = marketInAny(options, symbol, FUTURES);
  if (!market) return refused('validation', `${symbol} is no listed futures symbol`);
  const now = options.now();
  const next = Math.ceil(now / PERIOD) * PERIOD;
  const row = { symbol, fundingRate: fundingRateOf(market, now), fundingRateInterval: '8', nextUpdate: String(next), minFundingRate: '-0.003', maxFundingRate: '0.003' };
  // fund-rate-object: the element itself rather than the documented array.
  return accepted(options.fault('fund-rate-object') ? row : [row]);
}

export function fundingHistoryAnswer(options: PartOptions, params: Record<string, unknown>): Outcome {
  const category = text(params.category);
  const symbol = text(params.symbol);
  if (!category || !symbol) return refused('validation', 'category and symbol are required');
  if (!(FUTURES as readonly string[]).includes(category)) return refused('validation', `funding history is not served for ${category}`);
  const market = marketOf(options, category, symbol);
  if (!market) return refused('validation', `symbol ${symbol} is not listed in ${category}`);
  const limit = pageLimit(options, params.limit);
  if (isRefusal(limit)) return limit;
  const last = Math.floor(options.now() / PERIOD) * PERIOD;
  const times: number[] = [];
  for (let t = last; t >= LISTED; t -= PERIOD) times.push(t);
  const page = pageOf(options, times, String, params.cursor, limit, options.fault('funding-history-pages-overlap'));
  if (isRefusal(page)) return page;
  const documentedOnly = options.reading('U-NS-RECORD-MEMBERS') === 'documented-only';
  const rows = page.rows.map((t) => (documentedOnly ? { fundingTime: String(t), fundingRate: rateAt(market, t) } : { symbol, fundingRate: rateAt(market, t), fundingTime: String(t) }));
  return accepted(listData(options, 'getFundingRateHistory', rows, page.extra));
}
