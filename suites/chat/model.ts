/**
 * An executable reading of document 002, "Interface E": who a client is, and what a sliding-window limiter must
 * answer. The harness never knows when the server stamped a request, only that it happened between the moment the
 * request left and the moment its answer was in (`When`); so the model counts the stamps that are certainly in
 * the window and those that may be, and demands an answer only where every possible server time agrees.
 * Pure: no I/O, no clock of its own.
 */

export type Headers = Record<string, string | undefined>;

function header(headers: Headers, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name && v !== undefined) return v;
  return undefined;
}

/**
 * "the limiter identifies clients by IP address, taken from the first address of the X-Forwarded-For header,
 * else from the X-Real-IP header, else from the socket remote address."
 */
export function clientIdOf(headers: Headers, socketAddress: string): string {
  const first = header(headers, 'x-forwarded-for')?.split(',')[0].trim();
  if (first) return first;
  const realIp = header(headers, 'x-real-ip')?.trim();
  if (realIp) return realIp;
  return socketAddress;
}

/** Monotonic times (ms) around one exchange: the server handled the request somewhere in between. */
export interface When {
  sentAt: number;
  receivedAt: number;
}

/** The server stamps with its own clock, in whole milliseconds: this slack keeps a boundary case undecided. */
export const CLOCK_SLACK_MS = 2;

export type Place = 'inside' | 'maybe' | 'outside';

/** Where a stamp made during `stamp` lies in the window of a request handled during `at`. */
export function placeOf(stamp: When, at: When, windowMs: number): Place {
  const oldest = at.receivedAt - stamp.sentAt + CLOCK_SLACK_MS; // the greatest age the stamp can have
  const youngest = at.sentAt - stamp.receivedAt - CLOCK_SLACK_MS; // the least
  if (oldest < windowMs) return 'inside';
  if (youngest > windowMs) return 'outside';
  return 'maybe';
}

export interface Expectation {
  /** What the document demands; `either` when the uncertain times (or several instances) allow both. */
  answer: 'allowed' | 'limited' | 'either';
  /** Stamps of the client certainly in the window, and at most in the window. */
  certain: number;
  possible: number;
  /** If limited: the wait until the oldest stamp in the window leaves it, in ms, as [earliest, latest]. */
  retryAfterMs: [number, number];
}

/** "Per client identifier, the rate limiter holds the time stamps of the requests inside the window." */
export class SlidingWindow {
  private readonly stamps = new Map<string, When[]>();

  /** Counters are per instance ("not shared between server instances"): N instances hold N separate counters. */
  constructor(
    readonly windowMs: number,
    readonly maxRequests: number,
    readonly instances = 1,
  ) {}

  stampsOf(client: string): readonly When[] {
    return this.stamps.get(client) ?? [];
  }

  /**
   * "On each request, stamps outside the current window are removed before counting." `alongside`: requests of the
   * client sent at the same time as this one (a client whose replies take long sends its allowance at once), each of
   * which may have been stamped before it or after it; a recorded stamp whose answer came after this request left
   * may be either too.
   */
  expect(client: string, at: When, alongside: readonly When[] = []): Expectation {
    const recorded = this.stampsOf(client).map((s) => ({ s, place: placeOf(s, at, this.windowMs), before: s.receivedAt < at.sentAt }));
    const certainly = recorded.filter((r) => r.place === 'inside' && r.before).map((r) => r.s);
    const maybe = [...recorded.filter((r) => r.place !== 'outside').map((r) => r.s), ...alongside.filter((s) => placeOf(s, at, this.windowMs) !== 'outside')];
    const certain = certainly.length;
    const possible = maybe.length;
    // "fewer than maxRequests stamps in window -> allowed"; "maxRequests stamps in window -> limited".
    // One instance holds part of the stamps: it allows whenever all of them are fewer than maxRequests, and it
    // surely limits only when every instance can be full.
    const answer = possible < this.maxRequests ? 'allowed' : certain >= this.instances * this.maxRequests ? 'limited' : 'either';
    return { answer, certain, possible, retryAfterMs: this.retryAfter(maybe, certainly, at) };
  }

  /**
   * "Retry-After (seconds to wait, derived from when the oldest stamp in the window expires)". The oldest stamp in
   * the window is at the earliest the earliest that may be inside, at the latest the earliest that certainly is.
   */
  private retryAfter(maybe: readonly When[], certainly: readonly When[], at: When): [number, number] {
    const w = this.windowMs;
    const lo = maybe.length === 0 ? 0 : Math.max(0, Math.min(...maybe.map((s) => s.sentAt)) + w - at.receivedAt - CLOCK_SLACK_MS);
    const hi = certainly.length === 0 ? w : Math.min(w, Math.min(...certainly.map((s) => s.receivedAt)) + w - at.sentAt + CLOCK_SLACK_MS);
    return [lo, hi];
  }

  /**
   * Requests let through beyond the limit: of `allowed`, requests of the client sent at the same time and allowed (not
   * yet recorded), how many more than instances x maxRequests are certainly in one window together with the stamps
   * certainly before them. Whichever of them the server took last had all the others in its window, so it was over the
   * limit. 0 where they are not certainly within one window of each other.
   */
  excess(client: string, allowed: readonly When[]): number {
    if (allowed.length === 0) return 0;
    const hull: When = { sentAt: Math.min(...allowed.map((s) => s.sentAt)), receivedAt: Math.max(...allowed.map((s) => s.receivedAt)) };
    if (placeOf(hull, hull, this.windowMs) !== 'inside') return 0;
    return Math.max(0, this.expect(client, hull).certain + allowed.length - this.instances * this.maxRequests);
  }

  /** "stamp added; allowed" / "unchanged; limited": only an allowed request leaves a stamp. */
  record(client: string, at: When, limited: boolean): void {
    if (limited) return;
    this.stamps.set(client, [...this.stampsOf(client), at]);
  }
}
