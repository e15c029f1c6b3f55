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
