// What the routing does where the document is silent, settled once at start from the profile's settings and the
// readings the reference was started in. A reading other than the default wins (it may be asked for without the
// settings a tester would state: `--readings ... --unstated`); in the default reading the settings decide, so that a
// profile stating a value (a 60 s window, other header names) is followed too. Settings may lack members when the
// server is started by hand: every one has the profile's default here.
import type { UnifiedExchangeSettings } from '../../interfaces/unified-exchange/settings.ts';
import { PATH_SETTINGS } from '../../interfaces/unified-exchange/definition.ts';
import type { RefusalKind } from './contract.ts';
import { readingSwitch } from '../readings.ts';
import { COPY_PATHS, ORDER_DETAIL_PATH, X_API_HEADERS, routingReadings, type routingFaults } from './routing/catalogue.ts';

/** The routing's readings, typed by its own catalogue (the server's switch over the whole catalogue fits it). */
export type RoutingReading = ReturnType<typeof readingSwitch<typeof routingReadings>>;

/** The routing's fault switch, typed by its own catalogue. */
export type RoutingFault = (name: (typeof routingFaults)[number]['name']) => boolean;

export interface Choices {
  signing: {
    headers: { key: string; sign: string; timestamp: string; passphrase: string };
    encoding: 'base64' | 'hex';
    query: 'as-sent' | 'sorted';
    /** 0: only the timestamp's form is checked. */
    windowMs: number;
  };
  /** write-permissions: funds, earn, loan and P2P writes need a key with more than read permission. */
  permissions: 'key-only' | 'write-permissions';
  envelope: 'code-00000' | 'http-status-only';
  /** The status of each kind of refusal; `not-found` (a record the account does not have) is a state refusal. */
  status: Record<Exclude<RefusalKind, 'not-found'>, number>;
  rateLimits: 'none' | 'per-uid-and-ip';
  brokerScope: 'per-operation' | 'shared';
  unlistedCategory: 'refused' | 'empty';
  /** The spec's path -> the path served, for the four paths the document does not show. */
  paths: Record<string, string>;
}

type Settings = Partial<UnifiedExchangeSettings> | undefined;

export function choices(settings: Settings, reading: RoutingReading): Choices {
  const s = (settings ?? {}) as Partial<UnifiedExchangeSettings>;
  const signing = s.signing ?? ({} as Partial<UnifiedExchangeSettings['signing']>);
  const given = { key: 'ACCESS-KEY', sign: 'ACCESS-SIGN', timestamp: 'ACCESS-TIMESTAMP', passphrase: 'ACCESS-PASSPHRASE', ...(signing.headers ?? {}) };
  const how = reading('U-NS-SIGNING');
  const window = reading('U-NS-TIMESTAMP-WINDOW');
  const refusal: Partial<UnifiedExchangeSettings['refusalStatus']> = s.refusalStatus ?? {};
  const status = (point: Parameters<RoutingReading>[0], byReading: Record<string, number>, stated: number | undefined, fallback: number) =>
    byReading[reading(point) as string] ?? stated ?? fallback;

  const statedPaths: Partial<Record<string, string>> = s.paths ?? {};
  const lookupPath = reading('U-NS-ORDER-LOOKUP-PATH') === 'order-detail-query' ? ORDER_DETAIL_PATH : statedPaths.orderInfo;
  const copy: Partial<Record<string, string>> = reading('U-NS-COPY-PATHS') === 'copy-paths' ? COPY_PATHS : statedPaths;
  const served: Record<string, string | undefined> = { orderInfo: lookupPath, copyTradingPairs: copy.copyTradingPairs, copyMaxTransferable: copy.copyMaxTransferable, copyTransfer: copy.copyTransfer };

  return {
    signing: {
      headers: how === 'x-api-headers-hex' ? { ...X_API_HEADERS } : given,
      encoding: how === 'access-hmac-sha256-base64' ? (signing.encoding ?? 'base64') : 'hex',
      query: reading('U-NS-SIGNED-QUERY') === 'sorted-query' ? 'sorted' : (signing.query ?? 'as-sent'),
      windowMs: window === 'unchecked' ? 0 : window === 'five-minutes' ? 300_000 : (signing.timestampWindowMs ?? 30_000),
    },
    permissions: reading('U-NS-ACCOUNT-PERMISSIONS') === 'write-permissions' ? 'write-permissions' : (s.permissions ?? 'key-only'),
    envelope: reading('U-NS-ENVELOPE') === 'http-status-only' ? 'http-status-only' : (s.envelope ?? 'code-00000'),
    status: {
      auth: status('U-NS-AUTH-STATUS', { 'bad-request-400': 400, 'forbidden-403': 403 }, refusal.auth, 401),
      permission: status('U-NS-PERMISSION-STATUS', { 'bad-request-400': 400, 'unauthorized-401': 401 }, refusal.permission, 403),
      validation: status('U-NS-VALIDATION-STATUS', { 'unprocessable-422': 422 }, refusal.validation, 400),
      // conflict-409 has a status per cause (replies.ts); this is the default reading's.
      state: status('U-NS-STATE-STATUS', {}, refusal.state, 400),
      throttle: status('U-NS-THROTTLE-STATUS', { 'bad-request-with-code': 400 }, refusal.throttle, 429),
    },
    rateLimits: reading('U-NS-RATE-LIMITS') === 'per-uid-and-ip' ? 'per-uid-and-ip' : (s.rateLimits ?? 'none'),
    brokerScope: reading('U-NS-BROKER-RATE-SCOPE') === 'shared' ? 'shared' : (s.brokerRate?.scope ?? 'per-operation'),
    unlistedCategory: reading('U-NS-UNLISTED-CATEGORY') === 'empty' ? 'empty' : (s.unlistedCategory ?? 'refused'),
    paths: Object.fromEntries(Object.entries(PATH_SETTINGS).map(([specPath, setting]) => [specPath, served[setting] ?? specPath])),
  };
}
