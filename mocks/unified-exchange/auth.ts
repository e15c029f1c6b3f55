// The credentials and permissions every private request passes. "Names of the request headers carrying key,
// signature, timestamp and passphrase, and the signing algorithm: not shown": the reference takes the public
// exchange's (U-NS-SIGNING): ACCESS-KEY, ACCESS-SIGN = base64(HMAC-SHA256(secret, timestamp + METHOD + path +
// ("?" + query when there is one) + body)), ACCESS-TIMESTAMP (Unix ms), ACCESS-PASSPHRASE; settings.signing and the
// readings name other headers, hex, the sorted query (U-NS-SIGNED-QUERY) and the window (U-NS-TIMESTAMP-WINDOW).
// Permissions follow the spec's x-refused-roles (readKey: trading permission; tradeKey: copy-trading permission;
// nonBrokerKey: a broker master account) and the readings U-NS-LOOKUP-PERMISSION, U-NS-LEAD-TRADER and
// U-NS-ACCOUNT-PERMISSIONS.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Choices, RoutingFault, RoutingReading } from './choices.ts';
import { refused, type Caller, type Outcome } from './contract.ts';
import type { Keyring } from './accounts.ts';
import type { Op } from './operations.ts';
import { CODES } from './replies.ts';


/** What the signature covers, as the request carried it. */
export interface SignedRequest {
  method: string;
  /** The path as sent (not decoded). */
  path: string;
  /** The query string as sent, without "?" ("" when there is none). */
  query: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

export type Authenticated = { caller: Caller } | { refusal: Outcome };

export interface Auth {
  /** Whether the request carries any of the four credential headers (U-NS-PUBLIC-WITH-CREDENTIALS). */
  given(req: SignedRequest): boolean;
  authenticate(req: SignedRequest): Authenticated;
  /** The refusal of a valid key for the operation's permission or account type, if any. */
  permit(op: Op, caller: Caller): Outcome | undefined;
}

export function auth(c: Choices, keys: Keyring, on: RoutingFault, reading: RoutingReading, now: () => number): Auth {
  const h = c.signing.headers;
  const header = (req: SignedRequest, name: string): string | undefined => {
    const v = req.headers[name.toLowerCase()];
    // An empty header is a header left out.
    return (Array.isArray(v) ? v[0] : v) || undefined;
  };
  const deny = (msg: string, code: string) => ({ refusal: refused('auth', msg, code) });

  function authenticate(req: SignedRequest): Authenticated {
    const apiKey = header(req, h.key);
    const sign = header(req, h.sign);
    const timestamp = header(req, h.timestamp);
    const passphrase = header(req, h.passphrase);
    // The fault: no key, no lookup, no signature check: the default account.
    if (!apiKey && on('missing-key-default-account')) return { caller: keys.fallback() };
    // The fault: a passphrase left out is not missed (one given is still compared).
    const passphraseNeeded = !on('missing-passphrase-accepted');
    if (!apiKey || !sign || !timestamp || (passphraseNeeded && !passphrase)) {
      const missing = [[h.key, apiKey], [h.sign, sign], [h.timestamp, timestamp], [h.passphrase, passphraseNeeded ? passphrase : '-']].filter(([, v]) => !v).map(([n]) => n);
      return deny(`Missing credentials: ${missing.join(', ')}.`, CODES.authMissing);
    }
    if (!/^\d{1,16}$/.test(timestamp)) return deny(`${h.timestamp} must be Unix milliseconds.`, CODES.authTimestamp);
    if (c.signing.windowMs > 0 && Math.abs(now() - Number(timestamp)) > c.signing.windowMs) {
      return deny(`The request timestamp lies more than ${c.signing.windowMs} ms from the server time.`, CODES.authTimestamp);
    }
    const issued = keys.key(apiKey);
    if (!issued) {
      // The fault: an unknown key is served as account A.
      return on('unknown-key-accepted') ? { caller: keys.fallback() } : deny('The API key is not valid.', CODES.authKey);
    }
    // The fault: a passphrase given is never compared.
    if (passphrase !== undefined && !on('wrong-passphrase-accepted') && !same(passphrase, issued.passphrase)) return deny('The passphrase is not that of the API key.', CODES.authPassphrase);
    // The fault: any signature is taken.
    if (!on('any-signature-accepted') && !signatures(req, timestamp, issued.secret).some((expected) => same(sign, expected))) {
      return deny('The signature does not match the request.', CODES.authSignature);
    }
    return { caller: issued.caller };
  }

  /** The signatures a correct client may have sent: one, or two spellings of the sorted query. */
  function signatures(req: SignedRequest, timestamp: string, secret: string): string[] {
    const queries = c.signing.query === 'sorted' ? sortedQueries(req.query) : [req.query];
    // The fault: a signature over the text without the query is taken too.
    if (on('query-not-signed') && !queries.includes('')) queries.push('');
    return queries.map((q) => {
      const text = `${timestamp}${req.method.toUpperCase()}${req.path}${q ? `?${q}` : ''}${req.body}`;
      return createHmac('sha256', secret).update(text).digest(c.signing.encoding);
    });
  }

  function permit(op: Op, caller: Caller): Outcome | undefined {
    const roles = new Set(op.refusedRoles);
    const p = caller.permissions;
    if (roles.has('nonBrokerKey')) {
      // The faults: any master account passes; or a sub-account passes on its master's user type.
      const master = caller.account.masterUid ? keys.account(caller.account.masterUid) : undefined;
      const broker = on('broker-open-to-non-broker') ? !caller.account.masterUid : on('broker-open-to-broker-subs') ? Boolean((master ?? caller.account).broker) : caller.account.broker && !caller.account.masterUid;
      if (!broker) return refused('permission', 'The broker operations serve master accounts of the broker user type only.', CODES.permission);
    }
    if (roles.has('tradeKey')) {
      // The fault: trading permission is taken for copy-trading permission.
      const copy = on('copy-open-to-trade-key') ? p.trade : p.copy;
      if (!copy) return refused('permission', 'The key has no futures copy-trading permission.', CODES.permission);
      if (reading('U-NS-LEAD-TRADER') === 'lead-traders-only' && !caller.account.leadTrader && !on('copy-open-to-trade-key')) {
        return refused('permission', 'The account is not a lead trader.', CODES.permission);
      }
    } else if (roles.has('readKey') || (op.id === 'getOrder' && reading('U-NS-LOOKUP-PERMISSION') === 'trading-permission')) {
      // The fault: the trading permission is never checked.
      if (!p.trade && !on('read-key-trades')) return refused('permission', 'The key has no trading permission.', CODES.permission);
    }
    if (op.fundsWrite && c.permissions === 'write-permissions' && !p.trade) return refused('permission', 'The key has read permission only; this operation needs a write permission.', CODES.permission);
    return undefined;
  }

  return {
    given: (req) => [h.key, h.sign, h.timestamp, h.passphrase].some((n) => header(req, n) !== undefined),
    authenticate,
    permit,
  };
}

/**
 * U-NS-SIGNED-QUERY sorted-query: the parameters sorted by name (stable for repeated names). How a sorted query is
 * encoded again differs between frameworks; three spellings are taken, as a client of any of them is a correct client
 * of such a server: the pairs as sent, encodeURIComponent's, and the form encoding of URLSearchParams (they differ
 * only for spaces and a few marks).
 */
export function sortedQueries(query: string): string[] {
  if (!query) return [''];
  const byName = <T>(name: (x: T) => string) => (a: T, b: T) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);
  const asSent = query.split('&').sort(byName((pair) => pair.split('=')[0]!)).join('&');
  const pairs = [...new URLSearchParams(query)].sort(byName(([k]) => k));
  const component = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const form = new URLSearchParams(pairs).toString();
  return [...new Set([asSent, component, form])];
}

/** Compares secrets in constant time (their hashes, so that lengths do not matter either). */
function same(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
