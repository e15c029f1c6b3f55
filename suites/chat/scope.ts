/**
 * What a chat profile lets the suite assert. Both the checks and `--list` (interface.ts) decide from here, so the
 * two never disagree.
 *
 * "In development mode localhost connections are allowed" has two readings: the client identifier the limiter
 * derives is a loopback address (then a forwarded loopback address is exempt too), or the connection itself comes
 * from loopback (then every request over it is exempt, whatever X-Forwarded-For says). They agree that a header-less
 * request over a loopback connection is never limited, and that away from loopback the normal rules apply; over
 * loopback they disagree on every other request, so nothing else about limits is asserted there.
 */
import type { ChatSettings } from '../../harness/profile/types.ts';

/** Checks that count requests per client: they need the harness's client addresses to reach the limiter. */
export const COUNTING = [
  'E-LIMIT-ALLOWED', 'E-LIMIT-429', 'E-PER-INSTANCE', 'E-WINDOW-SLIDING', 'E-PRUNE-BEFORE-COUNT', 'E-LIMITED-NOT-RECORDED',
  'E-429-BODY-ERROR', 'E-429-BODY-MESSAGE', 'E-429-MESSAGE-SPANISH', 'E-429-RETRYAFTER-BODY', 'E-429-RETRY-AFTER-HEADER', 'E-429-REMAINING-ZERO',
  'E-PER-CLIENT', 'E-CLIENT-ID-XFF-FIRST', 'E-CLIENT-ID-XREALIP', 'E-CLIENT-ID-SOCKET', 'E-ADVISORY-XFF-FORGEABLE',
];
export const DEV = 'E-DEV-LOCALHOST-UNLIMITED';

/**
 * Behind a proxy that rewrites X-Forwarded-For every request of the run reaches the limiter as one client, so checks
 * running side by side would spend each other's allowance: counting cannot be judged, only the rest.
 */
export const SHARED_COUNTER =
  'the profile says a proxy rewrites X-Forwarded-For (clientAddressesPreserved: false): every request of the run shares one counter, and checks running side by side would spend each other\'s allowance';

export const DEV_OVER_LOOPBACK =
  'development mode over a loopback connection: the document allows localhost connections, and its two readings (a loopback client identifier, or any request over a loopback connection) disagree on every request but a header-less one, so nothing else is asserted about limits here';

/** Whether a base URL's host is a loopback address: 127.0.0.0/8, ::1 (also IPv4-mapped) or the name localhost. */
export function isLoopbackUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  // The URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
  const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(host);
  return Boolean(mapped && parseInt(mapped[1], 16) >> 8 === 127);
}

export interface ChatScope {
  /** Why the counting checks do not apply, when they do not. */
  counting?: string;
  /** Why E-DEV-LOCALHOST-UNLIMITED does not apply, when it does not. */
  dev?: string;
}

/** `baseUrl`: where the harness reaches the target (the embedded reference listens on 127.0.0.1). */
export function chatScope(settings: ChatSettings, baseUrl: string): ChatScope {
  if (!settings.clientAddressesPreserved) {
    return {
      counting: SHARED_COUNTER,
      dev: 'the profile says a proxy rewrites X-Forwarded-For (clientAddressesPreserved: false): the limiter sees the proxy\'s connection and the address it writes, not the harness\'s own connection',
    };
  }
  if (!settings.developmentMode) return { dev: 'the profile says the target does not run in development mode (developmentMode: false)' };
  if (!isLoopbackUrl(baseUrl)) {
    return { dev: `the harness reaches the target at ${baseUrl}, not over loopback: both readings of development mode then count its requests like any client's, and the normal checks apply` };
  }
  return { counting: DEV_OVER_LOOPBACK };
}

/** Requirement -> reason, for everything the scope rules out. */
export function notApplicableIn(scope: ChatScope): Record<string, string> {
  const out: Record<string, string> = {};
  if (scope.counting) for (const id of COUNTING) out[id] = scope.counting;
  if (scope.dev) out[DEV] = scope.dev;
  return out;
}
