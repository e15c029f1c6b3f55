/**
 * Reads whose answer a check needs (a control, a book to judge) are asked again after a throttle. A deployment with
 * rate limits beyond the broker operations' (U-NS-RATE-LIMITS) may throttle with a status of its own
 * (settings.refusalStatus.throttle, U-NS-THROTTLE-STATUS), which a plain refusal may share: where the profile says
 * the deployment limits requests, a refusal with that status is taken as a possible throttle and asked again.
 */
import { isRefused, isThrottled } from '../../harness/answers.ts';
import { Inconclusive } from '../../harness/verdicts.ts';
import type { Identity } from '../../harness/fixtures.ts';
import type { Client, Reply, RequestSpec } from '../../harness/http/client.ts';
import type { UnifiedExchangeSettings } from '../../interfaces/unified-exchange/settings.ts';

const PAUSE_MS = 1100;

/** Whether an answer may be a throttle: a 429, or the profile's throttle status where it says the deployment limits requests. */
export function mayBeThrottled(r: Reply, s: Pick<UnifiedExchangeSettings, 'rateLimits' | 'refusalStatus'>): boolean {
  return isThrottled(r) || (s.rateLimits === 'per-uid-and-ip' && isRefused(r) && r.status === s.refusalStatus.throttle);
}

/** Sends a request, and again (up to `tries` times in all, a second apart) while its answer may be a throttle. */
export async function sendPatiently(api: Client, request: RequestSpec, s: Pick<UnifiedExchangeSettings, 'rateLimits' | 'refusalStatus'>, tries = 3): Promise<Reply> {
  let r = await api.send(request);
  for (let i = 1; i < tries && mayBeThrottled(r, s); i++) {
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    r = await api.send({ ...request, label: `${request.label ?? `${request.method} ${request.path}`} (again: it may have been throttled)` });
  }
  return r;
}

/**
 * The broker key's requests of a second are counted together (20 per UID): the check that fills a second on purpose
 * (U-LIMIT-BROKER-RATE) holds this lease, and so does every other check while it sends the broker key's requests, so
 * that none of them is throttled by another's burst. Released at once by the function returned.
 */
export const BROKER_RATE_LEASE = 'unified-exchange-broker-rate';

export async function takeBrokerRate(identity: Identity, what: string, waitMs = 60_000): Promise<() => void> {
  const lease = await identity.lease(BROKER_RATE_LEASE, [0], waitMs);
  if (!lease) throw new Inconclusive(`${what}: the broker key's requests stayed in another test's hands for ${waitMs / 1000} s`);
  let released = false;
  return () => {
    if (!released) lease.release();
    released = true;
  };
}
