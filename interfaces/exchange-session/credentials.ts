import type { PoolKeyEntry } from './settings.ts';

/** How a key signs: an HMAC secret or an ECDSA P-256 private key. */
export type KeyType = 'hmac' | 'ecdsa';

/** The pool's keys are secrets key1, key2, ... each with its parts (key1_publicKey, key1_secret). */
export const poolKeyName = (index: number) => `key${index + 1}`;

/** The pool as secret name -> environment variable (the definition's credentialVariables). */
export function poolVariables(pool: readonly PoolKeyEntry[]): Record<string, string> {
  const out: Record<string, string> = {};
  pool.forEach((k, i) => {
    const name = poolKeyName(i);
    if (k.type === 'hmac') {
      out[`${name}_publicKey`] = k.publicKey;
      out[`${name}_secret`] = k.secret;
    } else {
      out[`${name}_privateKey`] = k.privateKey;
      out[`${name}_metadata`] = k.metadata;
    }
  });
  return out;
}
