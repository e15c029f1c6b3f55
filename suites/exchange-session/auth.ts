/**
 * How the harness authenticates to Interface A: the two signed logins, the session token on every authenticated
 * request, BX-NONCE on every authenticated write (and, where the profile says so, the public exchange's write
 * signature). Keys live in the run's secrets under `<key>_publicKey`, `<key>_secret` (HMAC), `<key>_privateKey` and
 * `<key>_metadata` (ECDSA); everything derived from them (signatures, tokens, authorizers) is registered as a secret
 * before a request carrying it is sent.
 */
import { Inconclusive } from '../../harness/verdicts.ts';
import { answered, isAccepted, refused } from '../../harness/answers.ts';
import { notTheApi } from '../../harness/probe.ts';
import type { AuthenticationContext, Reply, RequestSpec } from '../../harness/http/client.ts';
import { targetUrl } from '../../harness/http/client.ts';
import type { Secrets } from '../../harness/secrets.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { ecdsaP256PublicKey, ecdsaP256Sign, hmacSign } from '../../harness/signing.ts';
import { describeForm, loginForms, rememberForm, signingForm } from './forms.ts';
import type { ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';
import { pathOf } from '../../interfaces/exchange-session/paths.ts';
import type { KeyType } from '../../interfaces/exchange-session/credentials.ts';
import { runScoped } from '../../harness/run-scoped.ts';

export { pathOf, type KeyType };


export function keyType(secrets: Secrets, key: string): KeyType {
  if (secrets.has(`${key}_secret`)) return 'hmac';
  if (secrets.has(`${key}_privateKey`)) return 'ecdsa';
  throw new Error(`no API key named ${key} in this run's credentials`);
}


// ---------------------------------------------------------------------------------------------------------------
// Nonces: epoch microseconds, strictly increasing per key within this process (a key is leased to one test at a time).

const lastNonce = runScoped(() => new Map<string, bigint>());

export function nowMicros(): bigint {
  return BigInt(Date.now()) * 1000n + BigInt(Math.floor((performance.now() % 1) * 1000));
}

/** The next nonce of a key: now in microseconds, or just above the last one the harness used with it. */
export function nextNonce(key: string): bigint {
  const last = lastNonce().get(key) ?? 0n;
  const now = nowMicros();
  const n = now > last ? now : last + 1n;
  lastNonce().set(key, n);
  return n;
}

/** A nonce a check chose itself (the nonce model's): later automatic ones go above it. */
export function usedNonce(key: string, n: bigint): void {
  if (n > (lastNonce().get(key) ?? 0n)) lastNonce().set(key, n);
}

// ---------------------------------------------------------------------------------------------------------------
// Logins

/**
 * The userId an ECDSA key's metadata holds, once base64-decoded: a JSON object's userId member, or (where the metadata
 * is the bare id, as some exchanges' consoles hand it out) the decoded text itself.
 */
export function userIdOf(metadata: string): string {
  return metadataForm(metadata).userId;
}

/** The userId of a key's metadata, and which reading of A-NS-KEY-METADATA its form is. */
export function metadataForm(metadata: string): { userId: string; form: 'json-with-user-id' | 'bare-user-id' } {
  const text = Buffer.from(metadata, 'base64').toString('utf8').trim();
  try {
    const parsed = JSON.parse(text) as { userId?: unknown };
    if (parsed && typeof parsed === 'object' && parsed.userId !== undefined) return { userId: String(parsed.userId), form: 'json-with-user-id' };
  } catch {
    // not JSON: the member in some other notation, or the bare id
  }
  const m = /userId"?\s*[:=]\s*"?([A-Za-z0-9_-]+)/.exec(text);
  if (m) return { userId: m[1], form: 'json-with-user-id' };
  if (/^[A-Za-z0-9_-]+$/.test(text)) return { userId: text, form: 'bare-user-id' };
  throw new Inconclusive('the ECDSA key\'s metadata holds no userId once base64-decoded: check the credential');
}

export interface LoginPayload {
  userId: string;
  nonce: number;
  expirationTime: number;
  biometricsUsed: boolean;
  sessionKey: null;
}

/**
 * "The JSON string of loginPayload": its members in the document's order, compact (JSON.stringify) or spaced (", "
 * and ": ", as Python's json.dumps writes it), as settings.ecdsaSignature.payloadJson says.
 */
export function payloadJson(p: LoginPayload, style: ExchangeSessionSettings['ecdsaSignature']['payloadJson'] = 'compact'): string {
  const documented = { userId: p.userId, nonce: p.nonce, expirationTime: p.expirationTime, biometricsUsed: p.biometricsUsed, sessionKey: p.sessionKey };
  if (style === 'compact') return JSON.stringify(documented);
  return `{${Object.entries(documented).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}}`;
}

export function freshPayload(userId: string, now = Math.floor(Date.now() / 1000)): LoginPayload {
  return { userId, nonce: now, expirationTime: now + 300, biometricsUsed: false, sessionKey: null };
}

export interface EcdsaLoginOptions {
  payload?: LoginPayload;
  /** Sign this payload instead of the one sent (a payload changed after signing). */
  signedPayload?: LoginPayload;
  /** Sign with this private key instead of the key's own. */
  signingKey?: string;
}

export function ecdsaLoginRequest(settings: ExchangeSessionSettings, secrets: Secrets, key: string, o: EcdsaLoginOptions = {}): RequestSpec {
  const privateKey = secrets.get(`${key}_privateKey`);
  const payload = o.payload ?? freshPayload(userIdOf(secrets.get(`${key}_metadata`)));
  // A public key is no secret: it is sent as it is.
  const publicKey = ecdsaP256PublicKey(privateKey, 'pem').replace(/\r\n/g, '\n');
  const signature = ecdsaP256Sign({ privateKey: o.signingKey ?? privateKey, message: payloadJson(o.signedPayload ?? payload, settings.ecdsaSignature.payloadJson), prehash: 'sha256', format: settings.ecdsaSignature.format, encoding: settings.ecdsaSignature.encoding });
  secrets.add(`${key}_loginSignature`, signature);
  return { method: 'POST', path: pathOf(settings, 'ecdsaLogin'), json: { publicKey, signature, loginPayload: payload }, label: `ECDSA login with ${key}` };
}

export interface HmacLoginOptions {
  /** Sign with this secret instead of the key's own. */
  secret?: string;
  /** The base URL, so that the signature covers the path as sent. */
  baseUrl: string;
}

export function hmacLoginRequest(settings: ExchangeSessionSettings, secrets: Secrets, key: string, o: HmacLoginOptions): RequestSpec {
  const path = pathOf(settings, 'hmacLogin');
  const timestamp = String(Date.now());
  const nonce = String(nextNonce(key));
  const message = `${timestamp}${nonce}GET${targetUrl(o.baseUrl, path).pathname}`;
  const signature = hmacSign({ secret: o.secret ?? secrets.get(`${key}_secret`), message, ...settings.hmacSignature });
  secrets.add(`${key}_loginSignature`, signature);
  return {
    method: 'GET',
    path,
    headers: { 'BX-TIMESTAMP': timestamp, 'BX-NONCE': nonce, 'BX-PUBLIC-KEY': secrets.get(`${key}_publicKey`), 'BX-SIGNATURE': signature },
    label: `HMAC login with ${key}`,
  };
}

export function loginRequest(settings: ExchangeSessionSettings, secrets: Secrets, key: string, baseUrl: string): RequestSpec {
  return keyType(secrets, key) === 'hmac' ? hmacLoginRequest(settings, secrets, key, { baseUrl }) : ecdsaLoginRequest(settings, secrets, key);
}

/**
 * The session a login's answer opened, its token and authorizer registered as secrets of the key: only an acceptance
 * carrying a token opens one (what it is otherwise, the caller judges).
 */
export function sessionOf(reply: Reply, secrets: Secrets, key: string): { token: string; authorizer: string } | undefined {
  const body = reply.json as { token?: unknown; authorizer?: unknown } | undefined;
  if (isAccepted(reply) && typeof body?.token === 'string' && body.token) {
    secrets.add(`${key}_token`, body.token);
    if (typeof body.authorizer === 'string') secrets.add(`${key}_authorizer`, body.authorizer);
    return { token: body.token, authorizer: typeof body.authorizer === 'string' ? body.authorizer : '' };
  }
  return undefined;
}

export interface LoginOutcome {
  /** Every login sent, in its form; the last is the one that opened the session, if one did. */
  attempts: Array<{ form: ExchangeSessionSettings; reply: Reply }>;
  session?: { token: string; authorizer: string };
  /** The form the target accepted. */
  form?: ExchangeSessionSettings;
}

/**
 * Logs a key in with each login form in turn (forms.ts) until one opens a session; `shape` adds what every attempt
 * shares (a label, the address it comes from).
 */
export async function tryLogin(
  send: (r: RequestSpec) => Promise<Reply>,
  secrets: Secrets,
  key: string,
  o: { baseUrl: string; settings: ExchangeSessionSettings; shape?: (r: RequestSpec) => RequestSpec },
): Promise<LoginOutcome> {
  const type = keyType(secrets, key);
  const forms = loginForms(o.settings, type, o.baseUrl);
  const attempts: LoginOutcome['attempts'] = [];
  for (const form of forms) {
    const request = (o.shape ?? ((r) => r))(loginRequest(form, secrets, key, o.baseUrl));
    const reply = await send(forms.length > 1 ? { ...request, label: `${request.label ?? 'login'} (${describeForm(form, type)})` } : request);
    attempts.push({ form, reply });
    const session = sessionOf(reply, secrets, key);
    if (session) {
      rememberForm(o.baseUrl, type, form);
      return { attempts, session, form };
    }
    // Only a refusal can be about the form: an acceptance without a token would be the same in every form, and a
    // throttle, a server error or a page that is not the API decides nothing (thrown, naming the login).
    if (!refused(reply, `the login with ${key}`)) break;
  }
  return { attempts };
}

// ---------------------------------------------------------------------------------------------------------------
// The authentication step (the suite's): token, nonce, write signature

const sessions = runScoped(() => new Map<string, { token: string; authorizer: string; at: number }>());
/** Logins under way, per key: requests that need a session at once share one login (a second would revoke the first's token where a key holds one session). */
const loggingIn = runScoped(() => new Map<string, Promise<{ token: string; authorizer: string }>>());
/** The logins the current chain of calls is inside (by session key): what a login's own requests lead to never waits for it. */
const loginsUnderWay = new AsyncLocalStorage<ReadonlySet<string>>();
const sessionKeyOf = (ctx: AuthenticationContext, key: string) => `${ctx.baseUrl} ${key}`;
/** Logged in again well before the documented 24 hours run out. */
const SESSION_REUSE_MS = 60 * 60 * 1000;

/**
 * A session token for a key: logged in once per process and key, again after an hour. `remembered`: the token came
 * from an earlier login, which a later login of the same key (another test's) may have revoked (A-NS-SESSIONS-PER-KEY).
 */
export async function sessionFor(secrets: Secrets, key: string, ctx: AuthenticationContext): Promise<{ token: string; authorizer: string; remembered?: boolean }> {
  const cacheKey = sessionKeyOf(ctx, key);
  const hit = sessions().get(cacheKey);
  if (hit && Date.now() - hit.at < SESSION_REUSE_MS) {
    secrets.add(`${key}_token`, hit.token);
    secrets.add(`${key}_authorizer`, hit.authorizer);
    return { ...hit, remembered: true };
  }
  // A request this very login led to (the client, troubled by the login's answer, asks its harmless request, which
  // goes through this step with the same key) would wait for the login that waits for it: it logs in on its own.
  const within = loginsUnderWay.getStore();
  const ledToByIt = within?.has(cacheKey) ?? false;
  const ownLogin = () => loginsUnderWay.run(new Set([...(within ?? []), cacheKey]), () => logIn(secrets, key, ctx));
  let login = ledToByIt ? ownLogin() : loggingIn().get(cacheKey);
  if (!login) {
    login = ownLogin().finally(() => loggingIn().delete(cacheKey));
    loggingIn().set(cacheKey, login);
  }
  const session = await login;
  secrets.add(`${key}_token`, session.token);
  secrets.add(`${key}_authorizer`, session.authorizer);
  return session;
}

/** One login with a key, its session remembered; Inconclusive when no login form is accepted. */
async function logIn(secrets: Secrets, key: string, ctx: AuthenticationContext): Promise<{ token: string; authorizer: string }> {
  const cacheKey = sessionKeyOf(ctx, key);
  const { session, attempts } = await tryLogin((r) => ctx.send(r), secrets, key, { baseUrl: ctx.baseUrl, settings: ctx.settings as ExchangeSessionSettings });
  if (!session) {
    // A login page or a redirect in front of the API is named as such, not as a refused key.
    const notApi = attempts.map((a) => notTheApi(a.reply, `the login with ${key}`)).find((m) => m && !/ 404: /.test(m));
    if (notApi) throw new Inconclusive(notApi);
    const answers = [...new Set(attempts.map((a) => a.reply.status))].join(', ');
    throw new Inconclusive(`could not log in with ${key} (${keyType(secrets, key).toUpperCase()}): answered ${answers}${attempts.length > 1 ? ` in the ${attempts.length} login forms tried` : ''}; the checks that need a session cannot judge (the login checks say whether the target is at fault)`);
  }
  sessions().set(cacheKey, { ...session, at: Date.now() });
  return session;
}

/**
 * Whether a remembered token that was just refused went stale: another request renewed it already, or a harmless read
 * with it (the trading accounts) is refused 401/403 too. Stale, it is forgotten (the one place a session is) and the
 * request is worth sending again; otherwise the refusal was for something else (a nonce, a scope) and stands.
 */
async function staleSession(key: string, token: string, ctx: AuthenticationContext): Promise<boolean> {
  const cacheKey = sessionKeyOf(ctx, key);
  const now = sessions().get(cacheKey);
  if (now && now.token !== token) return true;
  let read: Reply;
  try {
    read = await ctx.send({ method: 'GET', path: pathOf(ctx.settings as ExchangeSessionSettings, 'tradingAccounts'), headers: { Authorization: `Bearer ${token}` }, label: 'is the remembered session still valid? (trading accounts)' });
  } catch {
    return false;
  }
  // Only a refusal of the token itself says it went stale. A read that decides nothing (a throttle, a server error)
  // cannot tell a stale session from a refusal for another reason: thrown, it leaves the refused request undecided.
  if (!answered(read, 401, 403)) return false;
  if (sessions().get(cacheKey)?.token === token) sessions().delete(cacheKey);
  return true;
}

/**
 * Whether a request is an authenticated write (it carries BX-NONCE): an order or a command posted, or (where orders are
 * cancelled by DELETE) a DELETE on an order's lookup path.
 */
export function isWrite(settings: ExchangeSessionSettings, method: string, path: string): boolean {
  if (method === 'POST') return (['orders', 'command'] as const).some((w) => settings.paths[w] !== undefined && pathOf(settings, w) === path);
  return method === 'DELETE' && settings.order.cancelBy === 'delete' && orderPathPattern(settings).test(path);
}

/** The order lookup path as a pattern of paths as sent (any order id). */
function orderPathPattern(settings: ExchangeSessionSettings): RegExp {
  const [before, after] = pathOf(settings, 'order').split('{orderId}');
  const quote = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${quote(before)}[^/]+${quote(after ?? '')}$`);
}

/**
 * The suite's authentication step. `request.credential` names the key; headers a check gives itself win (a
 * header given as undefined is left out, which is how a check sends a write without BX-NONCE).
 */
export async function authenticate(request: RequestSpec, secrets: Secrets, ctx: AuthenticationContext): Promise<RequestSpec> {
  const settings = ctx.settings as ExchangeSessionSettings;
  const key = request.credential;
  if (!key) throw new Error('harness: an exchange-session request sent with authenticate: true names no key (credential)');
  const given = request.headers ?? {};
  const has = (name: string) => Object.keys(given).some((h) => h.toLowerCase() === name.toLowerCase());
  const headers: Record<string, string | undefined> = {};
  let renewSession: (() => Promise<boolean>) | undefined;
  if (!has('Authorization')) {
    const session = await sessionFor(secrets, key, ctx);
    headers.Authorization = `Bearer ${session.token}`;
    // A remembered token that is refused may have been revoked by a later login of the key (another test's, in a
    // deployment with one session per key): if it went stale, forgotten, and the request sent once more after a
    // fresh login.
    if (session.remembered) renewSession = () => staleSession(key, session.token, ctx);
  }
  if (isWrite(settings, request.method, request.path.split('?')[0])) {
    const nonce = has('BX-NONCE') ? Object.entries(given).find(([h]) => h.toLowerCase() === 'bx-nonce')?.[1] : String(nextNonce(key));
    if (!has('BX-NONCE')) headers['BX-NONCE'] = nonce;
    // A write sent without BX-NONCE on purpose is still signed (over an empty nonce): only the nonce is missing.
    if (settings.signedWrites) {
      const timestamp = String(Date.now());
      const body = request.json !== undefined ? JSON.stringify(request.json) : (request.body ?? '');
      const message = `${timestamp}${nonce ?? ''}${request.method}${ctx.pathAsSent(request.path)}${body}`;
      const signature = signWith(signingForm(settings, keyType(secrets, key), ctx.baseUrl), secrets, key, settings.writeSignatureInput === 'sha256-hex' ? bytesToHex(sha256(utf8ToBytes(message))) : message);
      secrets.add(`${key}_writeSignature`, signature);
      headers['BX-TIMESTAMP'] = timestamp;
      headers['BX-SIGNATURE'] = signature;
    }
  }
  return { ...request, headers: { ...headers, ...given }, ...(renewSession ? { renewSession } : {}) };
}

function signWith(settings: ExchangeSessionSettings, secrets: Secrets, key: string, message: string): string {
  if (keyType(secrets, key) === 'hmac') return hmacSign({ secret: secrets.get(`${key}_secret`), message, ...settings.hmacSignature });
  const { format, encoding } = settings.ecdsaSignature;
  return ecdsaP256Sign({ privateKey: secrets.get(`${key}_privateKey`), message, prehash: 'sha256', format, encoding });
}

/** Sends a login request; whatever token and authorizer come back are secrets before anything can show them. */
export async function sendLogin(api: { send(r: RequestSpec): Promise<Reply> }, secrets: Secrets, key: string, request: RequestSpec): Promise<Reply> {
  const r = await api.send(request);
  sessionOf(r, secrets, key);
  return r;
}
