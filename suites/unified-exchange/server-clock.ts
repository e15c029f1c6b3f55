/**
 * The server's clock, read from the public time: its offset from the harness's clock, to within half the fastest of
 * three round trips. Checks that place requests on the server's seconds (the broker limit) or ask for records since a
 * moment (the paged lists) use it, so that a harness clock a few seconds off does not move their windows.
 */
import { judged } from '../../harness/answers.ts';
import type { Client } from '../../harness/http/client.ts';
import type { KeyRole } from '../../interfaces/unified-exchange/settings.ts';

export interface Clock {
  /** Server time minus the harness's, in ms, and how far it may be off. */
  offset: number;
  slack: number;
}

/**
 * Unsigned, or signed with `credential` where an unsigned read is refused (a deployment that asks for credentials).
 * Undefined where no read carried a serverTime; a throttle or a server error is thrown (harness/answers.ts), never
 * read as "no server time".
 */
export async function serverClock(api: Client, credential: KeyRole): Promise<Clock | undefined> {
  let best: Clock | undefined;
  let signed = false;
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    const label = "the server time, to place requests on the server's clock";
    const r = await api.send({ method: 'GET', path: '/api/v3/public/time', ...(signed ? { authenticate: true, credential } : {}), label });
    const kind = judged(r, label);
    if (kind === 'refused' && !signed) {
      signed = true;
      i--;
      continue;
    }
    const t1 = Date.now();
    const serverTime = Number((r.json as { data?: { serverTime?: unknown } } | undefined)?.data?.serverTime);
    if (kind === 'refused' || !Number.isFinite(serverTime)) continue;
    const clock = { offset: serverTime - (t0 + t1) / 2, slack: (t1 - t0) / 2 + 1 };
    if (!best || clock.slack < best.slack) best = clock;
  }
  return best;
}
