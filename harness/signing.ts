/**
 * Signing helpers for interfaces that log in with signatures (the exchange interface: ECDSA P-256 and HMAC logins).
 * The documents do not show the hash, the signature format nor the output encoding, so each of them is a setting
 * the target profile names (`Signer`), never a guess made here.
 *
 * Secrets: keys and secrets are read from the profile's credentials (environment variables) and registered with
 * `Secrets.add` by whoever reads them. A signature is a secret too (replaying it may open a session), so every
 * function here that returns one leaves the caller to register it with `Secrets.add` (e.g.
 * `secrets.add('hmacSignature', sig)`) before the request is sent, captured or logged.
 *
 * Error messages never quote key material: a malformed key is reported by its shape, not by its value.
 */
import { createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';

export type SignatureEncoding = 'hex' | 'base64' | 'base64url';
export type HmacHash = 'sha256' | 'sha512';
export type SecretEncoding = 'utf8' | 'hex' | 'base64';
/** `der`: ASN.1 SEQUENCE{r, s} (OpenSSL, Java, .NET); `compact`: r||s, 64 bytes (WebCrypto, JWS ES256). */
export type EcdsaFormat = 'der' | 'compact';
/** `sha256`: the message is hashed first (ES256); `none`: the message is already a 32-byte digest. */
export type EcdsaPrehash = 'sha256' | 'none';

/** Text is signed as its UTF-8 bytes. */
export type Message = string | Uint8Array;

const HASHES = { sha256, sha512 } as const;

// ---------------------------------------------------------------------------------------------------------------
// HMAC

export interface HmacOptions {
  /** The shared secret: text, or bytes. Text is decoded with `secretEncoding` (default utf8: used as it is). */
  secret: string | Uint8Array;
  /** Some services hand out the secret base64- or hex-encoded and key the MAC with the decoded bytes. */
  secretEncoding?: SecretEncoding;
  message: Message;
  hash: HmacHash;
  encoding: SignatureEncoding;
}

/**
 * HMAC of a message, encoded as the profile says. The result is a secret: register it with `Secrets.add` before
 * logging or capturing the request that carries it.
 */
export function hmacSign(o: HmacOptions): string {
  const hash = HASHES[o.hash];
  if (!hash) throw new Error(`hmacSign: unknown hash ${JSON.stringify(o.hash)} (sha256 or sha512)`);
  const key = typeof o.secret === 'string' ? decodeSecret(o.secret, o.secretEncoding ?? 'utf8', 'HMAC secret') : o.secret;
  return encode(hmac(hash, key, bytes(o.message)), o.encoding);
}

// ---------------------------------------------------------------------------------------------------------------
// ECDSA P-256

/**
 * A P-256 private key as a profile's credential holds it: a PEM file's text (PKCS#8 or SEC1), a JWK (JSON text),
 * 64 hex digits (an optional "0x" is ignored), or bytes (32 raw bytes, else DER, PKCS#8 or SEC1). Key files are read
 * by node:crypto (OpenSSL), never parsed here.
 */
export type P256PrivateKey = string | Uint8Array;

export interface EcdsaSignOptions {
  privateKey: P256PrivateKey;
  message: Message;
  prehash: EcdsaPrehash;
  format: EcdsaFormat;
  encoding: SignatureEncoding;
  /**
   * Normalise s to the lower half of the group order. Default false: the plain RFC 6979 signature, which every
   * P-256 verifier accepts; true only for a verifier that refuses high-s signatures (noble's own default).
   */
  lowS?: boolean;
}

/**
 * Deterministic (RFC 6979) ECDSA P-256 signature: the same key and message always give the same signature, which
 * keeps cassettes replayable. The result is a secret: register it with `Secrets.add` before logging or capturing
 * the request that carries it.
 */
export function ecdsaP256Sign(o: EcdsaSignOptions): string {
  const key = privateKeyBytes(o.privateKey);
  const sig = p256.sign(messageFor(o.message, o.prehash), key, {
    prehash: o.prehash === 'sha256',
    format: o.format,
    lowS: o.lowS ?? false,
    extraEntropy: false,
  });
  return encode(sig, o.encoding);
}

export interface EcdsaVerifyOptions {
  /** SEC1 point (65 bytes uncompressed or 33 compressed) as bytes or hex, or an SPKI PEM ("BEGIN PUBLIC KEY"). */
  publicKey: string | Uint8Array;
  message: Message;
  /** As produced by `ecdsaP256Sign` with the same format and encoding; bytes are taken as they are. */
  signature: string | Uint8Array;
  prehash: EcdsaPrehash;
  format: EcdsaFormat;
  encoding: SignatureEncoding;
}

/**
 * Checks a P-256 signature. High-s signatures are accepted (other signers, OpenSSL or WebCrypto, make them half the
 * time and P-256 verifiers accept them). Malformed input gives false rather than an exception: to a conformance
 * check a signature that does not parse is simply not valid.
 */
export function ecdsaP256Verify(o: EcdsaVerifyOptions): boolean {
  try {
    const sig = typeof o.signature === 'string' ? decode(o.signature, o.encoding) : o.signature;
    return p256.verify(sig, messageFor(o.message, o.prehash), publicKeyBytes(o.publicKey), {
      prehash: o.prehash === 'sha256',
      format: o.format,
      lowS: false,
    });
  } catch {
    return false;
  }
}

/**
 * The public key of a private key (not a secret): `hex` is the uncompressed SEC1 point ("04" || x || y);
 * `pem` is the SubjectPublicKeyInfo PEM with UNIX newlines, as the exchange's ECDSA login body carries it.
 */
export function ecdsaP256PublicKey(privateKey: P256PrivateKey, format: 'hex' | 'pem' = 'hex'): string {
  const point = p256.getPublicKey(privateKeyBytes(privateKey), false);
  if (format === 'hex') return toHex(point);
  const jwk = { kty: 'EC', crv: 'P-256', x: Buffer.from(point.subarray(1, 33)).toString('base64url'), y: Buffer.from(point.subarray(33)).toString('base64url') };
  return createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
}

// ---------------------------------------------------------------------------------------------------------------
// Signer: what a profile names

/** The settings a target profile gives for one signed login (the documents leave them open). */
export type Signer =
  | { kind: 'hmac'; hash: HmacHash; encoding: SignatureEncoding; secretEncoding?: SecretEncoding }
  | { kind: 'ecdsa-p256'; prehash: EcdsaPrehash; format: EcdsaFormat; encoding: SignatureEncoding; lowS?: boolean };

/** A signer bound to its secret. `sign` returns a secret: register it with `Secrets.add` before logging. */
export interface BoundSigner {
  kind: Signer['kind'];
  sign(message: Message): string;
  /** ECDSA only: the public key (SEC1 hex, or SPKI PEM), for bodies that carry it. */
  publicKey?(format?: 'hex' | 'pem'): string;
}

/**
 * Binds profile settings to the secret value (the credential's environment variable, already registered with
 * `Secrets.add`). The key is checked here, so a malformed credential fails before the first request.
 */
export function makeSigner(settings: Signer, secretValue: string): BoundSigner {
  if (settings.kind === 'hmac') {
    const key = decodeSecret(secretValue, settings.secretEncoding ?? 'utf8', 'HMAC secret');
    return {
      kind: 'hmac',
      sign: (message) => hmacSign({ secret: key, message, hash: settings.hash, encoding: settings.encoding }),
    };
  }
  if (settings.kind === 'ecdsa-p256') {
    const key = privateKeyBytes(secretValue);
    return {
      kind: 'ecdsa-p256',
      sign: (message) => ecdsaP256Sign({ privateKey: key, message, prehash: settings.prehash, format: settings.format, encoding: settings.encoding, lowS: settings.lowS }),
      publicKey: (format = 'hex') => ecdsaP256PublicKey(key, format),
    };
  }
  throw new Error(`makeSigner: unknown kind ${JSON.stringify((settings as { kind?: unknown }).kind)} (hmac or ecdsa-p256)`);
}

/** JSON Schema of `Signer`, for the profile schema (harness/profile/schema.ts) to include where an interface needs it. */
export const signerSchema = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'hash', 'encoding'],
      properties: {
        kind: { const: 'hmac' },
        hash: { enum: ['sha256', 'sha512'] },
        encoding: { enum: ['hex', 'base64', 'base64url'] },
        secretEncoding: { enum: ['utf8', 'hex', 'base64'] },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'prehash', 'format', 'encoding'],
      properties: {
        kind: { const: 'ecdsa-p256' },
        prehash: { enum: ['sha256', 'none'] },
        format: { enum: ['der', 'compact'] },
        encoding: { enum: ['hex', 'base64', 'base64url'] },
        lowS: { type: 'boolean' },
      },
    },
  ],
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Bytes and encodings (Buffer does base64url natively; noble's own helpers are not needed for these)

function bytes(m: Message): Uint8Array {
  return typeof m === 'string' ? new TextEncoder().encode(m) : m;
}

function messageFor(m: Message, prehash: EcdsaPrehash): Uint8Array {
  const b = bytes(m);
  if (prehash === 'sha256') return b;
  if (prehash === 'none') {
    if (b.length !== 32) throw new Error(`ECDSA with prehash none signs a 32-byte digest, got ${b.length} bytes`);
    return b;
  }
  throw new Error(`unknown prehash ${JSON.stringify(prehash)} (sha256 or none)`);
}

function encode(b: Uint8Array, encoding: SignatureEncoding): string {
  if (encoding === 'hex' || encoding === 'base64' || encoding === 'base64url') return Buffer.from(b).toString(encoding);
  throw new Error(`unknown signature encoding ${JSON.stringify(encoding)} (hex, base64 or base64url)`);
}

function decode(s: string, encoding: SignatureEncoding): Uint8Array {
  if (encoding === 'hex') return fromHex(s);
  if (encoding === 'base64' || encoding === 'base64url') return new Uint8Array(Buffer.from(s, encoding));
  throw new Error(`unknown signature encoding ${JSON.stringify(encoding)}`);
}

function decodeSecret(s: string, encoding: SecretEncoding, what: string): Uint8Array {
  if (encoding === 'utf8') return bytes(s);
  if (encoding === 'hex') {
    if (!/^([0-9a-fA-F]{2})+$/.test(s)) throw new Error(`${what} is not hex (secretEncoding hex)`);
    return fromHex(s);
  }
  if (encoding === 'base64') {
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) throw new Error(`${what} is not base64 (secretEncoding base64)`);
    return new Uint8Array(Buffer.from(s, 'base64'));
  }
  throw new Error(`unknown secretEncoding ${JSON.stringify(encoding)} (utf8, hex or base64)`);
}

function privateKeyBytes(k: P256PrivateKey): Uint8Array {
  if (typeof k !== 'string' && k.length === 32) {
    if (!p256.utils.isValidSecretKey(k)) throw new Error('P-256 private key: 32 bytes, but not a scalar in 1..n-1');
    return k;
  }
  const text = typeof k === 'string' ? k.trim() : '';
  const hex = text.replace(/^0x/i, '');
  if (/^[0-9a-fA-F]{64}$/.test(hex)) return privateKeyBytes(fromHex(hex));
  let key: KeyObject;
  try {
    if (typeof k !== 'string') key = derPrivateKey(Buffer.from(k));
    else if (text.startsWith('{')) key = createPrivateKey({ key: JSON.parse(text) as JsonWebKey, format: 'jwk' });
    else if (text.includes('-----BEGIN')) key = createPrivateKey(text);
    else throw new Error('shape');
  } catch {
    // Never the key itself: only what shape it was expected to have.
    throw new Error('P-256 private key: expected PEM (PKCS#8 or SEC1), a JWK, DER bytes, 32 raw bytes or 64 hex digits');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error(`P-256 private key: the key is ${key.asymmetricKeyType} ${key.asymmetricKeyDetails?.namedCurve ?? ''}, not P-256`);
  const d = key.export({ format: 'jwk' }).d;
  if (!d) throw new Error('P-256 private key: the key has no private part');
  return privateKeyBytes(new Uint8Array(Buffer.from(d, 'base64url')));
}

function derPrivateKey(der: Buffer): KeyObject {
  try {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } catch {
    return createPrivateKey({ key: der, format: 'der', type: 'sec1' });
  }
}

function publicKeyBytes(k: string | Uint8Array): Uint8Array {
  if (typeof k === 'string' && !k.includes('-----BEGIN')) return fromHex(k.trim().replace(/^0x/i, ''));
  if (typeof k !== 'string' && k.length === 65 && k[0] === 4) return k;
  const key = typeof k === 'string' ? createPublicKey(k) : createPublicKey({ key: Buffer.from(k), format: 'der', type: 'spki' });
  const jwk = key.export({ format: 'jwk' });
  if (jwk.crv !== 'P-256' || !jwk.x || !jwk.y) throw new Error('public key is not a P-256 key');
  return concat(new Uint8Array([4]), concat(new Uint8Array(Buffer.from(jwk.x, 'base64url')), new Uint8Array(Buffer.from(jwk.y, 'base64url'))));
}

function fromHex(s: string): Uint8Array {
  if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) throw new Error('expected hex');
  return new Uint8Array(Buffer.from(s, 'hex'));
}

function toHex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
