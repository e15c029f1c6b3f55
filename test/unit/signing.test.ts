import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import {
  ecdsaP256PublicKey,
  ecdsaP256Sign,
  ecdsaP256Verify,
  hmacSign,
  makeSigner,
  signerSchema,
  type EcdsaFormat,
  type SignatureEncoding,
} from '../../harness/signing.ts';
import { Secrets } from '../../harness/secrets.ts';
import { makeAjv } from '../../harness/validation/ajv.ts';

// RFC 4231, test case 2.
const RFC4231_KEY = 'Jefe';
const RFC4231_DATA = 'what do ya want for nothing?';
const RFC4231_SHA256 = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
const RFC4231_SHA512 =
  '164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737';

// RFC 6979, appendix A.2.5 (P-256, SHA-256).
const RFC6979_KEY = 'c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721';
const RFC6979_PUB =
  '04' + '60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6' + '7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299';
const RFC6979_SAMPLE = {
  r: 'efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716',
  s: 'f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8',
};
const RFC6979_TEST = {
  r: 'f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367',
  s: '019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083',
};
const N = p256.Point.CURVE().n;

const ecdsa = (message: string, format: EcdsaFormat = 'compact', encoding: SignatureEncoding = 'hex', privateKey = RFC6979_KEY) =>
  ecdsaP256Sign({ privateKey, message, prehash: 'sha256', format, encoding });
const verify = (signature: string, message: string, format: EcdsaFormat = 'compact', encoding: SignatureEncoding = 'hex', publicKey = RFC6979_PUB) =>
  ecdsaP256Verify({ publicKey, message, signature, prehash: 'sha256', format, encoding });

test('HMAC-SHA256 and HMAC-SHA512 match RFC 4231 test case 2', () => {
  assert.equal(hmacSign({ secret: RFC4231_KEY, message: RFC4231_DATA, hash: 'sha256', encoding: 'hex' }), RFC4231_SHA256);
  assert.equal(hmacSign({ secret: RFC4231_KEY, message: RFC4231_DATA, hash: 'sha512', encoding: 'hex' }), RFC4231_SHA512);
});

test('HMAC encodings are the same bytes; byte inputs equal their UTF-8 text', () => {
  const raw = Buffer.from(RFC4231_SHA256, 'hex');
  assert.equal(hmacSign({ secret: RFC4231_KEY, message: RFC4231_DATA, hash: 'sha256', encoding: 'base64' }), raw.toString('base64'));
  const b64url = hmacSign({ secret: RFC4231_KEY, message: RFC4231_DATA, hash: 'sha256', encoding: 'base64url' });
  assert.equal(b64url, raw.toString('base64url'));
  assert.doesNotMatch(b64url, /[+/=]/);
  const fromBytes = hmacSign({ secret: new TextEncoder().encode(RFC4231_KEY), message: new TextEncoder().encode(RFC4231_DATA), hash: 'sha256', encoding: 'hex' });
  assert.equal(fromBytes, RFC4231_SHA256);
});

test('HMAC secretEncoding decodes the secret before keying', () => {
  const hexKey = Buffer.from(RFC4231_KEY).toString('hex');
  const b64Key = Buffer.from(RFC4231_KEY).toString('base64');
  assert.equal(hmacSign({ secret: hexKey, secretEncoding: 'hex', message: RFC4231_DATA, hash: 'sha256', encoding: 'hex' }), RFC4231_SHA256);
  assert.equal(hmacSign({ secret: b64Key, secretEncoding: 'base64', message: RFC4231_DATA, hash: 'sha256', encoding: 'hex' }), RFC4231_SHA256);
  assert.throws(() => hmacSign({ secret: 'not hex!', secretEncoding: 'hex', message: 'x', hash: 'sha256', encoding: 'hex' }), /not hex/);
});

test('ECDSA P-256 matches RFC 6979 A.2.5 (deterministic k, plain s by default)', () => {
  assert.equal(ecdsaP256PublicKey(RFC6979_KEY), RFC6979_PUB);
  assert.equal(ecdsa('sample'), RFC6979_SAMPLE.r + RFC6979_SAMPLE.s);
  assert.equal(ecdsa('test'), RFC6979_TEST.r + RFC6979_TEST.s);
});

test('ECDSA signatures are deterministic: the same input signs the same twice', () => {
  for (const format of ['der', 'compact'] as const) {
    for (const encoding of ['hex', 'base64', 'base64url'] as const) {
      assert.equal(ecdsa('{"a":1}', format, encoding), ecdsa('{"a":1}', format, encoding));
    }
  }
});

test('ECDSA sign/verify round trip; a tampered message, signature or key fails', () => {
  const { secretKey, publicKey } = p256.keygen();
  const pub = Buffer.from(publicKey).toString('hex');
  const key = Buffer.from(secretKey).toString('hex');
  const message = '{"userId":"u-1","nonce":42}';
  for (const format of ['der', 'compact'] as const) {
    for (const encoding of ['hex', 'base64', 'base64url'] as const) {
      const sig = ecdsa(message, format, encoding, key);
      assert.equal(verify(sig, message, format, encoding, pub), true, `${format}/${encoding}`);
      assert.equal(verify(sig, message + ' ', format, encoding, pub), false, `tampered message ${format}/${encoding}`);
      assert.equal(verify(sig, message, format, encoding, RFC6979_PUB), false, `other key ${format}/${encoding}`);
    }
  }
  const sig = ecdsa(message, 'compact', 'hex', key);
  const flipped = (sig[10] === '0' ? '1' : '0');
  assert.equal(verify(sig.slice(0, 10) + flipped + sig.slice(11), message, 'compact', 'hex', pub), false, 'tampered signature');
  assert.equal(verify('zz', message, 'compact', 'hex', pub), false, 'malformed signature gives false, not an exception');
  assert.equal(verify(sig, message, 'compact', 'hex', 'not a key'), false, 'malformed key gives false');
});

test('DER and compact encode the same (r, s)', () => {
  const compact = Buffer.from(ecdsa('sample', 'compact'), 'hex');
  const der = Buffer.from(ecdsa('sample', 'der'), 'hex');
  assert.equal(compact.length, 64);
  assert.equal(der[0], 0x30, 'DER starts with a SEQUENCE');
  assert.ok(der.length >= 8 && der.length <= 72);
  assert.equal(der[1], der.length - 2);
  const parsed = p256.Signature.fromBytes(der, 'der');
  assert.equal(parsed.r.toString(16).padStart(64, '0'), RFC6979_SAMPLE.r);
  assert.equal(parsed.s.toString(16).padStart(64, '0'), RFC6979_SAMPLE.s);
  assert.deepEqual(Buffer.from(parsed.toBytes('compact')), compact);
  // Each is verified only in its own format.
  assert.equal(verify(der.toString('hex'), 'sample', 'compact'), false);
  assert.equal(verify(compact.toString('hex'), 'sample', 'der'), false);
});

test('lowS: true normalises s to the lower half, and both halves verify', () => {
  const low = ecdsaP256Sign({ privateKey: RFC6979_KEY, message: 'sample', prehash: 'sha256', format: 'compact', encoding: 'hex', lowS: true });
  const s = BigInt('0x' + low.slice(64));
  assert.equal(low.slice(0, 64), RFC6979_SAMPLE.r);
  assert.equal(s, N - BigInt('0x' + RFC6979_SAMPLE.s));
  assert.equal(verify(low, 'sample'), true);
  assert.equal(verify(RFC6979_SAMPLE.r + RFC6979_SAMPLE.s, 'sample'), true, 'high-s accepted');
});

test('prehash none signs a 32-byte digest and equals prehash sha256 of the message', async () => {
  const { sha256 } = await import('@noble/hashes/sha2.js');
  const digest = sha256(new TextEncoder().encode('sample'));
  const sig = ecdsaP256Sign({ privateKey: RFC6979_KEY, message: digest, prehash: 'none', format: 'compact', encoding: 'hex' });
  assert.equal(sig, RFC6979_SAMPLE.r + RFC6979_SAMPLE.s);
  assert.throws(() => ecdsaP256Sign({ privateKey: RFC6979_KEY, message: 'sample', prehash: 'none', format: 'compact', encoding: 'hex' }), /32-byte/);
});

test('interoperates with node:crypto (OpenSSL): PEM public key, DER and P1363 signatures both ways', () => {
  const pem = ecdsaP256PublicKey(RFC6979_KEY, 'pem');
  assert.match(pem, /^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+\n-----END PUBLIC KEY-----\n$/);
  assert.doesNotMatch(pem, /\r/);
  const nodePub = createPublicKey(pem);
  const message = Buffer.from('{"loginPayload":true}');
  const der = Buffer.from(ecdsa(message.toString(), 'der', 'base64'), 'base64');
  assert.equal(nodeVerify('sha256', message, { key: nodePub, dsaEncoding: 'der' }, der), true);
  const compact = Buffer.from(ecdsa(message.toString(), 'compact', 'base64url'), 'base64url');
  assert.equal(nodeVerify('sha256', message, { key: nodePub, dsaEncoding: 'ieee-p1363' }, compact), true);

  const b64u = (hex: string) => Buffer.from(hex, 'hex').toString('base64url');
  const nodeKey = createPrivateKey({
    format: 'jwk',
    key: { kty: 'EC', crv: 'P-256', d: b64u(RFC6979_KEY), x: b64u(RFC6979_PUB.slice(2, 66)), y: b64u(RFC6979_PUB.slice(66)) },
  });
  for (let i = 0; i < 8; i++) {
    // OpenSSL's signatures are random and high-s about half the time: all must verify.
    const m = `message ${i}`;
    const sDer = nodeSign('sha256', Buffer.from(m), { key: nodeKey, dsaEncoding: 'der' });
    const sRaw = nodeSign('sha256', Buffer.from(m), { key: nodeKey, dsaEncoding: 'ieee-p1363' });
    assert.equal(ecdsaP256Verify({ publicKey: pem, message: m, signature: sDer, prehash: 'sha256', format: 'der', encoding: 'hex' }), true);
    assert.equal(verify(sRaw.toString('hex'), m, 'compact', 'hex', pem), true);
  }
});

test('private keys: hex (with or without 0x) or 32 bytes; errors never quote the key', () => {
  const bytes = Buffer.from(RFC6979_KEY, 'hex');
  assert.equal(ecdsaP256PublicKey('0x' + RFC6979_KEY.toUpperCase()), RFC6979_PUB);
  assert.equal(ecdsaP256PublicKey(new Uint8Array(bytes)), RFC6979_PUB);
  const secretish = 'deadbeef' + 'x'.repeat(56);
  for (const bad of [secretish, RFC6979_KEY.slice(2), '-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----', '0'.repeat(64)]) {
    assert.throws(() => ecdsaP256PublicKey(bad), (e: Error) => /P-256 private key/.test(e.message) && !e.message.includes(bad));
  }
  assert.throws(() => ecdsaP256PublicKey(secretish), (e: Error) => !e.message.includes('deadbeef'));
});

test('key files are read by node:crypto: PEM (PKCS#8 and SEC1), DER and JWK give the same key as its hex', () => {
  const point = Buffer.from(RFC6979_PUB, 'hex');
  const b64 = (b: Buffer) => b.toString('base64url');
  const key = createPrivateKey({ key: { kty: 'EC', crv: 'P-256', d: b64(Buffer.from(RFC6979_KEY, 'hex')), x: b64(point.subarray(1, 33)), y: b64(point.subarray(33)) }, format: 'jwk' });
  const forms: Array<string | Uint8Array> = [
    key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    key.export({ type: 'sec1', format: 'pem' }).toString(),
    new Uint8Array(key.export({ type: 'pkcs8', format: 'der' })),
    new Uint8Array(key.export({ type: 'sec1', format: 'der' })),
    JSON.stringify(key.export({ format: 'jwk' })),
  ];
  for (const f of forms) assert.equal(ecdsaP256PublicKey(f), RFC6979_PUB);
  // The public PEM it writes is OpenSSL's own, and reads back to the same point.
  assert.equal(createPublicKey(ecdsaP256PublicKey(RFC6979_KEY, 'pem')).export({ format: 'jwk' }).x, createPublicKey(key).export({ format: 'jwk' }).x);
});

test('makeSigner binds profile settings to a secret', () => {
  const h = makeSigner({ kind: 'hmac', hash: 'sha256', encoding: 'hex' }, RFC4231_KEY);
  assert.equal(h.kind, 'hmac');
  assert.equal(h.sign(RFC4231_DATA), RFC4231_SHA256);
  assert.equal(h.publicKey, undefined);

  const e = makeSigner({ kind: 'ecdsa-p256', prehash: 'sha256', format: 'compact', encoding: 'hex' }, RFC6979_KEY);
  assert.equal(e.kind, 'ecdsa-p256');
  assert.equal(e.sign('sample'), RFC6979_SAMPLE.r + RFC6979_SAMPLE.s);
  assert.equal(e.publicKey?.(), RFC6979_PUB);
  assert.match(e.publicKey?.('pem') ?? '', /BEGIN PUBLIC KEY/);

  assert.throws(() => makeSigner({ kind: 'ecdsa-p256', prehash: 'sha256', format: 'der', encoding: 'hex' }, 'short'), /64 hex digits/);
  assert.throws(() => makeSigner({ kind: 'rsa' } as never, 'x'), /unknown kind/);
});

test('signerSchema accepts the Signer settings and refuses others', () => {
  const validate = makeAjv().compile(signerSchema);
  assert.equal(validate({ kind: 'hmac', hash: 'sha512', encoding: 'base64' }), true);
  assert.equal(validate({ kind: 'ecdsa-p256', prehash: 'sha256', format: 'der', encoding: 'base64url', lowS: true }), true);
  assert.equal(validate({ kind: 'hmac', hash: 'md5', encoding: 'hex' }), false);
  assert.equal(validate({ kind: 'ecdsa-p256', prehash: 'sha256', encoding: 'hex' }), false, 'format missing');
  assert.equal(validate({ kind: 'hmac', hash: 'sha256', encoding: 'hex', format: 'der' }), false, 'unknown field');
});

test('a signature registered with Secrets.add never shows in redacted text', () => {
  const secrets = new Secrets();
  const signer = makeSigner({ kind: 'hmac', hash: 'sha256', encoding: 'base64' }, RFC4231_KEY);
  const sig = signer.sign(RFC4231_DATA);
  secrets.add('hmacSignature', sig);
  const line = `GET /login BX-SIGNATURE: ${sig}`;
  assert.ok(!secrets.redact(line).includes(sig));
  assert.equal(secrets.expand(secrets.redact(line)), line);
});
