// Session tokens: JWTs signed with a secret that lives and dies with the server, so a token of another deployment (or
// of an earlier run) is foreign here.
import { generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import type { ApiKey, KeyType } from './keys.js';

/** "valid 24 hours" */
export const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

export interface Session {
  userId: string;
  keyId: string;
  keyType: KeyType;
  /** The bearer token itself: what a nonce sequence kept per session is keyed by. */
  token: string;
  /** The session id a token carries where a key's new login revokes its earlier sessions (claim `sid`). */
  sid?: string;
}

/** How the tokens are made where the document is silent (readings of A-NS-TOKEN-CLAIMS and A-NS-SESSIONS-PER-KEY). */
export interface TokenForm {
  /** ES256 with a key pair of the server's, claims sub, keyId, keyType, exp and jti, no iat (else HS256 with iat). */
  es256WithoutIat?: boolean;
  /** A key's new login revokes the tokens its earlier logins were given (each token then carries a session id, `sid`). */
  latestOnly?: boolean;
}

export class Tokens {
  private readonly secret = new Uint8Array(randomBytes(32));
  private readonly pair?: { privateKey: KeyObject; publicKey: KeyObject };
  /** The session id of each key's latest login (only kept when a new login revokes the earlier ones). */
  private readonly latest = new Map<string, string>();

  constructor(
    private readonly lifetimeSeconds: number,
    /** The 'token-signature-unchecked' fault: claims are read without verifying the signature or expiry. */
    private readonly decodeOnly: boolean,
    /** The 'token-not-jwt' fault: opaque random tokens, looked up in a table. */
    private readonly opaque = false,
    private readonly form: TokenForm = {},
  ) {
    if (form.es256WithoutIat) this.pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  }

  private readonly table = new Map<string, Omit<Session, 'token'>>();

  async issue(key: ApiKey): Promise<string> {
    const sid = this.form.latestOnly ? randomUUID() : undefined;
    if (sid) this.latest.set(key.keyId, sid);
    if (this.opaque) {
      const token = randomBytes(24).toString('hex');
      this.table.set(token, { userId: key.userId, keyId: key.keyId, keyType: key.type, ...(sid ? { sid } : {}) });
      return token;
    }
    const claims = { keyId: key.keyId, keyType: key.type, ...(sid ? { sid } : {}) };
    const now = Math.floor(Date.now() / 1000);
    if (this.pair) {
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
        .setSubject(key.userId)
        .setJti(randomUUID())
        .setExpirationTime(now + this.lifetimeSeconds)
        .sign(this.pair.privateKey);
    }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(key.userId)
      .setIssuedAt(now)
      .setExpirationTime(now + this.lifetimeSeconds)
      .sign(this.secret);
  }

  /** The session a bearer token stands for, or undefined when it is malformed, foreign, expired or revoked. */
  async verify(token: string): Promise<Session | undefined> {
    const session = await this.claims(token);
    if (!session || !this.form.latestOnly) return session;
    // The 'token-signature-unchecked' fault believes a token without a session id too (missing claims defaulted).
    if (session.sid === undefined && this.decodeOnly) return session;
    return session.sid !== undefined && this.latest.get(session.keyId) === session.sid ? session : undefined;
  }

  private async claims(token: string): Promise<Session | undefined> {
    if (this.opaque) {
      const found = this.table.get(token);
      return found && { ...found, token };
    }
    try {
      if (this.decodeOnly) {
        // The bug as it is usually written: whatever the token says is believed, missing claims defaulted.
        const { sub, keyId, keyType, sid } = decodeJwt(token);
        const userId = typeof sub === 'string' ? sub : '';
        return { userId, keyId: typeof keyId === 'string' ? keyId : userId, keyType: keyType === 'ECDSA' ? 'ECDSA' : 'HMAC', token, ...(typeof sid === 'string' ? { sid } : {}) };
      }
      const { sub, keyId, keyType, sid } = this.pair
        ? (await jwtVerify(token, this.pair.publicKey, { algorithms: ['ES256'] })).payload
        : (await jwtVerify(token, this.secret, { algorithms: ['HS256'] })).payload;
      if (typeof sub !== 'string' || typeof keyId !== 'string' || (keyType !== 'HMAC' && keyType !== 'ECDSA')) return undefined;
      return { userId: sub, keyId, keyType, token, ...(typeof sid === 'string' ? { sid } : {}) };
    } catch {
      return undefined;
    }
  }
}
