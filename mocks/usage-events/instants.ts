// Instants of the usage-events reference: the ISO 8601 date-times events carry and queries bound, and the UTC
// intervals statistics group them into. An instant is kept as whole microseconds since the epoch (the precision of
// the real product's database) in a bigint, so that a timestamp sent with microseconds is given back with them in
// any year from 0001 to 9999.

export type Interval = 'hour' | 'day' | 'week' | 'month';
export const INTERVALS: readonly Interval[] = ['hour', 'day', 'week', 'month'];

export const MICROS_PER_MS = 1000n;
export const ONE_HOUR = 3_600_000_000n;
const ONE_DAY = 24n * ONE_HOUR;

// Date and time with a T (or a space), minutes required, seconds and a fraction optional, then an offset: Z, ±hh:mm,
// ±hhmm or ±hh. Without an offset the time is read as UTC: the document asks for ISO 8601, which allows a local
// time (the real product refuses one, which a client of the document cannot know).
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

const utcMs = (year: number, monthIndex: number, day: number): number => {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date.getTime();
};
// Years 0001-9999 once in UTC, so that every stored instant prints with a four-digit year.
const FIRST_INSTANT = BigInt(utcMs(1, 0, 1)) * MICROS_PER_MS;
const END_OF_INSTANTS = BigInt(utcMs(10000, 0, 1)) * MICROS_PER_MS;

// RFC 3339 as strict parsers take it (D-NS-TIMESTAMP-FORMS offset-required): a T, seconds, and an offset Z or ±hh:mm.
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * Microseconds since the epoch of an ISO 8601 date-time, or undefined when it is not one (or names no real day).
 * `strict`: only RFC 3339 date-times with an offset (the D-NS-TIMESTAMP-FORMS reading offset-required).
 */
export function parseInstant(text: unknown, strict = false): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  if (strict && !RFC_3339.test(text)) return undefined;
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const hours = Number(m[10]);
    const minutes = m[11] === undefined ? 0 : Number(m[11]);
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const fraction = BigInt((m[7] ?? '').padEnd(6, '0').slice(0, 6));
  const wallClockMs = utcMs(year, month - 1, day) + ((hour * 60 + minute) * 60 + second) * 1000;
  const micros = BigInt(wallClockMs - offsetMinutes * 60_000) * MICROS_PER_MS + fraction;
  return micros < FIRST_INSTANT || micros >= END_OF_INSTANTS ? undefined : micros;
}

/** The instant in UTC with a Z: seconds always, a fraction only when there is one (microseconds, trailing zeros dropped). */
export function formatInstant(micros: bigint): string {
  const seconds = floorDiv(micros, 1_000_000n);
  const fraction = micros - seconds * 1_000_000n;
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return fraction === 0n ? `${whole}Z` : `${whole}.${fraction.toString().padStart(6, '0').replace(/0+$/, '')}Z`;
}

/**
 * How a deployment writes an instant back (D-NS-TIMESTAMP-ECHO): `utc-z` as formatInstant; `offset-zero` as Python's
 * isoformat (+00:00, six fraction digits when there is a fraction); `always-micros` six fraction digits always, with Z.
 * `offsetMinutes` writes the wall clock of that offset instead of UTC (statistics in a fixed time zone).
 */
export type InstantStyle = 'utc-z' | 'offset-zero' | 'always-micros';
export function formatInstantAs(micros: bigint, style: InstantStyle, offsetMinutes = 0): string {
  if (style === 'utc-z' && offsetMinutes === 0) return formatInstant(micros);
  const wall = micros + BigInt(offsetMinutes) * 60_000_000n;
  const seconds = floorDiv(wall, 1_000_000n);
  const fraction = wall - seconds * 1_000_000n;
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  const digits = fraction.toString().padStart(6, '0');
  const fractionText = style === 'always-micros' ? `.${digits}` : fraction === 0n ? '' : style === 'offset-zero' ? `.${digits}` : `.${digits.replace(/0+$/, '')}`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = offsetMinutes === 0 && style !== 'offset-zero' ? 'Z' : `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${whole}${fractionText}${offset}`;
}

/** The instant of a JavaScript time (ms since the epoch). */
export const fromMs = (ms: number): bigint => BigInt(Math.floor(ms)) * MICROS_PER_MS;

/** Where calendar intervals are cut: the day a week starts on, and the zone's fixed offset from UTC in minutes. */
export interface Calendar {
  weekStartsOn: 'monday' | 'sunday';
  offsetMinutes: number;
}
const UTC_MONDAY: Calendar = { weekStartsOn: 'monday', offsetMinutes: 0 };

/** The start of the UTC interval that holds the instant (weeks start on Monday), or of the calendar's interval. */
export function intervalStart(micros: bigint, interval: Interval, calendar: Calendar = UTC_MONDAY): bigint {
  const shift = BigInt(calendar.offsetMinutes) * 60_000_000n;
  const date = new Date(Number(floorDiv(micros + shift, MICROS_PER_MS)));
  date.setUTCMinutes(0, 0, 0);
  if (interval !== 'hour') date.setUTCHours(0);
  if (interval === 'week') date.setUTCDate(date.getUTCDate() - (calendar.weekStartsOn === 'sunday' ? date.getUTCDay() : (date.getUTCDay() + 6) % 7));
  if (interval === 'month') date.setUTCDate(1);
  return fromMs(date.getTime()) - shift;
}

/** The start of the interval after the one that starts at `start`. */
export function nextIntervalStart(start: bigint, interval: Interval, calendar: Calendar = UTC_MONDAY): bigint {
  if (interval === 'hour') return start + ONE_HOUR;
  if (interval === 'day') return start + ONE_DAY;
  if (interval === 'week') return start + 7n * ONE_DAY;
  const shift = BigInt(calendar.offsetMinutes) * 60_000_000n;
  const date = new Date(Number(floorDiv(start + shift, MICROS_PER_MS)));
  date.setUTCMonth(date.getUTCMonth() + 1);
  return fromMs(date.getTime()) - shift;
}

/** The calendar day (UTC) of an instant, YYYY-MM-DD. */
export const utcDay = (micros: bigint): string => formatInstant(micros).slice(0, 10);

export const compareInstants = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}
