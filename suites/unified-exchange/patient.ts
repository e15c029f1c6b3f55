/**
 * Reads whose answer a check needs (a control, a book to judge) are asked again after a throttle. A deployment with
 * rate limits beyond the broker operations' (U-NS-RATE-LIMITS) may throttle with a status of its own
 * (settings.refusalStatus.throttle, U-NS-THROTTLE-STATUS), which a plain refusal may share: where the profile says
 * the deployment limits requests, a refusal with that status is taken as a possible throttle and asked again.
 */
import { isRefused, isThrottled } from '../../harness/answers.ts';
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
