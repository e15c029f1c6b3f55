// Request rates. The document gives one limit: "request rate | broker operations | 20 requests per second per UID".
// What it counts is open: each broker operation apart or both together (U-NS-BROKER-RATE-SCOPE, per-operation by
// default, as the public exchange gives every endpoint its own limit), and how a second is counted (U-NS-BROKER-RATE-
// WINDOW: whole seconds of the server clock, every request counted, throttled ones too; or a sliding 1000 ms window
// of accepted requests). "General request rate limits: not shown": none by default; U-NS-RATE-LIMITS per-uid-and-ip
// gives each trading operation 10 a second per UID, each other private one 20 per UID and each public one 20 per IP
// (whole seconds).
import type { Choices, RoutingFault, RoutingReading } from './choices.ts';
import type { Op } from './operations.ts';

export const BROKER_PER_SECOND = 20;
const TRADING_PER_SECOND = 10;
const OTHER_PER_SECOND = 20;

export interface Limits {
  /** Counts the request; true when it is beyond its limit (throttled). */
  throttled(op: Op, uid: string | undefined, ip: string, apiKey?: string): boolean;
}

export function limits(c: Choices, reading: RoutingReading, on: RoutingFault, now: () => number): Limits {
  const sliding = reading('U-NS-BROKER-RATE-WINDOW') === 'sliding-second';
  // The fault: one request too many a second.
  // broker-rate-too-low: half the limit.
  const brokerLimit = on('broker-rate-off-by-one') ? BROKER_PER_SECOND + 1 : on('broker-rate-too-low') ? BROKER_PER_SECOND / 2 : BROKER_PER_SECOND;
  const seconds = new Map<string, { second: number; count: number }>();
  const windows = new Map<string, number[]>();

  /** Whole seconds: every request of the second counts, the throttled ones too. */
  function fixed(key: string, limit: number): boolean {
    const second = Math.floor(now() / 1000);
    const slot = seconds.get(key);
    const entry = slot && slot.second === second ? slot : { second, count: 0 };
    entry.count += 1;
    seconds.set(key, entry);
    return entry.count > limit;
  }

  /** A sliding window: at most `limit` accepted in any 1000 ms; a throttled request is not counted. */
  function slide(key: string, limit: number): boolean {
    const t = now();
    const stamps = (windows.get(key) ?? []).filter((s) => s > t - 1000);
    const over = stamps.length >= limit;
    if (!over) stamps.push(t);
    windows.set(key, stamps);
    return over;
  }

  return {
    throttled(op, uid, ip, apiKey) {
      if (op.broker && uid !== undefined) {
        // broker-rate-unlimited: no limit of any kind reaches the broker operations.
        if (on('broker-rate-unlimited')) return false;
        // broker-rate-per-key: each key of the UID gets 20 of its own; broker-rate-global: all UIDs share one 20.
        const who = on('broker-rate-global') ? 'every UID' : on('broker-rate-per-key') ? `key ${apiKey}` : uid;
        const key = `broker ${who}${c.brokerScope === 'per-operation' ? ` ${op.id}` : ''}`;
        return sliding ? slide(key, brokerLimit) : fixed(key, brokerLimit);
      }
      if (c.rateLimits !== 'per-uid-and-ip') return false;
      if (op.public) return fixed(`ip ${ip} ${op.id}`, OTHER_PER_SECOND);
      if (uid === undefined) return false;
      return fixed(`uid ${uid} ${op.id}`, op.trading ? TRADING_PER_SECOND : OTHER_PER_SECOND);
    },
  };
}
