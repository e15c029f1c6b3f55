/**
 * Executable readings of Interface A's rules, small enough to check by eye against the document:
 *
 *   "BX-NONCE must lie within [lowerBound, upperBound], be strictly greater than the nonce of the previous request
 *    and never be reused."
 *   "lowerBound: start of the current day in epoch microseconds; upperBound: end of the current day"
 *
 * The time in force of limit orders is read by harness/models/limit-book.ts, shared with the unified exchange.
 */

// ---------------------------------------------------------------------------------------------------------------
// The current day

export interface Day {
  /** Epoch microseconds of the day's first instant. */
  start: bigint;
  /** Epoch microseconds of the midnight that ends it. */
  end: bigint;
}

/** The day that holds `at` in an IANA time zone, as epoch microseconds (days of 23 or 25 hours included). */
export function dayOf(at: Date, timeZone: string): Day {
  const startMs = midnightBefore(at.getTime(), timeZone);
  // 26 hours later is always in the next day, whatever daylight saving does; its midnight ends this one.
  const endMs = midnightBefore(startMs + 26 * 3600_000, timeZone);
  return { start: BigInt(startMs) * 1000n, end: BigInt(endMs) * 1000n };
}

/** The epoch millisecond at which the calendar day holding `ms` began in the time zone. */
function midnightBefore(ms: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const sinceMidnight = ((Number(parts.hour) * 60 + Number(parts.minute)) * 60 + Number(parts.second)) * 1000 + (ms % 1000);
  let guess = ms - sinceMidnight;
  // A daylight-saving change during the day moves midnight by the difference in offsets: correct once.
  const offsetAt = (t: number) => offsetMs(t, timeZone);
  guess += offsetAt(ms) - offsetAt(guess);
  return guess;
}

function offsetMs(ms: number, timeZone: string): number {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - (ms - (ms % 1000));
}

/** Day-dependent checks are skipped this close to midnight: the target and the harness may disagree on the day. */
export const NEAR_MIDNIGHT_MS = 60_000;

export function nearMidnight(now: Date, timeZone: string): boolean {
  return nearEdge(dayOf(now, timeZone), now);
}

/** lowerBound is the day's start; upperBound its last microsecond or the midnight that ends it (both readings). */
export function rangeIsDay(lower: bigint, upper: bigint, day: Day): boolean {
  return lower === day.start && (upper === day.end - 1n || upper === day.end);
}

const HOUR_US = 3_600_000_000n;
/** Every time zone's offset is a whole number of quarter hours, so each of its midnights falls on one. */
const QUARTER_HOUR_US = 900_000_000n;

/**
 * The day a reported range stands for, where it is a whole calendar day of some time zone that holds `at`: lowerBound
 * a midnight (a quarter hour), upperBound the day's last microsecond or the midnight that ends it, 23 to 25 hours
 * later (daylight saving). What a target whose profile leaves the zone unstated is held to.
 */
export function dayOfSomeZone(lower: bigint, upper: bigint, at: Date): Day | undefined {
  if (lower % QUARTER_HOUR_US !== 0n) return undefined;
  const length = [23n, 24n, 25n].map((h) => h * HOUR_US).find((l) => upper === lower + l - 1n || upper === lower + l);
  if (length === undefined) return undefined;
  const t = BigInt(at.getTime()) * 1000n;
  return t >= lower && t < lower + length ? { start: lower, end: lower + length } : undefined;
}

/** Whether `at` lies within NEAR_MIDNIGHT_MS of the day's start or end. */
export function nearEdge(day: Day, at: Date): boolean {
  const t = BigInt(at.getTime()) * 1000n;
  const margin = BigInt(NEAR_MIDNIGHT_MS) * 1000n;
  return t - day.start < margin || day.end - t < margin;
}

/** The nonce range of an answer: epoch microseconds as JSON numbers or strings of digits (the type is not shown). */
export function rangeOf(body: unknown): { lower: bigint; upper: bigint } | undefined {
  const b = body as { lowerBound?: unknown; upperBound?: unknown } | undefined;
  const lower = micros(b?.lowerBound);
  const upper = micros(b?.upperBound);
  return lower === undefined || upper === undefined ? undefined : { lower, upper };
}

function micros(v: unknown): bigint | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Nonces of one key

/** What the rules say of one nonce, given what the key saw before. */
export type NonceVerdict =
  | { expect: 'refused'; requirement: 'A-NONCE-IN-RANGE' | 'A-NONCE-REUSE' | 'A-NONCE-GREATER'; why: string }
  | { expect: 'accepted'; requirement: 'A-NONCE-ACCEPTED' | 'A-NONCE-REFUSAL-NO-EFFECT'; why: string }
  | { expect: 'either'; why: string };

export class NonceModel {
  /** Every nonce the key had accepted, and the greatest of them. */
  readonly accepted = new Set<bigint>();
  last: bigint | undefined;
  /** Nonces of requests refused for another reason (a broken body): whether they were used up is not shown. */
  private readonly refusedOther: bigint[] = [];
  /** Every nonce sent, whatever became of it. */
  private readonly sent: bigint[] = [];

  /**
   * `lower` and `upper`: the day's first and last microsecond. The midnight that ends the day (upper + 1) may be
   * upperBound itself (A-NS-DAY-END): a nonce equal to it may be accepted or refused.
   */
  constructor(
    readonly lower: bigint,
    readonly upper: bigint,
  ) {}

  /** What a valid order with this nonce must get. */
  judge(n: bigint): NonceVerdict {
    if (n === this.upper + 1n) return { expect: 'either', why: `${n} is the midnight that ends the day, which upperBound may be` };
    if (n < this.lower || n > this.upper) return { expect: 'refused', requirement: 'A-NONCE-IN-RANGE', why: `${n} lies outside [${this.lower}, ${this.upper + 1n}]` };
    if (this.accepted.has(n)) return { expect: 'refused', requirement: 'A-NONCE-REUSE', why: `${n} was accepted before` };
    if (this.last !== undefined && n < this.last) return { expect: 'refused', requirement: 'A-NONCE-GREATER', why: `${n} is below the last accepted nonce ${this.last}` };
    // In range, unused and above the last accepted one: every reading accepts it when it is above everything sent...
    if (this.sent.every((s) => s < n)) return { expect: 'accepted', requirement: 'A-NONCE-ACCEPTED', why: `${n} is in range and above every nonce sent before` };
    // ...and the harness's reading too when only refusals for the nonce itself (out of range) lie above it.
    if (this.refusedOther.every((s) => s < n)) return { expect: 'accepted', requirement: 'A-NONCE-REFUSAL-NO-EFFECT', why: `${n} is in range and above the last accepted nonce; only nonces refused as out of range lie above it` };
    return { expect: 'either', why: `${n} is at or below the nonce of a request refused for another reason, which may have used it up` };
  }

  /** Records what became of a request with nonce `n`; `otherReason` when it was refusable for its body. */
  record(n: bigint, accepted: boolean, otherReason = false): void {
    const before = this.judge(n);
    this.sent.push(n);
    if (accepted) {
      this.accepted.add(n);
      if (this.last === undefined || n > this.last) this.last = n;
    } else if (otherReason || (before.expect !== 'refused' && n >= this.lower && n <= this.upper)) {
      // Refused though its nonce was fine (a broken body, or a target that refused a valid nonce): maybe used up. The
      // midnight that ends the day, refused, was refused as out of range.
      this.refusedOther.push(n);
    }
  }

  /** The greatest in-range nonce sent so far (the next fresh one goes above it). */
  highestInRange(): bigint | undefined {
    const inRange = this.sent.filter((s) => s >= this.lower && s <= this.upper);
    return inRange.length ? inRange.reduce((a, b) => (a > b ? a : b)) : undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Order records

export type RecordState = 'open' | 'filled' | 'cancelled' | 'unknown';

/** The state a status value stands for, by the profile's lists (settings.orderRecord.statuses). */
export function stateOf(status: unknown, statuses: { open: string[]; filled: string[]; cancelled: string[] }): RecordState {
  if (typeof status !== 'string') return 'unknown';
  if (statuses.open.includes(status)) return 'open';
  if (statuses.filled.includes(status)) return 'filled';
  if (statuses.cancelled.includes(status)) return 'cancelled';
  return 'unknown';
}
