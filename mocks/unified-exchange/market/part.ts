/**
 * The public market data of the reference (no credentials): the live book and fills come from trading's MarketView,
 * everything else is seeded here, deterministic for a given clock. Each operation lives in a module of its own; this
 * file only maps the spec's operation ids to them.
 */
import { accepted, type MarketView, type Part, type PartOptions } from '../contract.ts';
import { fillsAnswer, orderBookAnswer, tickersAnswer } from './book.ts';
import { candlesAnswer, seededPrice } from './candles.ts';
import { currentFundingAnswer, fundingHistoryAnswer } from './funding.ts';
import {
  feeGroupAnswer,
  indexComponentsAnswer,
  instrumentsAnswer,
  marginLoansAnswer,
  openInterestAnswer,
  positionTierAnswer,
  scoreWeightsAnswer,
} from './reference-data.ts';
import type { Market } from './symbols.ts';

/** server-time-skewed: the clock the server reports runs an hour ahead. */
const SKEW_MS = 3_600_000;

export function createMarket(options: PartOptions & { view: MarketView }): Part {
  const { view } = options;
  const price = (m: Market) => seededPrice(m, options.now());
  return {
    operations: {
      getServerTime: () => {
        const serverTime = options.now() + (options.fault('server-time-skewed') ? SKEW_MS : 0);
        // server-time-number: the milliseconds as a JSON number.
        return accepted({ serverTime: options.fault('server-time-number') ? serverTime : String(serverTime) });
      },
      getInstruments: ({ params }) => instrumentsAnswer(options, params),
      getTickers: ({ params }) => tickersAnswer(options, view, params, price),
      getOrderBook: ({ params }) => orderBookAnswer(options, view, params),
      getMarketFills: ({ params }) => fillsAnswer(options, view, params),
      getCandles: ({ params }) => candlesAnswer(options, params, false),
      getHistoryCandles: ({ params }) => candlesAnswer(options, params, true),
      getCurrentFundingRate: ({ params }) => currentFundingAnswer(options, params),
      getFundingRateHistory: ({ params }) => fundingHistoryAnswer(options, params),
      getOpenInterest: ({ params }) => openInterestAnswer(options, params),
      getPositionTier: ({ params }) => positionTierAnswer(options, params),
      getScoreWeights: ({ params }) => scoreWeightsAnswer(options, params),
      getFeeGroup: ({ params }) => feeGroupAnswer(options, params),
      getMarginLoans: ({ params }) => marginLoansAnswer(options, params),
      getIndexComponents: ({ params }) => indexComponentsAnswer(options, params, price),
    },
  };
}
