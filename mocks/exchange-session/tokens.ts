// Session tokens: JWTs signed with a secret that lives and dies with the server, so a token of another deployment (or
// of an earlier run) is foreign here.
import { randomBytes } from 'node:crypto';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import type { ApiKey, KeyType } from './keys.js';

/** "valid 24 hours" */
export const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

export interface Session {
  userId: string;
  keyId: string;
  keyType: KeyType;
}

export class Tokens {
  private readonly secret = new Uint8Array(randomBytes(32));

  constructor(
    private readonly lifetimeSeconds: number,
    /** The 'token-signature-unchecked' fault: claims are read without verifying the signature or expiry. */
    private readonly decodeOnly: boolean,
    /** The 'token-not-jwt' fault: opaque random tokens, looked up in a table. */
    private readonly opaque = false,
  ) {}

  private readonly table = new Map<string, Session>();

  async issue(key: ApiKey): Promise<string> {
    if (this.opaque) {
      const token = randomBytes(24).toString('hex');
      this.table.set(token, { userId: key.userId, keyId: key.keyId, keyType: key.type });
      return token;
    }
    const iat = Math.floor(Date.now() / 1000);
    return new SignJWT({ keyId: key.keyId, keyType: key.type })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(key.userId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.lifetimeSeconds)
      .sign(this.secret);
  }

  /** The session a bearer token stands for, or undefined when it is malformed, foreign or expired. */
  async verify(token: string): Promise<Session | undefined> {
    if (this.opaque) return this.table.get(token);
    try {
      if (this.decodeOnly) {
        // The bug as it is usually written: whatever the token says is believed, missing claims defaulted.
        const { sub, keyId, keyType } = decodeJwt(token);
        const userId = typeof sub === 'string' ? sub : '';
        return { userId, keyId: typeof keyId === 'string' ? keyId : userId, keyType: keyType === 'ECDSA' ? 'ECDSA' : 'HMAC' };
      }
      const { sub, keyId, keyType } = (await jwtVerify(token, this.secret, { algorithms: ['HS256'] })).payload;
      if (typeof sub !== 'string' || typeof keyId !== 'string' || (keyType !== 'HMAC' && keyType !== 'ECDSA')) return undefined;
      return { userId: sub, keyId, keyType };
    } catch {
      return undefined;
    }
  }
}
