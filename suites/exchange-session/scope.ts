import { canCancel } from './commands.ts';
import type { ExchangeSessionSettings, PoolKeyEntry } from '../../interfaces/exchange-session/settings.ts';

/** What a profile lets the exchange-session suite judge, and why the rest is not applicable. */
export interface ExchangeScope {
  operations: Record<string, string>;
  requirements: Record<string, string>;
  /** Orders may be sent at all (the profile allows writes). */
  orders: boolean;
  /** Crossing orders between two trading accounts (the full time-in-force model): the reference, or a profile that says so. */
  crossing: boolean;
}

const WRITE_REQUIREMENTS = [
  'A-NONCE-REQUIRED',
  'A-NONCE-IN-RANGE',
  'A-NONCE-GREATER',
  'A-NONCE-REUSE',
  'A-NONCE-CONCURRENT',
  'A-NONCE-ACCEPTED',
  'A-NONCE-REFUSAL-NO-EFFECT',
  'A-ORDER-ACK',
  'A-ORDER-STATUS',
  'A-TIF-GTC',
  'A-TIF-FOK',
  'A-TIF-IOC',
];

export function exchangeScope(settings: ExchangeSessionSettings, o: { writes: boolean; live: boolean; pool: readonly PoolKeyEntry[] }): ExchangeScope {
  const operations: Record<string, string> = {};
  const requirements: Record<string, string> = {};
  const na = (ids: string[], why: string) => ids.forEach((id) => (requirements[id] ??= why));
  if (!o.writes) {
    const why = 'the profile does not allow writes: no order (nor any other write) is sent';
    operations['POST /trading-api/v2/orders'] = why;
    operations['GET /trading-api/v2/orders/{orderId}'] = `${why}, so there is no order to look up`;
    na(WRITE_REQUIREMENTS, why);
  }
  if (!canCancel(settings)) {
    na(['A-TIF-GTC'], 'the profile names no way to cancel an order (settings.paths.command, or settings.order.cancelBy delete): an order that could rest is never sent');
  }
  if (!settings.loginWindowEnforced) {
    na(['A-LOGIN-ECDSA-EXPIRY-WINDOW'], 'the profile says the deployment leaves "expirationTime is 5 minutes after nonce" to the client (settings.loginWindowEnforced)');
  }
  if (settings.paths.custody === undefined) {
    na(['A-KEY-SCOPE-HMAC', 'A-KEY-SCOPE-ECDSA'], 'the profile names no custody endpoint (settings.paths.custody)');
  }
  if (o.live) {
    const has = (type: PoolKeyEntry['type'], outside = false) => o.pool.some((k) => k.type === type && Boolean(k.whitelistExcludesHarness) === outside && k.trading !== false);
    if (!has('hmac')) na(['A-LOGIN-HMAC-OK', 'A-LOGIN-HMAC-SIGNATURE', 'A-KEY-SCOPE-HMAC'], 'the profile lists no HMAC key (credentials.keys)');
    if (!has('ecdsa')) {
      na(['A-LOGIN-ECDSA-OK', 'A-LOGIN-ECDSA-SIGNATURE', 'A-LOGIN-ECDSA-USERID', 'A-LOGIN-ECDSA-EXPIRED', 'A-LOGIN-ECDSA-EXPIRY-WINDOW', 'A-KEY-SCOPE-ECDSA'], 'the profile lists no ECDSA key (credentials.keys)');
    }
    if (!has('hmac', true) && !has('ecdsa', true)) na(['A-LOGIN-WHITELIST'], 'no key of the profile has a whitelist that leaves the harness out (whitelistExcludesHarness)');
  }
  // Crossing orders may rest: only where the profile gives a way to cancel what is left, and against a live target only
  // where it says the market is the harness's alone.
  const crossing = o.writes && canCancel(settings) && (!o.live || settings.order.crossingOrders);
  return { operations, requirements, orders: o.writes, crossing };
}
