/**
 * The live market: the order book, the public fills and the tickers, all read from what trading shows (MarketView), so
 * that an order a check rests is in the book at its price and a trade it makes is among the fills. Nothing here is
 * seeded: a book only trading filled is the book there is.
 *
 * Open points: U-NS-BOOK-LEVEL (price-size-strings: a level is ["price", "size"]; level-objects: {price, size});
 * U-NS-BOOK-MAX-DEPTH (capped-at-max: at most 200 levels, a larger limit served as 200; refused-above-max: up to the
 * documented 150, a larger limit refused); U-NS-RECORD-MEMBERS (the public exchange's members beside the documented
 * ones, or other names); U-NS-LIST-SHAPE; U-NS-PAGE-LIMITS for the fills.
 */
import { accepted, refused, type MarketView, type Outcome, type PartOptions } from '../contract.ts';
import { isRefusal, pageLimit } from '../funds/paging.ts';
import { listData } from './lists.ts';
import { dec, given, text, whole } from './params.ts';
import { FUTURES, marketOf, marketsOf, type Market } from './symbols.ts';
import type { Category } from '../../../interfaces/unified-exchange/settings.ts';
import { fundingRateOf } from './funding.ts';

/** The levels an orderbook request without limit gets: the document's default. */
export const BOOK_DEFAULT_DEPTH = 150;

const NO_MARGIN = ['SPOT', 'USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'];
const publicMembers = (options: PartOptions) => options.reading('U-NS-RECORD-MEMBERS') !== 'documented-only';

export function orderBookAnswer(options: PartOptions, view: MarketView, params: Record<string, unknown>): Outcome {
  const category = text(params.category);
  const symbol = text(params.symbol);
  if (!category || !symbol) return refused('validation', 'category and symbol are required');
  if (!NO_MARGIN.includes(category)) return refused('validation', `the order book is not served for ${category}`);
  if (!marketOf(options, category, symbol)) return refused('validation', `symbol ${symbol} is not listed in ${category}`);

  const refusing = options.reading('U-NS-BOOK-MAX-DEPTH') === 'refused-above-max';
  const max = refusing ? BOOK_DEFAULT_DEPTH : Math.max(BOOK_DEFAULT_DEPTH, options.settings.book?.maxDepth ?? 200);
  let depth = options.fault('book-default-100') ? 100 : BOOK_DEFAULT_DEPTH;
  if (given(params.limit) && !options.fault('book-depth-ignored')) {
    const n = whole(params.limit);
    if (n === undefined || n < 1) return refused('validation', 'limit must be a positive whole number');
    if (n > max && refusing) return refused('validation', `limit must be at most ${max}`);
    depth = Math.min(n, max);
  }
  const book = view.book(category, symbol, depth);
  const objects = options.reading('U-NS-BOOK-LEVEL') === 'level-objects';
  const level = ([price, size]: [string, string]): unknown => (objects ? { price, size } : [price, size]);
  const bids = book.bids.slice(0, depth);
  let asks = book.asks.slice(0, depth);
  // book-crossed: the best ask a cent below the best bid.
  if (options.fault('book-crossed') && bids[0] && asks[0]) asks = [[dec(Number(bids[0][0]) - 0.01, 8), asks[0][1]], ...asks.slice(1)];
  const answer = { bids: bids.map(level), asks: asks.map(level), ts: String(book.ts) };
  // book-in-array: one book per symbol, in a list.
  return accepted(options.fault('book-in-array') ? [answer] : answer);
}

export function fillsAnswer(options: PartOptions, view: MarketView, params: Record<string, unknown>): Outcome {
  const category = text(params.category);
  if (!category || !marketsOfCategory(category)) return refused('validation', 'category must be one of the category values');
  const symbol = given(params.symbol) ? text(params.symbol) : undefined;
  const limit = pageLimit(options, params.limit);
  if (isRefusal(limit)) return limit;
  const take = options.fault('fills-over-limit') ? limit + 1 : limit;
  const markets = marketsOf(options, category as Category).filter((m) => symbol === undefined || m.symbol === symbol);
  const fills = markets
    .flatMap((m) => view.trades(category, m.symbol, take).map((t) => ({ ...t, symbol: m.symbol })))
    .sort((a, b) => b.ts - a.ts)
    .slice(0, take);
  const rows = fills.map((f) =>
    publicMembers(options)
      ? { execId: f.execId, symbol: f.symbol, price: f.price, size: f.size, side: f.side, ts: String(f.ts) }
      : { tradeId: f.execId, instrument: f.symbol, price: f.price, size: f.size, side: f.side, time: String(f.ts) },
  );
  return accepted(listData(options, 'getMarketFills', rows));
}

const marketsOfCategory = (category: string) => ['SPOT', 'MARGIN', ...FUTURES].includes(category);

/** The last price of a market: its latest trade, else the middle of its book, else the seeded price of now. */
export function lastPrice(view: MarketView, market: Market, seeded: number): { last: string; bid?: [string, string]; ask?: [string, string] } {
  const trade = view.trades(market.category, market.symbol, 1)[0];
  const book = view.book(market.category, market.symbol, 1);
  const bid = book.bids[0];
  const ask = book.asks[0];
  const last = trade ? trade.price : bid && ask ? dec((Number(bid[0]) + Number(ask[0])) / 2, 2) : dec(seeded, 2);
  return { last, ...(bid ? { bid } : {}), ...(ask ? { ask } : {}) };
}

export function tickersAnswer(options: PartOptions, view: MarketView, params: Record<string, unknown>, seededPrice: (m: Market) => number): Outcome {
  const category = text(params.category);
  if (!category || !NO_MARGIN.includes(category)) return refused('validation', 'category must be SPOT or a futures category');
  const symbol = given(params.symbol) ? text(params.symbol) : undefined;
  const markets = marketsOf(options, category as Category).filter((m) => symbol === undefined || options.fault('tickers-symbol-ignored') || m.symbol === symbol);
  const rows = markets.map((m) => {
    const seeded = seededPrice(m);
    const { last, bid, ask } = lastPrice(view, m, seeded);
    const lastPr: unknown = options.fault('tickers-numbers') ? Number(last) : last;
    const volume = dec(1000 + (m.base === 'BTC' ? 250 : 4000), 4);
    const futures = (FUTURES as readonly string[]).includes(category);
    if (publicMembers(options))
      return {
        category,
        symbol: m.symbol,
        lastPr,
        bid1Pr: bid?.[0] ?? '',
        bid1Sz: bid?.[1] ?? '',
        ask1Pr: ask?.[0] ?? '',
        ask1Sz: ask?.[1] ?? '',
        open24h: dec(seeded * 0.99, 2),
        high24h: dec(Math.max(Number(last), seeded) * 1.01, 2),
        low24h: dec(Math.min(Number(last), seeded) * 0.99, 2),
        volume24h: volume,
        turnover24h: dec(Number(volume) * seeded, 2),
        ...(futures ? { fundingRate: fundingRateOf(m, options.now()) } : {}),
        ts: String(options.now()),
      };
    return {
      symbol: m.symbol,
      lastPr,
      bestBid: bid?.[0] ?? '',
      bestAsk: ask?.[0] ?? '',
      baseVolume: volume,
      ...(futures ? { funding: fundingRateOf(m, options.now()) } : {}),
    };
  });
  return accepted(listData(options, 'getTickers', rows));
}
