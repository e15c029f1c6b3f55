/**
 * Broker requests placed on the server's clock (server-clock.ts): each is sent, and the server may have seen it
 * between its sending and its answer, widened by how far the clock's reading may be off. The broker limit's checks
 * judge whole seconds of that clock, so they hold a request back rather than let it straddle the start of one.
 */
import type { Client, Reply } from '../../harness/http/client.ts';
import type { KeyRole } from '../../interfaces/unified-exchange/settings.ts';
import type { Clock } from './server-clock.ts';

export interface Timed {
  r: Reply;
  /** The earliest and the latest moment of the server's clock at which the server may have seen the request. */
  from: number;
  to: number;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Broker sub-list requests (`path`) on the server's clock, and the boundary wait sized by the last round trip. */
export function brokerTimer(api: Client, path: string, { offset, slack }: Clock) {
  let roundTrip = 2 * slack;
  return {
    /**
     * Sends the request with `credential`'s key and places it on the server's clock. `provokes`: the request is sent to
     * find the limit, so a throttle is the API's answer (not the environment's trouble), and it is not sent again
     * after a Retry-After (a second try would land in another window).
     */
    async send(credential: KeyRole, label: string, provokes = false): Promise<Timed> {
      const t0 = Date.now();
      const r = await api.send({ method: 'GET', path, authenticate: true, credential, label, ...(provokes ? { provokesLimit: true } : {}) });
      const t1 = Date.now();
      roundTrip = t1 - t0;
      return { r, from: t0 + offset - slack, to: t1 + offset + slack };
    },
    /** The server's clock now, at its earliest. */
    now: () => Date.now() + offset - slack,
    /**
     * Holds the next request until just after a whole second of the server's clock starts, if it might straddle
     * that start: a whole second then holds whole requests only. `spanMs` is how long what follows takes at most.
     */
    async clearOfSecondBoundary(spanMs = 2 * roundTrip): Promise<void> {
      const now = Date.now() + offset;
      // The first boundary the request might see: at or after the earliest the server's clock may read now.
      const boundary = Math.ceil((now - slack) / 1000) * 1000;
      if (boundary <= now + spanMs + slack) await sleep(boundary + slack + 1 - now);
    },
    /** The round trip of the last request. */
    roundTrip: () => roundTrip,
  };
}
