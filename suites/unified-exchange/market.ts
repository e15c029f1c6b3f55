/** Reading market data as every reading of the document allows: book levels of either shape, candles' timestamps. */

export const INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1H', '4H', '6H', '12H', '1D'] as const;
export type Interval = (typeof INTERVALS)[number];
const MINUTE = 60_000;
export const INTERVAL_MS: Record<Interval, number> = {
  '1m': MINUTE, '3m': 3 * MINUTE, '5m': 5 * MINUTE, '15m': 15 * MINUTE, '30m': 30 * MINUTE,
  '1H': 60 * MINUTE, '4H': 240 * MINUTE, '6H': 360 * MINUTE, '12H': 720 * MINUTE, '1D': 1440 * MINUTE,
};

/**
 * The prices of a side's levels, index 0 first: a level is [price, size] or {price, size} (U-NS-BOOK-LEVEL). `prices`
 * is undefined where a level's price cannot be read as a number; `shape` names the reading seen.
 */
export function levelPrices(levels: unknown[]): { prices?: number[]; shape?: 'price-size-strings' | 'level-objects' } {
  const first = levels[0];
  const shape = Array.isArray(first) ? 'price-size-strings' : first && typeof first === 'object' ? 'level-objects' : undefined;
  const prices = levels.map((l) => Number(Array.isArray(l) ? l[0] : (l as { price?: unknown } | null)?.price ?? NaN));
  return { prices: prices.every((p) => Number.isFinite(p)) ? prices : undefined, shape };
}

/** The timestamps of a candles answer's data (an array of arrays whose first element is Unix ms), or undefined. */
export function candleTimes(data: unknown): number[] | undefined {
  if (!Array.isArray(data)) return undefined;
  const times = data.map((c) => (Array.isArray(c) && /^\d+$/.test(String(c[0])) ? Number(c[0]) : NaN));
  return times.every(Number.isFinite) ? times : undefined;
}

/** The rows of a list answer: data itself, the member the profile names (settings.lists), else data's first array (U-NS-LIST-SHAPE). */
export function rowsOf(data: unknown, member: string | undefined): unknown[] {
  if (member !== undefined) return ((member === '' ? data : (data as Record<string, unknown> | null)?.[member]) as unknown[]) ?? [];
  if (Array.isArray(data)) return data;
  return (Object.values((data as Record<string, unknown>) ?? {}).find(Array.isArray) as unknown[] | undefined) ?? [];
}

/** Whether an answer's data holds no records: an empty array, or an object whose every array member is empty. */
export function holdsNoRecords(data: unknown): boolean {
  if (Array.isArray(data)) return data.length === 0;
  if (data && typeof data === 'object') return Object.values(data).every((v) => !Array.isArray(v) || v.length === 0);
  return data === null || data === undefined;
}
