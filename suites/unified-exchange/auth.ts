/**
 * How the harness authenticates to the unified exchange (U-NS-SIGNING, settings.signing): every private request
 * carries the key, a signature, a timestamp and the passphrase, in the headers the profile names. The signature is
 * HMAC-SHA256, keyed with the secret, over timestamp + METHOD + path + ("?" + query when there is one) + body, in the
 * profile's encoding; the path is the path as sent (under the base URL's prefix, at the target's relocated paths), the
 * query as sent or sorted (U-NS-SIGNED-QUERY). Keys are per role (`<role>_apiKey`, `<role>_secret`,
 * `<role>_passphrase`); `RequestSpec.credential` names the role, `trade` by default, `read` where the profile holds no trading key.
 */
import type { AuthenticationContext, RequestSpec } from '../../harness/http/client.ts';
import { targetUrl } from '../../harness/http/client.ts';
import type { Secrets } from '../../harness/secrets.ts';
import { hmacSign } from '../../harness/signing.ts';
import type { KeyRole, UnifiedExchangeSettings } from '../../interfaces/unified-exchange/settings.ts';

export type Signing = UnifiedExchangeSettings['signing'];
type HeaderPart = keyof Signing['headers'];

/** The key header the spec's security scheme names: a generic check that leaves it out or makes it up uses this name. */
export const SPEC_KEY_HEADER = 'ACCESS-KEY';

/** Whether the run holds a key of the role (the profile names it; against the reference, generated if unset). */
export const hasRole = (secrets: Secrets, role: string): boolean => secrets.has(`${role}_apiKey`) && secrets.has(`${role}_secret`) && secrets.has(`${role}_passphrase`);

/**
 * The key a request that names none is signed with: the trading key, else the read-only one (a profile may hold only
 * a read-only key; then every check that needs trading permission is not applicable: scope.ts).
 */
export const mainRole = (secrets: Secrets): KeyRole => (hasRole(secrets, 'trade') ? 'trade' : 'read');

/** The settings' signing, with the public exchange's defaults where a profile (or a test's settings) leaves them out. */
export function signingOf(settings: Partial<UnifiedExchangeSettings> | undefined): Signing {
  const s = settings?.signing;
  return {
    headers: { key: 'ACCESS-KEY', sign: 'ACCESS-SIGN', timestamp: 'ACCESS-TIMESTAMP', passphrase: 'ACCESS-PASSPHRASE', ...(s?.headers ?? {}) },
    encoding: s?.encoding ?? 'base64',
    query: s?.query ?? 'as-sent',
    timestampWindowMs: s?.timestampWindowMs ?? 30000,
  };
}

/** The query text the signature covers: as the request line carries it, or its parameters sorted by name. */
export function signedQuery(search: string, how: Signing['query']): string {
  const raw = search.replace(/^\?/, '');
  if (!raw || how === 'as-sent') return raw;
  // Sorted by name (stable for repeated names), each pair kept as sent.
  return raw
    .split('&')
    .map((pair, i) => ({ pair, name: pair.split('=')[0], i }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.i - b.i))
    .map((p) => p.pair)
    .join('&');
}

/** The text a request's signature covers. `pathAsSent` is the URL path with the base URL's prefix. */
export function prehash(o: { timestamp: string; method: string; pathAsSent: string; search: string; body: string; query: Signing['query'] }): string {
  const q = signedQuery(o.search, o.query);
  return `${o.timestamp}${o.method.toUpperCase()}${o.pathAsSent}${q ? `?${q}` : ''}${o.body}`;
}

export const bodyOf = (r: Pick<RequestSpec, 'json' | 'body'>): string => (r.json !== undefined ? JSON.stringify(r.json) : (r.body ?? ''));

export interface SignParts {
  /** The timestamp signed (and sent, unless the check gives its own header). */
  timestamp: string;
  secret: string;
  /** What is signed instead of the request as sent (a signature made before the request was changed). */
  signed?: { method?: string; path?: string; body?: string; timestamp?: string };
}

/** The signature of a request as it will be sent (the path and query as the client sends them). */
export function signatureOf(request: RequestSpec, signing: Signing, baseUrl: string, o: SignParts): string {
  const as = o.signed ?? {};
  const url = targetUrl(baseUrl, as.path ?? request.path);
  const message = prehash({ timestamp: as.timestamp ?? o.timestamp, method: as.method ?? request.method, pathAsSent: url.pathname, search: url.search, body: as.body ?? bodyOf(request), query: signing.query });
  return hmacSign({ secret: o.secret, message, hash: 'sha256', encoding: signing.encoding });
}

/** The given header of a part, in any letter case; the spec's key header stands for the profile's key header. */
function givenName(given: Record<string, string | undefined>, signing: Signing, part: HeaderPart): string | undefined {
  const names = [signing.headers[part], ...(part === 'key' ? [SPEC_KEY_HEADER] : [])].map((n) => n.toLowerCase());
  return Object.keys(given).find((h) => names.includes(h.toLowerCase()));
}

/**
 * The suite's authentication step: the four headers of the request's role, signed over the request as sent. A header
 * a check gives itself wins (made up, or undefined to leave it out), so that it is the only thing wrong; a timestamp
 * the check gives is the one signed, so that a stale one is otherwise correctly signed. Where the profile names
 * another key header than the spec's, the spec's name given by a generic check stands for it.
 */
export function authenticate(request: RequestSpec, secrets: Secrets, ctx: AuthenticationContext): RequestSpec {
  const signing = signingOf(ctx.settings);
  const role = request.credential ?? mainRole(secrets);
  if (!hasRole(secrets, role)) throw new Error(`harness: a unified-exchange request names the key ${role}, which this run's credentials do not hold`);
  const given: Record<string, string | undefined> = { ...(request.headers ?? {}) };
  const out: Record<string, string | undefined> = {};
  const parts: HeaderPart[] = ['key', 'sign', 'timestamp', 'passphrase'];
  const givenOf = Object.fromEntries(parts.map((p) => [p, givenName(given, signing, p)])) as Record<HeaderPart, string | undefined>;
  // The spec's key header, given where the profile's differs: renamed, so that the profile's header carries the check's value.
  const keyGiven = givenOf.key;
  if (keyGiven && keyGiven.toLowerCase() !== signing.headers.key.toLowerCase()) {
    given[signing.headers.key] = given[keyGiven];
    delete given[keyGiven];
    givenOf.key = signing.headers.key;
  }
  const timestamp = (givenOf.timestamp && given[givenOf.timestamp]) || String(Date.now());
  const signature = signatureOf(request, signing, ctx.baseUrl, { timestamp, secret: secrets.get(`${role}_secret`) });
  secrets.add(`${role}_signature`, signature);
  const values: Record<HeaderPart, string> = { key: secrets.get(`${role}_apiKey`), sign: signature, timestamp, passphrase: secrets.get(`${role}_passphrase`) };
  for (const p of parts) if (!givenOf[p]) out[signing.headers[p]] = values[p];
  return { ...request, headers: { ...out, ...given } };
}

export interface ForgedRequest {
  /** Sign with this key, secret and passphrase instead of the role's own (made-up ones, another role's). */
  apiKey?: string;
  secret?: string;
  passphrase?: string;
  timestamp?: string;
  /** Sign something other than what is sent (the signature made before the request was changed). */
  signed?: SignParts['signed'];
}

/**
 * A request signed as a check asks (another secret, another passphrase, an old timestamp, a signature over something
 * else), every header given, sent without the authentication step: what is wrong with it is exactly what the check
 * made wrong. Made-up values are registered as harmless, the signature as a secret of the role.
 */
export function forged(request: RequestSpec, secrets: Secrets, ctx: Pick<AuthenticationContext, 'baseUrl' | 'settings'>, o: ForgedRequest = {}): RequestSpec {
  const signing = signingOf(ctx.settings);
  const role = request.credential ?? mainRole(secrets);
  const timestamp = o.timestamp ?? String(Date.now());
  const secret = o.secret ?? secrets.get(`${role}_secret`);
  const signature = signatureOf(request, signing, ctx.baseUrl, { timestamp, secret, signed: o.signed });
  secrets.add(`${role}_signature`, signature);
  for (const v of [o.apiKey, o.passphrase]) if (v !== undefined) secrets.harmless(v);
  return {
    ...request,
    authenticate: false,
    headers: {
      ...(request.headers ?? {}),
      [signing.headers.key]: o.apiKey ?? secrets.get(`${role}_apiKey`),
      [signing.headers.sign]: signature,
      [signing.headers.timestamp]: timestamp,
      [signing.headers.passphrase]: o.passphrase ?? secrets.get(`${role}_passphrase`),
    },
  };
}

/** The header that carries one part, as the profile names it. */
export const headerOf = (settings: unknown, part: HeaderPart): string => signingOf(settings as Partial<UnifiedExchangeSettings>).headers[part];
