/**
 * API keys as identities. Nonce sequences are per key or per user (not shown), so a check that counts nonces needs a
 * key no other test is using. On the embedded reference the harness creates keys (its reference-only path: the
 * document shows none); against a live target the profile lists a pool, and a test leases the keys it uses
 * (`identity.lease`), waiting for one to come free.
 */
import { randomBytes } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import type { Identity } from '../../harness/fixtures.ts';
import type { Client } from '../../harness/http/client.ts';
import type { Secrets } from '../../harness/secrets.ts';
import type { Target } from '../../harness/targets.ts';
import { Inconclusive } from '../../harness/verdicts.ts';
import { needAccepted } from '../../harness/answers.ts';
import { ecdsaP256PublicKey } from '../../harness/signing.ts';
import type { KeyType } from '../../interfaces/exchange-session/credentials.ts';
import { poolKeyName } from '../../interfaces/exchange-session/credentials.ts';
import type { PoolKeyEntry } from '../../interfaces/exchange-session/settings.ts';
import { runScoped } from '../../harness/run-scoped.ts';

export { poolKeyName };

/** The reference-only path that creates a key (mocks/exchange-session). */
export const REFERENCE_KEY_PATH = '/__reference/api-keys';

export interface KeyContext {
  api: Client;
  secrets: Secrets;
  identity: Identity;
  target: Target;
  /** The profile's pool (credentials.keys), for live targets. */
  pool: readonly PoolKeyEntry[];
}

export interface KeyWish {
  type: KeyType;
  /** Reference: the whitelist the created key gets. Live: a pool key whose whitelist leaves the harness out. */
  whitelist?: string[];
  /** false: a key without trading permission (reference: created so; live: a pool key the profile marks `trading: false`). */
  trading?: false;
}

const created = runScoped(() => ({ count: 0 }));

/**
 * A key of the given type for this test alone, by its name in the run's secrets; undefined when a live profile lists
 * none free (the caller reports its checks not applicable: the pool is too small).
 */
export async function acquireKey(ctx: KeyContext, wish: KeyWish): Promise<string | undefined> {
  return ctx.target.reference ? createOnReference(ctx, wish) : leaseFromPool(ctx, wish);
}

async function createOnReference(ctx: KeyContext, wish: KeyWish): Promise<string> {
  const name = `ref${process.pid}n${++created().count}`;
  const privateKey = wish.type === 'ecdsa' ? Buffer.from(p256.utils.randomSecretKey()).toString('hex') : undefined;
  const body: Record<string, unknown> = { type: wish.type.toUpperCase(), name };
  if (privateKey) body.publicKey = ecdsaP256PublicKey(privateKey, 'pem');
  if (wish.whitelist) body.whitelist = wish.whitelist;
  if (wish.trading === false) body.trading = false;
  const r = await ctx.api.send<{ publicKey?: string; secret?: string; metadata?: string }>({ method: 'POST', path: REFERENCE_KEY_PATH, json: body, label: `create a ${wish.type.toUpperCase()} key on the reference` });
  needAccepted(r, `the reference's key creation (${wish.type.toUpperCase()})`, { why: 'the check needs a key of its own' });
  const k = r.json;
  if (!k) throw new Inconclusive('the reference created a key without answering its material');
  if (wish.type === 'hmac') {
    if (!k.publicKey || !k.secret) throw new Inconclusive('the reference created an HMAC key without publicKey and secret');
    ctx.secrets.add(`${name}_publicKey`, k.publicKey);
    ctx.secrets.add(`${name}_secret`, k.secret);
  } else {
    if (!k.metadata) throw new Inconclusive('the reference created an ECDSA key without metadata');
    ctx.secrets.add(`${name}_privateKey`, privateKey!);
    ctx.secrets.add(`${name}_metadata`, k.metadata);
  }
  return name;
}

async function leaseFromPool(ctx: KeyContext, wish: KeyWish): Promise<string | undefined> {
  const outside = wish.whitelist !== undefined;
  // A key without trading permission is leased only by a check that asks for one.
  const readOnly = wish.trading === false;
  const members = ctx.pool.flatMap((k, i) => (k.type === wish.type && Boolean(k.whitelistExcludesHarness) === outside && (k.trading === false) === readOnly ? [i] : []));
  if (members.length === 0) return undefined;
  const lease = await ctx.identity.lease(`exchange-key`, members);
  return lease ? poolKeyName(lease.index) : undefined;
}


/** A private key nobody registered: its signatures are "another key's". */
export function strangerKey(): string {
  return Buffer.from(p256.utils.randomSecretKey()).toString('hex');
}

/** A secret nobody was given. */
export function strangerSecret(): string {
  return randomBytes(24).toString('base64url');
}
