/**
 * Reads whose answer a check needs (a control, a book to judge) are asked again after a throttle. A deployment with
 * rate limits beyond the broker operations' (U-NS-RATE-LIMITS) may throttle with a status of its own
 * (settings.refusalStatus.throttle, U-NS-THROTTLE-STATUS), which a plain refusal may share: where the profile says
 * the deployment limits requests, a refusal with that status is taken as a possible throttle and asked again.
 */
import { answerKind, answered } from '../../harness/answers.ts';
import type { Identity } from '../../harness/fixtures.ts';
import { BROKER_RATE_LEASE, takeLease, withLease } from './leases.ts';
import { keyedPacer } from './pacing.ts';
import type { Client, Reply, RequestSpec } from '../../harness/http/client.ts';
import type { UnifiedExchangeSettings } from '../../interfaces/unified-exchange/settings.ts';

const PAUSE_MS = 1100;

/** Whether an answer may be a throttle: a 429, or the profile's throttle status where it says the deployment limits requests. */
export function mayBeThrottled(r: Reply, s: Pick<UnifiedExchangeSettings, 'rateLimits' | 'refusalStatus'>): boolean {
  const kind = answerKind(r);
  return kind === 'throttled' || (s.rateLimits === 'per-uid-and-ip' && kind === 'refused' && answered(r, s.refusalStatus.throttle));
}

/**
 * Public reads are limited per IP (20 a second per operation in the reference's reading): two workers each pacing
 * theirs under 9 a second leave the operation room, so that one check's burst (the book property's) never starves
 * another check's single read of its answer.
 */
const publicPace = keyedPacer(9);

/**
 * Sends a request, and again (up to `tries` times in all, a second apart) while its answer may be a throttle. A
 * throttle that lasts is not sat out here: the client gives up on an operation (or the whole target) troubled three
 * times in a row, so a persistent one ends these tries within seconds, and the check that reads the last answer
 * through harness/answers.ts is left inconclusive, naming it.
 */
export async function sendPatiently(api: Client, request: RequestSpec, s: Pick<UnifiedExchangeSettings, 'rateLimits' | 'refusalStatus'>, tries = 3): Promise<Reply> {
  const limited = s.rateLimits === 'per-uid-and-ip' && !request.authenticate;
  if (limited) await publicPace(request.path.split('?')[0]!);
  let r = await api.send(request);
  for (let i = 1; i < tries && mayBeThrottled(r, s); i++) {
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    if (limited) await publicPace(request.path.split('?')[0]!);
    r = await api.send({ ...request, label: `${request.label ?? `${request.method} ${request.path}`} (again: it may have been throttled)` });
  }
  return r;
}

/**
 * A valid read whose refusal would fail a requirement: sent patiently, and once more after a second if it is refused
 * all the same. A profile that does not state the deployment's rate limits cannot tell its throttle from a refusal
 * (a 400 in one reading of U-NS-THROTTLE-STATUS), and the harness's own checks may have filled the second; a refusal
 * that stands is one. A conforming target answers at once and pays nothing.
 */
export async function askValid(api: Client, request: RequestSpec, s: Pick<UnifiedExchangeSettings, 'rateLimits' | 'refusalStatus'>): Promise<Reply> {
  const r = await sendPatiently(api, request, s);
  // Only a refusal is asked again: an acceptance stands, and what decides nothing is the reader's to name.
  if (answerKind(r) === 'refused') {
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    return sendPatiently(api, { ...request, label: `${request.label ?? `${request.method} ${request.path}`} (again: a refusal of a valid request may have been a throttle)` }, s);
  }
  return r;
}

/** The broker key's requests of a second are counted together (20 per UID): see leases.ts. */
export { BROKER_RATE_LEASE } from './leases.ts';

export const takeBrokerRate = (identity: Identity, what: string, waitMs = 60_000): Promise<() => void> => takeLease(identity, BROKER_RATE_LEASE, what, waitMs);
export const withBrokerRate = <T>(identity: Identity, what: string, body: () => Promise<T>, waitMs = 60_000): Promise<T> => withLease(identity, BROKER_RATE_LEASE, what, body, waitMs);
