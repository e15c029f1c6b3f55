/**
 * The market part's seeded faults and the readings of the open points it implements (the routing concatenates them with
 * the other parts' catalogues). The first reading of each point is the reference's default; `settings` is what a tester
 * of a deployment taking the reading states in its profile (interfaces/unified-exchange/settings.ts).
 */
import type { Fault } from '../../types.ts';
import type { OpenPointReadings } from '../../readings.ts';
import { reachTable } from './candles.ts';
import { listSettings } from './lists.ts';

// Candles that misbehave in time are caught by every check that reads their times.
const candleTimes = ['U-MKT-CANDLES-INTERVAL', 'U-MKT-CANDLES-RANGE', 'U-MKT-HISTORY-CANDLES-REACH'];

export const marketFaults = [
  {
    name: 'candles-over-1000',
    description: 'A candles or history-candles limit above 1000 is served in full (up to 1500 candles) instead of at most 1000.',
    violates: ['U-LIMIT-CANDLES', 'U-LIMIT-CANDLES-OVER'],
    collateral: ['U-GEN-SCHEMA'],
  },
  {
    name: 'candles-over-limit-crash',
    description: 'A candles or history-candles limit above 1000 overflows a buffer and is answered 500.',
    // A 500 fails GEN-NO-5XX, never the rule the request was testing, which it leaves undecided (issue 43).
    violates: ['U-GEN-NO-5XX'],
    undecided: ['U-LIMIT-CANDLES-OVER'],
  },
  {
    name: 'candles-limit-ignored',
    description: 'A candles limit at or below 1000 is ignored: the default count (100) is served whatever limit asks.',
    violates: ['U-MKT-CANDLES-LIMIT'],
  },
  {
    name: 'candles-outside-window',
    description: 'With startTime, the three candles that end before startTime are served too.',
    violates: ['U-MKT-CANDLES-RANGE'],
  },
  {
    name: 'candles-wrong-interval',
    description: 'Every interval is answered with candles on the one-minute grid (1H is read as one minute).',
    violates: ['U-MKT-CANDLES-INTERVAL'],
    collateral: ['U-MKT-CANDLES-RANGE', 'U-MKT-HISTORY-CANDLES-REACH'],
  },
  {
    name: 'candles-type-default-mark',
    description: 'A candles request without type is answered with MARK candles instead of MARKET ones.',
    violates: ['U-MKT-CANDLES-TYPE'],
  },
  {
    name: 'candle-times-seconds',
    description: "A candle's timestamp is written in Unix seconds instead of milliseconds.",
    violates: ['U-CONV-MILLIS'],
    collateral: [...candleTimes, 'U-MKT-CANDLES', 'U-MKT-HISTORY-CANDLES-SAME'],
  },
  {
    name: 'history-candles-short',
    description: 'history-candles reaches back no further than candles does.',
    violates: ['U-MKT-HISTORY-CANDLES-REACH'],
  },
  {
    name: 'book-default-100',
    // The order book is the trading part's: the trading checks read it to find free price levels.
    part: 'trading',
    description: 'An orderbook request without limit is answered with 100 levels per side instead of the documented 150.',
    violates: ['U-LIMIT-BOOK-DEFAULT'],
    keepsDefault: { 'U-NS-BOOK-MAX-DEPTH': 'a book served at most 150 deep shows no side deeper than the default, so a default of 100 cannot be told from a thin book' },
  },
  {
    name: 'book-in-array',
    // The order book is the trading part's: the trading checks read it to find free price levels.
    part: 'trading',
    description: 'The order book is answered as a list of one book per symbol: data is [{bids, asks, ts}] instead of {bids, asks}.',
    violates: ['U-MKT-BOOK'],
    collateral: ['U-GEN-SCHEMA'],
  },
  {
    name: 'book-crossed',
    // The order book is the trading part's: the trading checks read it to find free price levels.
    part: 'trading',
    description: 'The book is assembled from two snapshots taken apart: the best ask is served a cent below the best bid (the rest of each side in order).',
    violates: ['U-MKT-BOOK-NOT-CROSSED'],
  },
  {
    name: 'book-depth-ignored',
    // The order book is the trading part's: the trading checks read it to find free price levels.
    part: 'trading',
    description: 'The orderbook limit is ignored: every book is answered 150 levels deep.',
    violates: ['U-MKT-BOOK-LIMIT'],
  },
  {
    name: 'server-time-skewed',
    description: 'The server time is answered an hour ahead of the clock.',
    violates: ['U-MKT-TIME-CLOSE'],
  },
  {
    name: 'server-time-number',
    description: 'The server time is a JSON number of milliseconds instead of a string.',
    violates: ['U-MKT-TIME'],
    collateral: ['U-GEN-SCHEMA'],
  },
  {
    name: 'tickers-numbers',
    description: "A ticker's lastPr is a JSON number instead of a decimal string.",
    violates: ['U-CONV-STRINGS'],
    collateral: ['U-MKT-TICKERS', 'U-GEN-SCHEMA'],
  },
  {
    name: 'tickers-symbol-ignored',
    description: 'The tickers symbol filter is ignored: every ticker of the category is answered.',
    violates: ['U-MKT-TICKERS-SYMBOL'],
  },
  {
    name: 'instruments-symbol-ignored',
    description: 'The instruments symbol filter is ignored: every instrument of the category is answered.',
    violates: ['U-MKT-INSTRUMENTS'],
  },
  {
    name: 'fills-over-limit',
    description: 'A fills request with limit n is answered with n + 1 fills (an off-by-one).',
    violates: ['U-MKT-FILLS-LIMIT'],
  },
  {
    name: 'fund-rate-object',
    description: 'The current funding rate is answered as one object instead of the documented array.',
    violates: ['U-MKT-FUND-RATE'],
    collateral: ['U-GEN-SCHEMA'],
  },
  {
    name: 'funding-history-pages-overlap',
    description: 'Each page of the funding-rate history starts on the last row of the page before: that row is listed twice.',
    violates: ['U-MKT-FUND-HISTORY-PAGING'],
  },
] as const satisfies readonly Fault[];

const dashed = { SPOT: 'BTC-USDT', MARGIN: 'BTC-USDT', 'USDT-FUTURES': 'BTC-USDT', 'COIN-FUTURES': 'BTC-USD', 'USDC-FUTURES': 'BTC-USDC' };
const plain = { SPOT: 'BTCUSDT', MARGIN: 'BTCUSDT', 'USDT-FUTURES': 'BTCUSDT', 'COIN-FUTURES': 'BTCUSD', 'USDC-FUTURES': 'BTCPERP' };

export const marketReadings = [
  {
    point: 'U-NS-MARKETS',
    readings: [
      { name: 'public-exchange-symbols', settings: { markets: { symbols: plain, coins: { quote: 'USDT', base: 'BTC' } } } },
      { name: 'dashed-symbols', settings: { markets: { symbols: dashed, coins: { quote: 'USDT', base: 'BTC' } } } },
    ],
  },
  { point: 'U-NS-GROUP-CATEGORIES', readings: [{ name: 'spot-or-futures' }, { name: 'futures-categories-too' }] },
  {
    point: 'U-NS-LIST-SHAPE',
    readings: [
      { name: 'bare-arrays', settings: { lists: listSettings(false) } },
      { name: 'wrapped-lists', settings: { lists: listSettings(true) } },
    ],
  },
  {
    point: 'U-NS-BOOK-LEVEL',
    readings: [
      { name: 'price-size-strings', settings: { book: { level: 'arrays' } } },
      { name: 'level-objects', settings: { book: { level: 'objects' } } },
    ],
  },
  {
    point: 'U-NS-BOOK-MAX-DEPTH',
    readings: [
      { name: 'capped-at-max', settings: { book: { maxDepth: 200, overMax: 'capped' } } },
      { name: 'refused-above-max', settings: { book: { maxDepth: 150, overMax: 'refused' } } },
    ],
  },
  {
    point: 'U-NS-CANDLE-LIMIT-OVER',
    readings: [
      { name: 'capped', settings: { candles: { overLimit: 'capped' } } },
      { name: 'refused', settings: { candles: { overLimit: 'refused' } } },
    ],
  },
  {
    point: 'U-NS-CANDLE-DEFAULTS',
    readings: [
      { name: 'hundred', settings: { candles: { defaultLimit: 100 } } },
      { name: 'thousand', settings: { candles: { defaultLimit: 1000 } } },
    ],
  },
  { point: 'U-NS-CANDLE-ORDER', readings: [{ name: 'oldest-first' }, { name: 'newest-first' }] },
  { point: 'U-NS-CANDLE-BOUNDS', readings: [{ name: 'inclusive-newest' }, { name: 'end-exclusive-oldest' }, { name: 'containing-start' }] },
  { point: 'U-NS-CANDLE-ALIGNMENT', readings: [{ name: 'utc-grid' }, { name: 'utc-plus-8-grid' }] },
  {
    point: 'U-NS-CANDLE-REACH',
    readings: [
      { name: 'public-exchange-spans', settings: { candles: { reachMs: reachTable('public-exchange-spans') } } },
      { name: 'thousand-intervals', settings: { candles: { reachMs: reachTable('thousand-intervals') } } },
    ],
  },
] as const satisfies readonly OpenPointReadings[];
