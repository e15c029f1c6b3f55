/**
 * The markets the reference lists (U-NS-MARKETS). The document names no symbol at all: the public exchange spells them
 * without a separator (public-exchange-symbols: BTCUSDT, BTCUSD for coin-margined, BTCPERP for USDC-margined futures),
 * another deployment BASE-QUOTE (dashed-symbols: BTC-USDT), and a tester names theirs in settings.markets.symbols,
 * which each reading states. Trading lists the profile's symbol of each category (trading/markets.ts, symbolsOf):
 * market data lists the same, and beside it the same market of a second base coin (ETH), spelt alike, for market data
 * only (an empty book, seeded candles), so that an answer "for every symbol of the category" (instruments, tickers,
 * fills without symbol) is told from one for a single symbol.
 */
import type { Category } from '../../../interfaces/unified-exchange/settings.ts';
import type { PartOptions } from '../contract.ts';
import { symbolsOf } from '../trading/markets.ts';

export const ALL_CATEGORIES: readonly Category[] = ['SPOT', 'MARGIN', 'USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'];
export const FUTURES: readonly Category[] = ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'];

export interface Market {
  symbol: string;
  category: Category;
  base: string;
  /** The coin prices are quoted in (USD for coin-margined futures, settled in the base coin). */
  quote: string;
  /** The coin a futures contract settles in (margin coin). */
  settle: string;
}

/** What each category quotes in, and whether it settles in the base coin. */
const QUOTES: Record<Category, { quote: string; settleInBase?: true }> = {
  SPOT: { quote: 'USDT' },
  MARGIN: { quote: 'USDT' },
  'USDT-FUTURES': { quote: 'USDT' },
  'COIN-FUTURES': { quote: 'USD', settleInBase: true },
  'USDC-FUTURES': { quote: 'USDC' },
};
const SECOND_BASE = 'ETH';

/** The symbols of a category: the profile's first, then its second-coin twin. */
export function marketsOf(options: Pick<PartOptions, 'settings'>, category: Category): Market[] {
  const q = QUOTES[category];
  const base = options.settings?.markets?.coins?.base ?? 'BTC';
  const symbol = symbolsOf(options.settings)[category];
  const market = (symbol: string, base: string): Market => ({ symbol, category, base, quote: q.quote, settle: q.settleInBase ? base : q.quote });
  const markets = [market(symbol, base)];
  if (symbol.includes(base) && base !== SECOND_BASE) markets.push(market(symbol.replace(base, SECOND_BASE), SECOND_BASE));
  return markets;
}

/** The listed market of a category and symbol, or undefined. */
export function marketOf(options: Pick<PartOptions, 'settings'>, category: string, symbol: string): Market | undefined {
  if (!(ALL_CATEGORIES as readonly string[]).includes(category)) return undefined;
  return marketsOf(options, category as Category).find((m) => m.symbol === symbol);
}

/** The listed market of a symbol in any of the given categories (a "futures symbol", an "index symbol"). */
export function marketInAny(options: Pick<PartOptions, 'settings'>, symbol: string, categories: readonly Category[] = ALL_CATEGORIES): Market | undefined {
  for (const c of categories) {
    const m = marketOf(options, c, symbol);
    if (m) return m;
  }
  return undefined;
}

/** The coins the reference lists (deposits, loans, transfers): each with its price in USDT. */
export const COIN_PRICES: Readonly<Record<string, number>> = { USDT: 1, USDC: 1, BTC: 60000, ETH: 3000 };
export const COINS = Object.keys(COIN_PRICES);
export const isCoin = (coin: unknown): coin is string => typeof coin === 'string' && coin in COIN_PRICES;

/** The reference price of a base coin in its quote (USD, USDT and USDC count as one): where seeded prices start. */
export const referencePrice = (base: string): number => COIN_PRICES[base] ?? 100;
