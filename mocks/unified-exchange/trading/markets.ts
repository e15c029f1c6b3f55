/**
 * The markets the reference lists: one symbol per category, as settings.markets.symbols names them (U-NS-MARKETS),
 * and the price ladder its market maker seeds them with. Exported so the market-data part lists the same symbols.
 */
import type { UnifiedExchangeSettings } from '../../../interfaces/unified-exchange/settings.ts';
import { dec, type Dec } from './decimal.ts';

export const CATEGORY_VALUES = ['SPOT', 'MARGIN', 'USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'] as const;
export type CategoryValue = (typeof CATEGORY_VALUES)[number];

export const FUTURES: ReadonlySet<string> = new Set(['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES']);
export const isFutures = (category: string): boolean => FUTURES.has(category);

const DEFAULT_SYMBOLS: Record<CategoryValue, string> = { SPOT: 'BTCUSDT', MARGIN: 'BTCUSDT', 'USDT-FUTURES': 'BTCUSDT', 'COIN-FUTURES': 'BTCUSD', 'USDC-FUTURES': 'BTCPERP' };

/** The symbol each category lists. */
export function symbolsOf(settings: UnifiedExchangeSettings | undefined): Record<CategoryValue, string> {
  return { ...DEFAULT_SYMBOLS, ...(settings?.markets?.symbols ?? {}) };
}

/**
 * The market maker's ladder. A spread of 100 around the mid leaves room for a test's own orders inside it (they then
 * meet only each other), and 250 levels a side keep a book request's 150-level default and 200-level maximum full.
 * Every price is a multiple of 0.01 and every size of 0.0001, so the maker is valid in the tick-step reading too.
 */
export const MAKER = {
  uid: 'market-maker',
  mid: dec('60000'),
  halfSpread: dec('50'),
  step: dec('0.5'),
  levels: 250,
  /** Below this many levels on a side, the maker adds levels beyond its worst one (never crossing the other side). */
  refillBelow: 220,
  sizes: ['0.5', '0.75', '1', '1.25', '1.5', '2', '0.25'].map(dec),
} as const;

export function makerSize(i: number): Dec {
  return MAKER.sizes[i % MAKER.sizes.length];
}
