/**
 * How a list of records is held (U-NS-LIST-SHAPE). Where the document names the records' members but not the member
 * holding them, the public exchange answers the array itself as data (bare-arrays); another deployment wraps it in an
 * object beside its cursor or total (wrapped-lists: `list`, `resultList` for the funding history), and a tester says
 * where the rows are in settings.lists. The operations below are those the point names; the lists whose member the
 * document names (financial records `list`, sub-accounts `list`, broker `subList`) are objects in every reading.
 */
import type { PartOptions } from '../contract.ts';

/** Each operation whose rows the point covers -> the member holding them in the wrapped reading. */
export const WRAPPED_MEMBERS = {
  getInstruments: 'list',
  getTickers: 'list',
  getMarketFills: 'list',
  getFundingRateHistory: 'resultList',
  getOpenInterest: 'list',
  getPositionTier: 'list',
  getOngoingLoans: 'list',
  getLoanHistory: 'list',
  getEarnProducts: 'list',
  getEarnRecords: 'list',
  listP2pAds: 'list',
  getDepositRecords: 'list',
  getWithdrawalRecords: 'list',
} as const;
export type ListOperation = keyof typeof WRAPPED_MEMBERS;

/**
 * The data of a list answer: the rows themselves, or (wrapped-lists) an object holding them under the operation's
 * member beside `extra` (a cursor, a total). What a bare array cannot carry (the cursor) is dropped there: a client of
 * such a deployment pages by the last id it saw (U-NS-CURSOR-PAGING's other reading).
 */
export function listData(options: Pick<PartOptions, 'reading'>, operation: ListOperation, rows: unknown[], extra: Record<string, unknown> = {}): unknown {
  if (options.reading('U-NS-LIST-SHAPE') !== 'wrapped-lists') return rows;
  return { [WRAPPED_MEMBERS[operation]]: rows, ...extra };
}

/** settings.lists of each reading: where a tester says the rows are ("" for data itself). */
export const listSettings = (wrapped: boolean): Record<string, string> =>
  Object.fromEntries(Object.entries(WRAPPED_MEMBERS).map(([op, member]) => [op, wrapped ? member : '']));
