/**
 * Reference data of the markets: instruments, open interest, position tiers, score weights, fee groups, margin-loan
 * terms and index components. The document shows none of their members (U-NS-RECORD-MEMBERS): the public exchange's
 * names by default, other names in the documented-only reading. All of it is seeded and fixed, but for the prices,
 * which follow the seeded candles' price of now.
 */
import type { Category } from '../../../interfaces/unified-exchange/settings.ts';
import { accepted, refused, type Outcome, type PartOptions } from '../contract.ts';
import { listData } from './lists.ts';
import { dec, given, text, unit } from './params.ts';
import { ALL_CATEGORIES, COIN_PRICES, FUTURES, isCoin, marketInAny, marketsOf, type Market } from './symbols.ts';

const publicMembers = (options: PartOptions) => options.reading('U-NS-RECORD-MEMBERS') !== 'documented-only';
const fractionDigits = (step: string) => (step.includes('.') ? step.split('.')[1]!.length : 0);

export function instrumentsAnswer(options: PartOptions, params: Record<string, unknown>): Outcome {
  const category = text(params.category);
  if (!category || !(ALL_CATEGORIES as readonly string[]).includes(category)) return refused('validation', 'category must be one of the category values');
  const symbol = given(params.symbol) ? text(params.symbol) : undefined;
  const precision = options.settings.markets?.precision ?? { tick: '0.01', step: '0.0001', minNotional: '0' };
  const futures = (FUTURES as readonly string[]).includes(category);
  const rows = marketsOf(options, category as Category)
    .filter((m) => symbol === undefined || options.fault('instruments-symbol-ignored') || m.symbol === symbol)
    .map((m) =>
      publicMembers(options)
        ? {
            category,
            symbol: m.symbol,
            baseCoin: m.base,
            quoteCoin: m.quote,
            ...(futures ? { settleCoin: m.settle, maxLeverage: '125' } : category === 'MARGIN' ? { maxLeverage: '10' } : {}),
            minOrderQty: precision.step,
            maxOrderQty: '1000000',
            minOrderAmount: precision.minNotional,
            pricePrecision: String(fractionDigits(precision.tick)),
            quantityPrecision: String(fractionDigits(precision.step)),
            priceMultiplier: precision.tick,
            quantityMultiplier: precision.step,
            status: 'online',
          }
        : { instId: m.symbol, base: m.base, quote: m.quote, tickSize: precision.tick, lotSize: precision.step, minNotional: precision.minNotional, state: 'trading' },
    );
  return accepted(listData(options, 'getInstruments', rows));
}

export function openInterestAnswer(options: PartOptions, params: Record<string, unknown>): Outcome {
  const category = text(params.category);
  if (!category || !(FUTURES as readonly string[]).includes(category)) return refused('validation', 'category must be a futures category');
  const symbol = given(params.symbol) ? text(params.symbol) : undefined;
  const now = String(options.now());
  const rows = marketsOf(options, category as Category)
    .filter((m) => symbol === undefined || m.symbol === symbol)
    .map((m) => {
      const size = dec((m.base === 'BTC' ? 20000 : 300000) * (0.9 + 0.2 * unit(`oi|${m.category}|${m.symbol}`)), 4);
      return publicMembers(options) ? { symbol: m.symbol, openInterest: size, ts: now } : { instrument: m.symbol, contracts: size, time: now };
    });
  return accepted(listData(options, 'getOpenInterest', rows, { ts: now }));
}

/** Three tiers per market (and per coin of a margin pair): the larger the position, the lower the leverage. */
export function positionTierAnswer(options: PartOptions, params: Record<string, unknown>): Outcome {
  const category = text(params.category);
  if (!category || !['MARGIN', ...FUTURES].includes(category)) return refused('validation', 'category must be MARGIN or a futures category');
  const symbol = given(params.symbol) ? text(params.symbol) : undefined;
  const coin = given(params.coin) ? text(params.coin) : undefined;
  const margin = category === 'MARGIN';
  const rows: Record<string, string>[] = [];
  for (const m of marketsOf(options, category as Category)) {
    if (symbol !== undefined && m.symbol !== symbol) continue;
    for (const c of margin ? [m.base, m.quote] : [m.settle]) {
      if (coin !== undefined && c !== coin) continue;
      const scale = margin ? 100000 / (COIN_PRICES[c] ?? 1) : 1_000_000;
      [1, 2, 3].forEach((tier) => {
        const leverage = margin ? [10, 5, 3][tier - 1]! : [125, 50, 20][tier - 1]!;
        const min = tier === 1 ? 0 : scale * 10 ** (tier - 2);
        const max = scale * 10 ** (tier - 1);
        rows.push(
          publicMembers(options)
            ? { tier: String(tier), symbol: m.symbol, coin: c, minTierValue: dec(min, 4), maxTierValue: dec(max, 4), leverage: String(leverage), maintainMarginRate: dec(0.4 / leverage, 6) }
            : { level: String(tier), instrument: m.symbol, asset: c, from: dec(min, 4), to: dec(max, 4), maxLeverage: String(leverage) },
        );
      });
    }
  }
  return accepted(listData(options, 'getPositionTier', rows));
}

/**
 * score-weights and fee-group take SPOT or FUTURES (not the five category values). U-NS-GROUP-CATEGORIES: the futures
 * category values are refused (spot-or-futures), or taken as FUTURES (futures-categories-too); any other value is an
 * unlisted category (settings.unlistedCategory:
 * refused, or no records), never another category's records.
 */
function groupCategory(options: PartOptions, value: unknown): 'SPOT' | 'FUTURES' | 'unlisted' | 'refused' {
  if (value === 'SPOT' || value === 'FUTURES') return value;
  if (typeof value === 'string' && (FUTURES as readonly string[]).includes(value) && options.reading('U-NS-GROUP-CATEGORIES') === 'futures-categories-too') return 'FUTURES';
  if (typeof value === 'string' && (ALL_CATEGORIES as readonly string[]).includes(value)) return options.settings.unlistedCategory === 'empty' ? 'unlisted' : 'refused';
  return 'refused';
}

const SCORE_WEIGHTS: Record<'SPOT' | 'FUTURES', Record<string, string>> = {
  SPOT: { USDT: '1', USDC: '1', BTC: '0.95', ETH: '0.9' },
  FUTURES: { USDT: '1', USDC: '1', BTC: '0.9', ETH: '0.85' },
};

export function scoreWeightsAnswer(options: PartOptions, params: Record<string, unknown>): Outcome {
  const which = given(params.category) ? groupCategory(options, params.category) : undefined;
  if (which === 'refused') return refused('validation', 'category must be SPOT or FUTURES');
  if (which === 'unlisted') return accepted([]);
  const categories = which ? [which] : (['SPOT', 'FUTURES'] as const);
  const rows = categories.flatMap((c) =>
    Object.entries(SCORE_WEIGHTS[c]).map(([coin, weight]) => (publicMembers(options) ? { category: c, coin, weight } : { market: c, asset: coin, ratio: weight })),
  );
  return accepted(rows);
}

const GROUPS = ['GROUP_A', 'GROUP_B', 'GROUP_C'] as const;

export function feeGroupAnswer(options: PartOptions, params: Record<string, unknown>): Outcome {
  if (!given(params.category)) return refused('validation', 'category is required');
  const which = groupCategory(options, params.category);
  if (which === 'refused') return refused('validation', 'category must be SPOT or FUTURES');
  if (which === 'unlisted') return accepted([]);
  const group = given(params.group) ? params.group : undefined;
  if (group !== undefined && !(GROUPS as readonly unknown[]).includes(group)) return refused('validation', 'group must be GROUP_A, GROUP_B or GROUP_C');
  const categories: readonly Category[] = which === 'SPOT' ? ['SPOT'] : FUTURES;
  const symbols = categories.flatMap((c) => marketsOf(options, c).map((m: Market) => m.symbol));
  const rows = GROUPS.filter((g) => group === undefined || g === group).map((g, i) => {
    const maker = dec((which === 'SPOT' ? 0.001 : 0.0002) * (1 - 0.2 * i), 6);
    const taker = dec((which === 'SPOT' ? 0.001 : 0.0006) * (1 - 0.2 * i), 6);
    // The groups split the category's symbols: GROUP_A the first, the others the rest.
    const own = i === 0 ? symbols.filter((_, k) => k % 2 === 0) : symbols.filter((_, k) => k % 2 === 1);
    return publicMembers(options) ? { group: g, category: which, symbols: own, makerFeeRate: maker, takerFeeRate: taker } : { name: g, market: which, instruments: own, maker, taker };
  });
  return accepted(rows);
}

export function marginLoansAnswer(options: PartOptions, params: Record<string, unknown>): Outcome {
  const coin = text(params.coin);
  if (!coin) return refused('validation', 'coin is required');
  if (!isCoin(coin)) return refused('validation', `coin ${coin} is not listed`);
  const daily = 0.0001 + 0.0004 * unit(`margin-loan|${coin}`);
  const price = COIN_PRICES[coin]!;
  const tiers = [1, 2, 3].map((tier) => ({ tier: String(tier), maxBorrowable: dec((100000 * 10 ** (tier - 1)) / price, 4), leverage: String([10, 5, 3][tier - 1]) }));
  return accepted(
    publicMembers(options)
      ? { coin, dailyInterestRate: dec(daily, 8), hourlyInterestRate: dec(daily / 24, 8), maxBorrowable: tiers[2]!.maxBorrowable, tiers }
      : { asset: coin, interestPerDay: dec(daily, 8), limits: tiers },
  );
}

/** An index is named by a listed symbol; its components are the spot prices of three venues. */
export function indexComponentsAnswer(options: PartOptions, params: Record<string, unknown>, price: (m: Market) => number): Outcome {
  const symbol = text(params.symbol);
  if (!symbol) return refused('validation', 'symbol is required');
  const market = marketInAny(options, symbol);
  if (!market) return refused('validation', `${symbol} is no listed index symbol`);
  const p = price(market);
  const venues = ['venue-a', 'venue-b', 'venue-c'];
  const components = venues.map((exchange, i) => ({
    exchange,
    spotPair: `${market.base}${market.quote === 'USD' ? 'USDT' : market.quote}`,
    weight: dec([0.5, 0.3, 0.2][i]!, 4),
    price: dec(p * (1 + 0.0004 * (unit(`${symbol}|${exchange}`) - 0.5)), 2),
  }));
  return accepted(publicMembers(options) ? { symbol, components, ts: String(options.now()) } : { index: symbol, parts: components });
}

