// The order nonce (BX-NONCE on every authenticated write): within the current day's range, strictly greater than the
// key's last accepted nonce, never reused. The login nonces are another matter (see logins.ts).
import type { ExchangeSessionFault } from './faults.js';
import { refuse, type Refusal } from './errors.js';

type On = (name: ExchangeSessionFault) => boolean;

export interface DayRange {
  /** Start of the day, epoch microseconds. */
  lower: bigint;
  /** Its last microsecond. */
  upper: bigint;
}

/**
 * "The current day" in an IANA time zone. The offset is read from Intl at the instant in question, so days that
 * gain or lose an hour to daylight saving are 23 or 25 hours long, as the zone's clocks say.
 */
export class DayClock {
  private readonly format: Intl.DateTimeFormat;

  constructor(readonly timeZone: string) {
    // An unknown zone throws RangeError here, at start-up, rather than at the first request.
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /** The range of the day that holds `nowMs`, or of a day before or after it. */
  range(nowMs: number, daysFromToday = 0): DayRange {
    const today = this.wall(nowMs);
    const start = this.midnight(today.year, today.month, today.day + daysFromToday);
    const next = this.midnight(today.year, today.month, today.day + daysFromToday + 1);
    return { lower: BigInt(start) * 1000n, upper: BigInt(next) * 1000n - 1n };
  }

  private wall(instantMs: number) {
    const parts: Record<string, number> = {};
    for (const p of this.format.formatToParts(new Date(instantMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
    return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
  }

  /** How far the zone's clocks are ahead of UTC at an instant, in ms. */
  private offset(instantMs: number): number {
    const w = this.wall(instantMs);
    const wallAsUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
    return wallAsUtc - (instantMs - (((instantMs % 1000) + 1000) % 1000));
  }

  /** The instant the zone's clocks show 00:00 on a date (day may overflow the month: Date.UTC normalises it). */
  private midnight(year: number, month: number, day: number): number {
    const wallAsUtc = Date.UTC(year, month - 1, day);
    // Two passes: the offset at the first guess may differ from the offset at midnight itself across a DST change.
    const guess = wallAsUtc - this.offset(wallAsUtc);
    return wallAsUtc - this.offset(guess);
  }
}

interface KeyNonces {
  last?: bigint;
  /** Only the 'nonce-lower-accepted' fault consults it. */
  used: Set<bigint>;
}

/** What a nonce check hands back on success: recording it is a separate step only so that a fault can delay it. */
export type Admission = { record(): void };

export class NonceLedger {
  private readonly keys = new Map<string, KeyNonces>();

  constructor(
    private readonly clock: DayClock,
    private readonly on: On,
    /**
     * The reading next-midnight of A-NS-DAY-END: upperBound is the midnight that ends the day (the next day's first
     * microsecond), reported and enforced inclusively, rather than the day's last microsecond.
     */
    private readonly upperIsNextMidnight = false,
  ) {}

  private range(nowMs: number, daysFromToday = 0): DayRange {
    const range = this.clock.range(nowMs, daysFromToday);
    return this.upperIsNextMidnight ? { lower: range.lower, upper: range.upper + 1n } : range;
  }

  /** The range as GET nonce reports it (the faults bend only the report; enforcement below uses the true range). */
  reported(nowMs: number): { lowerBound: number; upperBound: number } {
    const range = this.range(nowMs, this.on('nonce-range-yesterday') ? -1 : 0);
    if (this.on('nonce-range-milliseconds')) return { lowerBound: Number(range.lower / 1000n), upperBound: Number(range.upper / 1000n) };
    return { lowerBound: Number(range.lower), upperBound: Number(range.upper) };
  }

  /**
   * Checks a write's BX-NONCE against the sequence it belongs to (`scope`: the key's by default; the user's or the
   * session's in other readings of A-NS-NONCE-SCOPE). The caller records an admission before it next awaits, so two
   * concurrent writes can never both pass with the same nonce; a refusal changes nothing.
   */
  check(scope: string, header: string | undefined, nowMs: number): Admission | Refusal {
    const state = this.keys.get(scope) ?? { used: new Set<bigint>() };
    this.keys.set(scope, state);
    if (header === undefined) {
      if (this.on('nonce-not-required')) return { record() {} };
      return refuse('INVALID_NONCE', 'BX-NONCE is required on every authenticated write.');
    }
    if (!/^\d{1,20}$/.test(header)) return refuse('INVALID_NONCE', 'BX-NONCE must be an unsigned integer.');
    const nonce = BigInt(header);
    const { lower, upper } = this.range(nowMs);

    // The bug: the nonce is stored as the key's latest before the range is looked at.
    if (this.on('refused-nonce-consumed') && nonce > upper) state.last = nonce;
    if (nonce < lower) return refuse('INVALID_NONCE', `BX-NONCE lies before the current day's range [${lower}, ${upper}].`);
    if (nonce > upper && !this.on('nonce-upper-unenforced')) return refuse('INVALID_NONCE', `BX-NONCE lies after the current day's range [${lower}, ${upper}].`);

    const last = state.last;
    let fresh: boolean;
    if (this.on('nonce-lower-accepted')) fresh = !state.used.has(nonce);
    else if (this.on('nonce-only-last-remembered')) fresh = nonce !== last;
    else if (this.on('nonce-equal-accepted')) fresh = last === undefined || nonce >= last;
    else if (this.on('nonce-counter')) fresh = last === undefined || nonce === last + 1n;
    else fresh = last === undefined || nonce > last;
    if (!fresh) return refuse('INVALID_NONCE', `BX-NONCE must be greater than the last nonce accepted for this key (${last}) and never reused.`, 'nonce-not-fresh');

    return {
      record() {
        state.last = nonce;
        state.used.add(nonce);
      },
    };
  }
}
