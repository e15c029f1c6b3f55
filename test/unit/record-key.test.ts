/** The record's signing key is taken as OpenSSL writes it (PEM) or as its 32-byte seed (hex, base64); nothing else. */
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ed25519 } from '@noble/curves/ed25519.js';
import { signingKeyFrom } from '../../harness/acceptance/record.ts';

test('a PEM Ed25519 key gives the seed whose public key is the PEM key\'s', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const seed = signingKeyFrom(privateKey.export({ format: 'pem', type: 'pkcs8' }) as string, 'RECORD_KEY');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  assert.deepEqual(Buffer.from(ed25519.getPublicKey(seed)), raw);
});

test('a seed in hex or base64 is taken; another kind of key or a short value is refused, naming the variable', () => {
  const seed = Buffer.alloc(32, 7);
  assert.deepEqual(Buffer.from(signingKeyFrom(seed.toString('hex'), 'K')), seed);
  assert.deepEqual(Buffer.from(signingKeyFrom(seed.toString('base64'), 'K')), seed);
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  assert.throws(() => signingKeyFrom(ec, 'RECORD_KEY'), /RECORD_KEY holds an ec key, not an Ed25519 one/);
  assert.throws(() => signingKeyFrom('abc', 'RECORD_KEY'), /RECORD_KEY does not hold an Ed25519 private key/);
});

test('the signed bytes are RFC 8785 canonical JSON: the RFC\'s own key-ordering and number examples', async () => {
  const { canonical } = await import('../../harness/acceptance/record.ts');
  // RFC 8785, 3.2.3: keys sorted by UTF-16 code units, whatever the script or plane.
  const keys = { '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' };
  assert.equal(canonical(keys), '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}');
  // RFC 8785, 3.2.2.3: numbers in ECMAScript's shortest form; no whitespace anywhere.
  assert.equal(canonical({ numbers: [333333333.33333329, 1e30, 4.5, 0.002, 1e-27], literals: [null, true, false] }), '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27]}');
});
