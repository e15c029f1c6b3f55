/**
 * Limits, cursors and time ranges of the record lists, shared by market data (fills, funding history) and the funds
 * operations. None of it is shown by the document:
 * - U-NS-PAGE-LIMITS: hundred-capped, limit defaults to 100 and is capped there (the public exchange's), or
 *   refused-above-max, defaults to 20 and is refused above 100 (settings.paging.maxLimit, overMax);
 * - U-NS-CURSOR-PAGING: next-cursor-member, an opaque cursor the answer hands out (in data, `cursor`; empty on the last
 *   page), or last-id, the id of the last record seen (settings.paging.cursor);
 * - U-NS-TIME-RANGE: ninety-days, at most 90 days between startTime and endTime and startTime at most a year back, or
 *   unbounded;
 * - U-NS-REVERSED-RANGE: an endTime before startTime refused, or empty (no records).
 */
import { refused, type Outcome, type PartOptions } from '../contract.ts';
import { millis, text, whole, given } from '../market/params.ts';

const DAY = 86_400_000;

export type Refusal = Extract<Outcome, { ok: false }>;
export const isRefusal = (v: unknown): v is Refusal => typeof v === 'object' && v !== null && (v as Outcome).ok === false;

/** The limit of a paged list, or its refusal. `fault` (fills-over-limit) is not here: the caller adds its own. */
export function pageLimit(options: PartOptions, value: unknown): number | Refusal {
  const max = options.settings.paging?.maxLimit ?? 100;
  const refusing = options.reading('U-NS-PAGE-LIMITS') === 'refused-above-max';
  if (!given(value)) return refusing ? Math.min(20, max) : max;
  const n = whole(value);
  if (n === undefined || n < 1) return refused('validation', 'limit must be a positive whole number') as Refusal;
  if (n > max) return refusing ? (refused('validation', `limit must be at most ${max}`) as Refusal) : max;
  return n;
}

const encode = (id: string) => Buffer.from(`after:${id}`, 'utf8').toString('base64url');
function decode(cursor: string): string | undefined {
  const plain = Buffer.from(cursor, 'base64url').toString('utf8');
  return plain.startsWith('after:') ? plain.slice('after:'.length) : undefined;
}

export interface Page<T> {
  rows: T[];
  /** What the answer carries to the next page: the opaque cursor ('' on the last page); absent in the last-id reading. */
  extra: Record<string, string>;
}

/**
 * One page of `rows` (already in the order they are listed): the records after the cursor, at most `limit`. The
 * cursor names the last record seen either way; the readings differ in how it is written and whether the answer
 * hands it out. Two faults: `overlap` starts each page on the last record of the previous one, `skip` one past the
 * record after it.
 */
export function pageOf<T>(options: PartOptions, rows: T[], idOf: (row: T) => string, cursor: unknown, limit: number, overlap = false, skip = false): Page<T> | Refusal {
  const opaque = options.reading('U-NS-CURSOR-PAGING') !== 'last-id';
  let start = 0;
  const c = text(cursor);
  if (c !== undefined) {
    // A client of a bare-array answer (U-NS-LIST-SHAPE), which cannot carry the cursor, pages by the last id it saw:
    // an opaque deployment takes that too rather than leave such a list unpageable.
    const after = opaque ? (decode(c) ?? (rows.some((r) => idOf(r) === c) ? c : undefined)) : c;
    if (after === undefined) return refused('validation', 'cursor is not one this deployment handed out') as Refusal;
    const at = rows.findIndex((r) => idOf(r) === after);
    // A record gone since (repaid, redeemed) ends the listing rather than restarting it.
    start = at < 0 ? rows.length : at + 1;
    if (overlap && at >= 0) start = at;
    if (skip && at >= 0) start = at + 2;
  }
  const slice = rows.slice(start, start + limit);
  const more = start + limit < rows.length;
  const extra: Record<string, string> = opaque ? { cursor: more && slice.length ? encode(idOf(slice[slice.length - 1]!)) : '' } : {};
  return { rows: slice, extra };
}

export interface Range {
  start: number;
  end: number;
  /** A reversed range answered with no records (U-NS-REVERSED-RANGE empty). */
  empty: boolean;
}

/**
 * The startTime..endTime of a records request. Where the operation requires both, a missing one is refused; where
 * they are optional, the range defaults to the 90 days before endTime (or now).
 */
export function timeRange(options: PartOptions, startValue: unknown, endValue: unknown, required: boolean): Range | Refusal {
  const now = options.now();
  if (required && (!given(startValue) || !given(endValue))) return refused('validation', 'startTime and endTime are required') as Refusal;
  const start = given(startValue) ? millis(startValue) : undefined;
  const end = given(endValue) ? millis(endValue) : undefined;
  if ((given(startValue) && start === undefined) || (given(endValue) && end === undefined)) return refused('validation', 'startTime and endTime are Unix milliseconds') as Refusal;
  const e = end ?? now;
  const s = start ?? Math.max(0, e - 90 * DAY);
  if (e < s) {
    if (options.reading('U-NS-REVERSED-RANGE') === 'empty') return { start: s, end: e, empty: true };
    return refused('validation', 'endTime is before startTime') as Refusal;
  }
  if (options.reading('U-NS-TIME-RANGE') === 'ninety-days') {
    const span = options.settings.timeRange?.maxSpanDays ?? 90;
    if (span > 0 && e - s > span * DAY) return refused('validation', `startTime..endTime spans more than ${span} days`) as Refusal;
    if (s < now - 365 * DAY) return refused('validation', 'startTime is more than a year back') as Refusal;
  }
  return { start: s, end: e, empty: false };
}

