// The two logins. Each ends in the key that logged in (the server then issues its token) or a refusal.
import type { ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';
import type { ExchangeSessionFault } from './faults.js';
import { refuse, type Refusal } from './errors.js';
import { addressAllowed, type ApiKey, type KeyStore } from './keys.js';
import type { ExchangeReadings } from './readings.js';
import { ecdsaMatches, hmacMatches, p256PointOf } from './signatures.js';

type On = (name: ExchangeSessionFault) => boolean;

/** "expirationTime is 5 minutes after nonce" */
export const LOGIN_WINDOW_SECONDS = 300;
/** Clients compute both from their own clock and may round either way. */
const WINDOW_SLACK_SECONDS = 5;
/** The reading recent-only of A-NS-HMAC-TIMESTAMP: how far BX-TIMESTAMP may be from the server's clock. */
const HMAC_TIMESTAMP_WINDOW_MS = 30_000;

const LOGIN_BODY_MEMBERS = ['publicKey', 'signature', 'loginPayload'];
const LOGIN_PAYLOAD_MEMBERS = ['userId', 'nonce', 'expirationTime', 'biometricsUsed', 'sessionKey'];

/** One check of a login: undefined when it passes. */
type Step = () => Refusal | undefined;

export class Logins {
  /** The reading increasing-per-key of A-NS-HMAC-LOGIN-NONCE: each HMAC key's last login nonce. */
  private readonly loginNonces = new Map<string, bigint>();

  constructor(
    private readonly keys: KeyStore,
    private readonly settings: ExchangeSessionSettings,
    private readonly on: On,
    private readonly reading: ExchangeReadings,
  ) {}

  ecdsa(body: unknown, address: string | undefined, nowMs: number): ApiKey | Refusal {
    if (!isObject(body)) return refuse('BAD_REQUEST', 'The body must be a JSON object with publicKey, signature and loginPayload.');
    const { publicKey, signature, loginPayload: payload } = body;
    if (typeof publicKey !== 'string' || typeof signature !== 'string' || !isObject(payload)) {
      return refuse('BAD_REQUEST', 'publicKey and signature must be strings and loginPayload an object.');
    }
    if (this.reading('A-NS-UNKNOWN-MEMBERS') === 'refused') {
      const unknown = [...Object.keys(body).filter((k) => !LOGIN_BODY_MEMBERS.includes(k)), ...Object.keys(payload).filter((k) => !LOGIN_PAYLOAD_MEMBERS.includes(k))];
      if (unknown.length) return refuse('BAD_REQUEST', `Unknown member(s) ${unknown.join(', ')}.`);
    }
    const { userId, nonce, expirationTime, biometricsUsed, sessionKey } = payload;
    if (typeof userId !== 'string' || !Number.isSafeInteger(nonce) || !Number.isSafeInteger(expirationTime)) {
      return refuse('BAD_REQUEST', 'loginPayload needs userId (string), nonce and expirationTime (integers, epoch seconds).');
    }
    if (biometricsUsed !== false) return refuse('BAD_REQUEST', 'loginPayload.biometricsUsed must be false.');
    if (sessionKey !== null) return refuse('BAD_REQUEST', 'loginPayload.sessionKey must be null.');

    const point = p256PointOf(publicKey);
    if (!point) return refuse('BAD_REQUEST', 'publicKey is not a P-256 public key in PEM format.');
    const candidates = this.keys.ecdsaKeysFor(point, userId);
    if (candidates.length === 0) return refuse('LOGIN_REFUSED', 'No ECDSA key is registered with this public key.');
    const key = candidates[0];

    const signed: Step = () => {
      const message = this.signedText(payload, { userId, nonce, expirationTime, biometricsUsed, sessionKey });
      if (!this.on('ecdsa-signature-unchecked') && !ecdsaMatches(point, message, signature, this.settings.ecdsaSignature)) {
        return refuse('INVALID_SIGNATURE', 'The signature does not verify over the JSON string of loginPayload with this public key.');
      }
      if (key.userId !== userId && !this.on('ecdsa-userid-unchecked')) {
        return refuse('LOGIN_REFUSED', 'loginPayload.userId is not the user of this key (see the key\'s metadata).');
      }
      return undefined;
    };

    const fresh: Step = () => {
      const now = Math.floor(nowMs / 1000);
      const n = nonce as number;
      const expiry = expirationTime as number;
      if (!this.on('ecdsa-expiry-unchecked')) {
        if (expiry < now) return refuse('LOGIN_EXPIRED', 'loginPayload.expirationTime has passed.');
        // A profile that says the deployment leaves the window to the client takes the reading expiry-only.
        const window = this.settings.loginWindowEnforced ? this.reading('A-NS-LOGIN-WINDOW') : 'expiry-only';
        const off = Math.abs(expiry - n - LOGIN_WINDOW_SECONDS);
        if ((window === 'five-minutes-with-slack' && off > WINDOW_SLACK_SECONDS) || (window === 'exactly-five-minutes' && off !== 0)) {
          return refuse('BAD_REQUEST', 'loginPayload.expirationTime must be 5 minutes (300 s) after loginPayload.nonce.');
        }
      }
      // A nonce too far in the past is refused by the expiry above (it lies 300 s before expirationTime); one from the
      // future would stretch a signed login's life, so it is refused here.
      if (n > now + LOGIN_WINDOW_SECONDS) return refuse('BAD_REQUEST', 'loginPayload.nonce must be the current epoch time in seconds.');
      return undefined;
    };

    return this.run(key, address, signed, fresh);
  }

  /** What the client signed: the JSON string of loginPayload, as the reading of A-NS-LOGIN-PAYLOAD-JSON writes it. */
  private signedText(received: Record<string, unknown>, documented: Record<string, unknown>): string {
    if (this.on('ecdsa-payload-sorted')) return JSON.stringify(Object.fromEntries(Object.entries(documented).sort(([a], [b]) => (a < b ? -1 : 1))));
    // A profile that says the payload is signed spaced takes the reading python-default-separators.
    switch (this.settings.ecdsaSignature.payloadJson === 'spaced' ? 'python-default-separators' : this.reading('A-NS-LOGIN-PAYLOAD-JSON')) {
      case 'document-order-compact':
        // Members in the document's order, values as received.
        return JSON.stringify(documented);
      case 'as-received':
        // What a JavaScript server does: JSON.stringify of the object it parsed, members in the order they came.
        return JSON.stringify(received);
      case 'python-default-separators':
        // What a Python server does: json.dumps of the dict it parsed, with its default ", " and ": " separators.
        return pythonDumps(received);
    }
  }

  hmac(headers: Record<string, string | string[] | undefined>, path: string, address: string | undefined, nowMs = Date.now()): ApiKey | Refusal {
    const header = (name: string) => {
      const v = headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const timestamp = header('bx-timestamp');
    const nonce = header('bx-nonce');
    const publicKey = header('bx-public-key');
    const signature = header('bx-signature');
    if (timestamp === undefined || nonce === undefined || publicKey === undefined || signature === undefined) {
      return refuse('UNAUTHORIZED', 'The HMAC login needs BX-TIMESTAMP, BX-NONCE, BX-PUBLIC-KEY and BX-SIGNATURE.');
    }
    if (!/^\d+$/.test(timestamp)) return refuse('BAD_REQUEST', 'BX-TIMESTAMP must be milliseconds since the epoch.');
    // Its own counter, unrelated to the order nonces: only its shape is checked (unless the key's logins must increase).
    if (!/^\d{1,20}$/.test(nonce)) return refuse('BAD_REQUEST', 'BX-NONCE must be an unsigned 64-bit integer.');

    const key = this.keys.hmacKey(publicKey);
    if (!key?.secretKey) return refuse('LOGIN_REFUSED', 'No HMAC key has this public key.');

    const signed: Step = () => {
      const message = this.on('hmac-message-reordered') ? `${nonce}${timestamp}GET${path}` : `${timestamp}${nonce}GET${path}`;
      if (!this.on('hmac-signature-unchecked') && !hmacMatches(key.secretKey!, message, signature, this.settings.hmacSignature)) {
        return refuse('INVALID_SIGNATURE', 'BX-SIGNATURE is not the HMAC of timestamp + nonce + GET + path.');
      }
      if (this.reading('A-NS-HMAC-LOGIN-NONCE') === 'increasing-per-key') {
        const last = this.loginNonces.get(key.keyId);
        if (last !== undefined && BigInt(nonce) <= last) return refuse('LOGIN_REFUSED', `BX-NONCE must be greater than this key's last login nonce (${last}).`);
        this.loginNonces.set(key.keyId, BigInt(nonce));
      }
      return undefined;
    };

    const fresh: Step = () => {
      if (this.reading('A-NS-HMAC-TIMESTAMP') === 'recent-only' && Math.abs(nowMs - Number(timestamp)) > HMAC_TIMESTAMP_WINDOW_MS) {
        return refuse('LOGIN_EXPIRED', 'BX-TIMESTAMP is more than 30 s away from the server\'s clock.');
      }
      return undefined;
    };

    return this.run(key, address, signed, fresh);
  }

  /** The checks after the key is found, in the order the reading of A-NS-LOGIN-CHECK-ORDER takes them. */
  private run(key: ApiKey, address: string | undefined, signed: Step, fresh: Step): ApiKey | Refusal {
    const whitelisted: Step = () => (this.on('whitelist-unenforced') || addressAllowed(key, address) ? undefined : refuse('IP_NOT_WHITELISTED', 'This key\'s IP whitelist does not hold the address the login came from.'));
    const order = this.reading('A-NS-LOGIN-CHECK-ORDER');
    const steps = order === 'whitelist-first' ? [whitelisted, signed, fresh] : order === 'freshness-first' ? [fresh, signed, whitelisted] : [signed, fresh, whitelisted];
    for (const step of steps) {
      const refusal = step();
      if (refusal) return refusal;
    }
    return key;
  }
}

/** Python's json.dumps with its default separators (", " between members, ": " after a name), for JSON values. */
function pythonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(', ')}]`;
  if (isObject(value)) return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonDumps(v)}`).join(', ')}}`;
  return JSON.stringify(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
