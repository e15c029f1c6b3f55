/**
 * The exchange-session suite against a target it reaches as a live deployment: the embedded reference behind a
 * recording proxy, with a pool of API keys in environment variables, the way a user points the harness at a sandbox.
 * A profile without writes must send no order and no cancel at all; with writes, every order left resting is
 * cancelled, and the sandbox's base URL that already ends with /trading-api is joined without doubling it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { start } from '../../mocks/exchange-session/server.ts';
import { ecdsaP256PublicKey } from '../../harness/signing.ts';
import { exchangeSessionEntry, type ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';
import { conformance, freshDir, readSummary, requirement, withStatus, startProxy, type Proxy, type Ran } from './helpers.ts';

const PRIVATE_KEY = '1f2e3d4c5b6a79880716253443526170ffeeddccbbaa99887766554433221100';
/** The title of the whitelist check, for --grep: the runs below judge it alone. */
const WHITELIST_TEST = "IP whitelist is refused";

function settings(): ExchangeSessionSettings {
  const s = Value.Default(exchangeSessionEntry().properties.settings, {}) as ExchangeSessionSettings;
  s.paths.command = '/trading-api/v2/command';
  s.paths.custody = '/trading-api/v1/wallets/limits/BTC';
  return s;
}

/**
 * A reference as a live target (no proxy: the checks here count no request) with the pool's keys registered: one of
 * each type, and an HMAC key whitelisted for an address the harness never sends from.
 */
async function deployment(o: { readings?: Record<string, string>; fault?: string } = {}): Promise<{ url: string; env: NodeJS.ProcessEnv; close(): Promise<void> }> {
  const server = await start({ settings: settings(), reference: o.readings ? { readings: o.readings } : {}, secrets: {}, host: '127.0.0.1', port: 0, ...(o.fault ? { fault: o.fault } : {}) });
  const hmac = await createKey(server.url, { type: 'HMAC' });
  const ecdsa = await createKey(server.url, { type: 'ECDSA', publicKey: ecdsaP256PublicKey(PRIVATE_KEY, 'pem') });
  const far = await createKey(server.url, { type: 'HMAC', whitelist: ['192.0.2.1'] });
  const env = { TEST_EX_HMAC_KEY: hmac.publicKey, TEST_EX_HMAC_SECRET: hmac.secret, TEST_EX_ECDSA_KEY: PRIVATE_KEY, TEST_EX_ECDSA_METADATA: ecdsa.metadata, TEST_EX_FAR_KEY: far.publicKey, TEST_EX_FAR_SECRET: far.secret };
  return { url: server.url, env, close: () => server.close() };
}

async function createKey(url: string, body: Record<string, unknown>): Promise<Record<string, string>> {
  const r = await fetch(`${url}/__reference/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(r.status, 200);
  return (await r.json()) as Record<string, string>;
}

function profile(name: string, baseUrl: string, writes: boolean, extra = ''): string {
  const file = path.join(freshDir('profile'), `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      `writes: ${writes}`,
      'requestTimeoutMs: 3000',
      'interfaces:',
      '  exchange-session:',
      `    baseUrl: ${baseUrl}`,
      '    credentials:',
      '      keys:',
      '        - { type: hmac, publicKey: TEST_EX_HMAC_KEY, secret: TEST_EX_HMAC_SECRET }',
      '        - { type: ecdsa, privateKey: TEST_EX_ECDSA_KEY, metadata: TEST_EX_ECDSA_METADATA }',
      '        - { type: hmac, publicKey: TEST_EX_FAR_KEY, secret: TEST_EX_FAR_SECRET, whitelistExcludesHarness: true }',
      '    settings:',
      '      paths: { command: /trading-api/v2/command, custody: /trading-api/v1/wallets/limits/BTC }',
      extra,
    ].join('\n'),
  );
  return file;
}

describe('exchange-session against a live target with a key pool', () => {
  let reference: { url: string; close(): Promise<void> };
  let proxy: Proxy;
  const env: NodeJS.ProcessEnv = {};
  before(async () => {
    reference = await start({ settings: settings(), reference: {}, secrets: {}, host: '127.0.0.1', port: 0 });
    const hmac = await createKey(reference.url, { type: 'HMAC' });
    const ecdsa = await createKey(reference.url, { type: 'ECDSA', publicKey: ecdsaP256PublicKey(PRIVATE_KEY, 'pem') });
    // Whitelisted for an address the harness never sends from.
    const far = await createKey(reference.url, { type: 'HMAC', whitelist: ['192.0.2.1'] });
    Object.assign(env, {
      TEST_EX_HMAC_KEY: hmac.publicKey,
      TEST_EX_HMAC_SECRET: hmac.secret,
      TEST_EX_ECDSA_KEY: PRIVATE_KEY,
      TEST_EX_ECDSA_METADATA: ecdsa.metadata,
      TEST_EX_FAR_KEY: far.publicKey,
      TEST_EX_FAR_SECRET: far.secret,
    });
    proxy = await startProxy(reference.url);
  });
  after(async () => {
    await proxy.close();
    await reference.close();
  });

  describe('a profile that does not allow writes', () => {
    let run: Ran;
    before(async () => {
      proxy.seen.length = 0;
      run = await conformance(['--target', profile('exchange-read-only', proxy.url, false), '--interfaces', 'exchange-session', '--seed', '11'], env);
    }, { timeout: 120_000 });

    test('sends no order, no cancel and no other write: the only POST is the ECDSA login', () => {
      const posts = proxy.seen.filter((r) => r.method === 'POST').map((r) => r.path.split('?')[0]);
      assert.ok(proxy.seen.length > 10, `the run reached the target (${proxy.seen.length} requests)`);
      assert.deepEqual([...new Set(posts)], ['/trading-api/v2/users/login'], run.out.slice(-2000));
    });

    test('passes, with the writing checks not applicable and the logins, the whitelist and the reads judged', () => {
      const s = readSummary(run.reports);
      assert.equal(run.code, 0, run.out.slice(-3000));
      for (const id of ['A-NONCE-IN-RANGE', 'A-NONCE-CONCURRENT', 'A-ORDER-ACK', 'A-TIF-GTC']) assert.equal(requirement(s, id).status, 'not-applicable', id);
      for (const id of ['A-LOGIN-ECDSA-OK', 'A-LOGIN-HMAC-OK', 'A-LOGIN-WHITELIST', 'A-TOKEN-REQUIRED', 'A-NONCE-RANGE-DAY', 'A-KEY-SCOPE-HMAC']) assert.equal(requirement(s, id).status, 'passed', id);
      // The only requests that could change state are refused ones (none here: no order is sent without writes).
      assert.deepEqual(s.writes.filter((w) => !w.outcome), []);
    });
  });

  describe('a profile that allows writes, its base URL ending with /trading-api like the sandbox address', () => {
    let run: Ran;
    before(async () => {
      proxy.seen.length = 0;
      run = await conformance(['--target', profile('exchange-writes', `${proxy.url}/trading-api`, true, '      baseUrlCarries: /trading-api'), '--interfaces', 'exchange-session', '--seed', '11'], env);
    }, { timeout: 120_000 });

    test('passes; orders go to /trading-api/v2/orders once, never twice the prefix', () => {
      assert.equal(run.code, 0, run.out.slice(-3000));
      const paths = proxy.seen.map((r) => r.path.split('?')[0]);
      assert.ok(paths.includes('/trading-api/v2/orders'), 'orders were sent');
      assert.ok(!paths.some((p) => p.startsWith('/trading-api/trading-api')), `no doubled prefix: ${proxy.seen.filter((r) => r.path.startsWith('/trading-api/trading-api')).map((r) => `${r.method} ${r.path}`).join(', ')}`);
      const s = readSummary(run.reports);
      assert.deepEqual(withStatus(s, 'failed'), []);
      assert.equal(requirement(s, 'A-TIF-GTC').status, 'passed');
    });

    test('the resting GTC order is cancelled when the check ends, and the report says so', () => {
      const cancels = proxy.seen.filter((r) => r.method === 'POST' && r.path === '/trading-api/v2/command');
      assert.ok(cancels.length >= 1, 'a cancel was sent');
      const s = readSummary(run.reports);
      const undone = s.writes.filter((w) => w.undo);
      assert.ok(undone.length >= 1 && undone.every((w) => w.undone === true), JSON.stringify(undone));
    });
  });

  test('a whitelist-excluded key whose secret is wrong leaves A-LOGIN-WHITELIST inconclusive, never passed: its refusal is answered as a wrong signature is', async () => {
    // Our mistake in the profile, not the target enforcing the whitelist (issue 43).
    const run = await conformance(['--target', profile('exchange-far-key-wrong', proxy.url, false), '--interfaces', 'exchange-session', '--grep', WHITELIST_TEST, '--seed', '11'], { ...env, TEST_EX_FAR_SECRET: 'not-the-far-key-secret' });
    const r = requirement(readSummary(run.reports), 'A-LOGIN-WHITELIST');
    assert.equal(r.status, 'inconclusive', run.out.slice(-2000));
    assert.match(r.message ?? '', /secret nobody has/);
    assert.equal(run.code, 2, run.out.slice(-2000));
  });

  test('a wrong value in any key of the pool ends the run before any check, naming the key', async () => {
    // The pool's second key (ECDSA) with a private key the target never registered: our mistake, not the vendor's.
    const run = await conformance(['--target', profile('exchange-wrong-pool-key', proxy.url, false), '--interfaces', 'exchange-session', '--seed', '11'], { ...env, TEST_EX_ECDSA_KEY: 'aa'.repeat(32) });
    assert.equal(run.code, 2, run.out);
    assert.match(run.out, /cannot run: .*key2/);
    assert.doesNotMatch(run.out, /FAIL/);
  });
});

/**
 * A-LOGIN-WHITELIST against a live target: the harness cannot log in from inside the excluded key's whitelist, so the
 * key's refusal counts only where the target answers it otherwise than the same login signed with a secret nobody has
 * (the document shows no error codes). The default reading (403 outside the whitelist, 401 for a bad signature, the
 * signature checked first) passes in the read-only run above.
 */
describe('exchange-session: a whitelist-excluded key\'s refusal counts only where it is told from a wrong signature', () => {
  const judged = async (name: string, o: Parameters<typeof deployment>[0]) => {
    const d = await deployment(o);
    try {
      const run = await conformance(['--target', profile(name, d.url, false), '--interfaces', 'exchange-session', '--grep', WHITELIST_TEST, '--seed', '11'], d.env);
      return { run, r: requirement(readSummary(run.reports), 'A-LOGIN-WHITELIST') };
    } finally {
      await d.close();
    }
  };

  test('every refused login answered 401 alike: inconclusive, saying the target answers both refusals alike', async () => {
    const { run, r } = await judged('exchange-refusals-alike', { readings: { 'A-NS-LOGIN-REFUSAL-STATUS': 'all-unauthorized' } });
    assert.equal(r.status, 'inconclusive', run.out.slice(-2000));
    assert.match(r.message ?? '', /answers them alike/);
    assert.equal(run.code, 2);
  });

  test('the whitelist checked before the signature: a refusal for the address whatever the secret, inconclusive', async () => {
    const { run, r } = await judged('exchange-whitelist-first', { readings: { 'A-NS-LOGIN-CHECK-ORDER': 'whitelist-first' } });
    assert.equal(r.status, 'inconclusive', run.out.slice(-2000));
    assert.equal(run.code, 2);
  });

  test('a whitelist never enforced: the excluded key logs in, and the rule fails', async () => {
    const { run, r } = await judged('exchange-whitelist-unenforced', { fault: 'whitelist-unenforced' });
    assert.equal(r.status, 'failed', run.out.slice(-2000));
    assert.equal(run.code, 1);
  });
});
