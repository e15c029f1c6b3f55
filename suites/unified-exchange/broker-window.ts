/**
 * The model of "20 requests per second per UID" for the broker operations, as both readings of U-NS-BROKER-RATE-WINDOW
 * agree on it (whole seconds of the server's clock, counting every request; or a sliding 1000 ms, counting the accepted
 * ones). Each request is known only to within its round trip and the uncertainty of the server clock's offset, so the
 * model judges conservatively:
 * - a request must be let through (U-LIMIT-BROKER-RATE-ALLOWED) when fewer than 20 earlier requests of the UID, of any
 *   outcome, may lie within the 1000 ms before it, and fewer than 20 within the whole second it may start in: neither
 *   reading has room to throttle it;
 * - a whole second of the server's clock holds at most 20 accepted requests (U-LIMIT-BROKER-RATE), counting those
 *   whose whole round trip surely lies within it.
 * Times are on the server's clock, in ms.
 */

export const BROKER_LIMIT = 20;

export interface Sent<E = unknown> {
  /** The earliest and latest the server may have seen it (send and answer times, moved by the clock's offset and slack). */
  from: number;
  to: number;
  accepted: boolean;
  /** Evidence: the exchange. */
  exchange: E;
}

export class BrokerWindow<E = unknown> {
  private readonly sent: Array<Sent<E>> = [];

  constructor(readonly limit = BROKER_LIMIT) {}

  /**
   * The earlier requests that may share a window with one the server may have seen from `from` on: those that may lie
   * within the 1000 ms before it, and those that may lie in the whole second it may start in (or later).
   */
  before(from: number): { sliding: number; fixed: number } {
    const secondStart = Math.floor(from / 1000) * 1000;
    let sliding = 0;
    let fixed = 0;
    for (const s of this.sent) {
      if (s.to > from - 1000) sliding++;
      if (s.to >= secondStart) fixed++;
    }
    return { sliding, fixed };
  }

  /** Whether neither reading has room to throttle a request the server may have seen from `from` on. */
  mustLetThrough(from: number): boolean {
    const { sliding, fixed } = this.before(from);
    return sliding < this.limit && fixed < this.limit;
  }

  record(s: Sent<E>): void {
    this.sent.push(s);
  }

  /** The first whole second, ended before `now`, that surely holds more than the limit of accepted requests. */
  overfull(now: number): { second: number; accepted: Array<Sent<E>> } | undefined {
    const bySecond = new Map<number, Array<Sent<E>>>();
    for (const s of this.sent) {
      if (!s.accepted) continue;
      const second = Math.floor(s.from / 1000) * 1000;
      // Surely within one second: its whole span lies inside it.
      if (s.to >= second + 1000 || second + 1000 > now) continue;
      bySecond.set(second, [...(bySecond.get(second) ?? []), s]);
    }
    for (const [second, accepted] of [...bySecond].sort((a, b) => a[0] - b[0])) if (accepted.length > this.limit) return { second, accepted };
    return undefined;
  }

  /** Forgets what can no longer share a window with anything sent after `now`. */
  forget(now: number): void {
    const keepFrom = Math.floor((now - 1000) / 1000) * 1000 - 1000;
    let i = 0;
    while (i < this.sent.length && this.sent[i]!.to < keepFrom) i++;
    this.sent.splice(0, i);
  }
}
