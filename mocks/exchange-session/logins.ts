// The two logins. Each ends in the key that logged in (the server then issues its token) or a refusal.
import type { ExchangeSessionSettings } from '../../suites/exchange-session/settings.ts';
import type { ExchangeSessionFault } from './faults.js';
import { refuse, type Refusal } from './errors.js';
import { addressAllowed, type ApiKey, type KeyStore } from './keys.js';
import { ecdsaMatches, hmacMatches, p256PointOf } from './signatures.js';

type On = (name: ExchangeSessionFault) => boolean;

/** "expirationTime is 5 minutes after nonce" */
export const LOGIN_WINDOW_SECONDS = 300;
/** Clients compute both from their own clock and may round either way. */
const WINDOW_SLACK_SECONDS = 5;

export class Logins {
  constructor(
    private readonly keys: KeyStore,
    private readonly settings: ExchangeSessionSettings,
    private readonly on: On,
  ) {}

  ecdsa(body: unknown, address: string | undefined, nowMs: number): ApiKey | Refusal {
    if (!isObject(body)) return refuse('BAD_REQUEST', 'The body must be a JSON object with publicKey, signature and loginPayload.');
    const { publicKey, signature, loginPayload: payload } = body;
    if (typeof publicKey !== 'string' || typeof signature !== 'string' || !isObject(payload)) {
      return refuse('BAD_REQUEST', 'publicKey and signature must be strings and loginPayload an object.');
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

    // What the client signed: the JSON string of loginPayload, members in the document's order, values as received.
    const message = this.on('ecdsa-payload-sorted')
      ? JSON.stringify({ biometricsUsed, expirationTime, nonce, sessionKey, userId })
      : JSON.stringify({ userId, nonce, expirationTime, biometricsUsed, sessionKey });
    if (!this.on('ecdsa-signature-unchecked') && !ecdsaMatches(point, message, signature, this.settings.ecdsaSignature)) {
      return refuse('INVALID_SIGNATURE', 'The signature does not verify over the JSON string of loginPayload with this public key.');
    }
    if (key.userId !== userId && !this.on('ecdsa-userid-unchecked')) {
      return refuse('LOGIN_REFUSED', 'loginPayload.userId is not the user of this key (see the key\'s metadata).');
    }

    const now = Math.floor(nowMs / 1000);
    const n = nonce as number;
    const expiry = expirationTime as number;
    if (!this.on('ecdsa-expiry-unchecked')) {
      if (expiry < now) return refuse('LOGIN_EXPIRED', 'loginPayload.expirationTime has passed.');
      if (Math.abs(expiry - n - LOGIN_WINDOW_SECONDS) > WINDOW_SLACK_SECONDS) {
        return refuse('BAD_REQUEST', 'loginPayload.expirationTime must be 5 minutes (300 s) after loginPayload.nonce.');
      }
    }
    // A nonce too far in the past is refused by the expiry above (it lies 300 s before expirationTime); one from the
    // future would stretch a signed login's life, so it is refused here.
    if (n > now + LOGIN_WINDOW_SECONDS) return refuse('BAD_REQUEST', 'loginPayload.nonce must be the current epoch time in seconds.');

    return this.whitelisted(key, address);
  }

  hmac(headers: Record<string, string | string[] | undefined>, path: string, address: string | undefined): ApiKey | Refusal {
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
    // Its own counter, unrelated to the order nonces: only its shape is checked.
    if (!/^\d{1,20}$/.test(nonce)) return refuse('BAD_REQUEST', 'BX-NONCE must be an unsigned 64-bit integer.');

    const key = this.keys.hmacKey(publicKey);
    if (!key?.secretKey) return refuse('LOGIN_REFUSED', 'No HMAC key has this public key.');
    const message = this.on('hmac-message-reordered') ? `${nonce}${timestamp}GET${path}` : `${timestamp}${nonce}GET${path}`;
    if (!this.on('hmac-signature-unchecked') && !hmacMatches(key.secretKey, message, signature, this.settings.hmacSignature)) {
      return refuse('INVALID_SIGNATURE', 'BX-SIGNATURE is not the HMAC of timestamp + nonce + GET + path.');
    }
    return this.whitelisted(key, address);
  }

  private whitelisted(key: ApiKey, address: string | undefined): ApiKey | Refusal {
    if (this.on('whitelist-unenforced') || addressAllowed(key, address)) return key;
    return refuse('IP_NOT_WHITELISTED', 'This key\'s IP whitelist does not hold the address the login came from.');
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
