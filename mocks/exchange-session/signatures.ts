// Signature checks of the reference, written against the libraries directly (never the harness's signing helpers),
// so that a slip on either side shows as a disagreement instead of cancelling out.
import { createPublicKey, timingSafeEqual } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import type { ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';

type HmacSettings = ExchangeSessionSettings['hmacSignature'];
type EcdsaSettings = ExchangeSessionSettings['ecdsaSignature'];
type Encoding = HmacSettings['encoding'];

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

// Strict alphabets: Buffer.from silently drops characters it does not know, which would let a signature with trailing
// junk decode to the right bytes.
const ALPHABETS: Record<Encoding, RegExp> = {
  hex: /^(?:[0-9a-fA-F]{2})+$/,
  base64: /^[A-Za-z0-9+/]+={0,2}$/,
  base64url: /^[A-Za-z0-9_-]+={0,2}$/,
};

/** The bytes of an encoded signature, or undefined when the text is not of that encoding. */
export function decodeSignature(text: string, encoding: Encoding): Uint8Array | undefined {
  if (!ALPHABETS[encoding].test(text)) return undefined;
  return new Uint8Array(Buffer.from(text, encoding));
}

/** The HMAC key bytes a secret stands for: some exchanges hand secrets out hex- or base64-encoded. */
export function secretBytes(secret: string, encoding: HmacSettings['secretEncoding']): Uint8Array {
  return encoding === 'utf8' ? utf8(secret) : new Uint8Array(Buffer.from(secret, encoding));
}

/** Whether `given` is the HMAC of `message`, compared in constant time so the answer's timing leaks no prefix. */
export function hmacMatches(key: Uint8Array, message: string, given: string, settings: HmacSettings): boolean {
  const expected = hmac(settings.hash === 'sha512' ? sha512 : sha256, key, utf8(message));
  const received = decodeSignature(given, settings.encoding);
  return received !== undefined && received.length === expected.length && timingSafeEqual(received, expected);
}

/**
 * The uncompressed SEC1 point of an SPKI PEM public key on P-256, as hex: the identity of an ECDSA key whatever its
 * PEM's line endings or wrapping. Undefined when the text is not such a key.
 */
export function p256PointOf(pem: string): string | undefined {
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return undefined;
    const { x, y } = key.export({ format: 'jwk' });
    if (!x || !y) return undefined;
    return `04${Buffer.from(x, 'base64url').toString('hex')}${Buffer.from(y, 'base64url').toString('hex')}`;
  } catch {
    return undefined;
  }
}

/** Whether `signature` (encoded as the profile says) is a P-256 signature of sha256(message) by the key at `point`. */
export function ecdsaMatches(point: string, message: string, signature: string, settings: EcdsaSettings): boolean {
  const bytes = decodeSignature(signature, settings.encoding);
  if (!bytes) return false;
  try {
    // High-s signatures are valid ECDSA; OpenSSL and WebCrypto signers produce them half the time.
    return p256.verify(bytes, utf8(message), Buffer.from(point, 'hex'), { prehash: true, format: settings.format, lowS: false });
  } catch {
    return false;
  }
}
