/**
 * The stream-proxy suite against a writable deployment it reaches as a live target (the reference, started by the
 * test): after a run, every configuration document reads back as it was before, and no user the harness created is
 * left; and when a run is killed half way, `npm run restore` puts back what it left behind.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { ROOT, scriptArgs } from '../../harness/paths.ts';
import { start } from '../../mocks/stream-proxy/server.ts';
import { PLANTED_SECRETS } from '../../mocks/stream-proxy/planted.ts';
import { streamProxyEntry, type StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';
import { conformance, freshDir, readSummary, script, sleep, startProxy, withStatus } from './helpers.ts';

const ADMIN = 'stream-live-admin-token-0123456789';
const USER = 'stream-live-user-token-0123456789';
const env = { TEST_PROXY_ADMIN: ADMIN, TEST_PROXY_USER: USER };

function settings(): StreamProxySettings {
  return Value.Default(streamProxyEntry().properties.settings, {
    documents: { main: { inConfig: '/config', scratch: '/conformance_note' }, sources: { inConfig: '/sources', scratch: '/conformance_note' }, apiProxy: { inConfig: '/api_proxy', scratch: '/conformance_note' } },
    targets: [{ name: 'main', id: 1 }, { name: 'backup', id: 2 }],
    inputId: 1,
    webPlayerTokenMs: 1500,
  }) as StreamProxySettings;
}

function profile(name: string, baseUrl: string): string {
  const file = path.join(freshDir('profile'), `${name}.yaml`);
  const s = settings();
  writeFileSync(
    file,
    [
      `name: ${name}`,
      'writes: true',
      'requestTimeoutMs: 3000',
      'interfaces:',
      '  stream-proxy:',
      `    baseUrl: ${baseUrl}`,
      '    credentials: { adminToken: TEST_PROXY_ADMIN, userToken: TEST_PROXY_USER }',
      `    settings: ${JSON.stringify({ documents: s.documents, targets: s.targets, inputId: s.inputId, webPlayerTokenMs: s.webPlayerTokenMs })}`,
    ].join('\n'),
  );
  return file;
}

async function get(url: string, p: string): Promise<{ status: number; json: unknown }> {
  const r = await fetch(`${url}${p}`, { headers: { authorization: `Bearer ${ADMIN}` } });
  return { status: r.status, json: await r.json().catch(() => undefined) };
}

/** A run of the tests matching `grep`, journalling into `journalDir`, in a process group of its own so that a kill reaches Playwright's workers too. */
function runToKill(file: string, grep: string, journalDir: string) {
  return spawn(process.execPath, [...scriptArgs('conformance'), '--target', file, '--interfaces', 'stream-proxy', '--grep', grep, '--workers', '1'], {
    cwd: ROOT,
    env: { ...process.env, ...env, HARNESS_JOURNAL_DIR: journalDir, HARNESS_REPORT_DIR: freshDir('reports'), HARNESS_QUIET: '1' },
    detached: true,
    stdio: 'ignore',
  });
}

/** What the test compares: the merged configuration, the api-proxy document and every user, by the reference's own account. */
async function state(url: string): Promise<unknown> {
  return { config: (await get(url, '/api/v1/config')).json, apiProxy: (await get(url, '/api/v1/config/apiproxy')).json, users: (await get(url, '/__reference/users')).json };
}

describe('stream-proxy against a writable deployment: everything the run changed is put back', () => {
  let reference: { url: string; close(): Promise<void> };
  const journalDir = freshDir('journal');
  before(async () => {
    reference = await start({ settings: settings(), reference: { webPlayerTokenMs: 1500, scanMs: 300, updateMs: 300 }, secrets: { adminToken: ADMIN, userToken: USER }, host: '127.0.0.1', port: 0 });
  });
  after(async () => reference.close());

  test('after a whole run, the documents read back as they were and no harness user remains', { timeout: 180_000 }, async () => {
    const was = await state(reference.url);
    const run = await conformance(['--target', profile('stream-writable', reference.url), '--interfaces', 'stream-proxy', '--seed', '5'], { ...env, HARNESS_JOURNAL_DIR: journalDir }, 170_000);
    const s = readSummary(run.reports);
    assert.deepEqual(withStatus(s, 'failed'), [], run.out.slice(-3000));
    assert.deepEqual(await state(reference.url), was);
  });

  test('a wrong user token ends the run before any check, naming it', async () => {
    const run = await conformance(['--target', profile('stream-wrong-user', reference.url), '--interfaces', 'stream-proxy', '--seed', '5'], { ...env, TEST_PROXY_USER: 'not-the-user-token' });
    assert.equal(run.code, 2, run.out);
    assert.match(run.out, /cannot run: .*refused the user token \(environment variable TEST_PROXY_USER\)/);
  });

  test('a run killed half way leaves changes that npm run restore puts back', { timeout: 180_000 }, async () => {
    const was = await state(reference.url);
    const file = profile('stream-killed', reference.url);
    const child = runToKill(file, 'revisions|proxy users', journalDir);
    // Half way: once the property has changed a document (its revision moved), not before.
    const first = JSON.stringify(was);
    // Until then, however long a loaded machine takes to start the run (a fixed count of polls could run out first).
    for (const until = Date.now() + 90_000; Date.now() < until && JSON.stringify(await state(reference.url)) === first; ) await sleep(50);
    await sleep(500);
    process.kill(-child.pid!, 'SIGKILL');
    await sleep(300);
    assert.notDeepEqual(await state(reference.url), was, 'the killed run had changed the deployment');
    // The journal holds the documents as they were, with the deployment's own secret (the provider password) redacted.
    const journal = readdirSync(journalDir).map((f) => readFileSync(path.join(journalDir, f), 'utf8')).join('\n');
    assert.match(journal, /\{\{secret:target_password\}\}/);
    assert.ok(!journal.includes(PLANTED_SECRETS.providerPassword), 'the provider password is not in the journal');
    const restore = await script('restore', ['--target', file], { ...env, HARNESS_JOURNAL_DIR: journalDir }, 60_000);
    assert.equal(restore.code, 0, restore.out);
    assert.deepEqual(await state(reference.url), was, restore.out);
  });

  test('a run killed right after the bouquet save is put back by npm run restore (a proxy holds the read-back)', { timeout: 120_000 }, async () => {
    const bouquet = async () => (await fetch(`${reference.url}/api/v1/user/playlist/bouquet`, { headers: { authorization: `Bearer ${USER}` } })).json();
    const was = await bouquet();
    let saved = false;
    // Everything after the harness's save hangs: the run is killed with the bouquet changed and not yet saved back.
    const proxy = await startProxy(reference.url, async (req, forward) => {
      if (saved) return 'hang';
      const answer = await forward();
      if (req.method === 'POST' && req.path.endsWith('/user/playlist/bouquet')) saved = true;
      return answer;
    });
    const dir = freshDir('journal-bouquet');
    const file = profile('stream-bouquet-killed', proxy.url);
    const child = runToKill(file, 'saves a bouquet', dir);
    try {
      for (const until = Date.now() + 90_000; Date.now() < until && !saved; ) await sleep(50);
      assert.ok(saved, 'the run saved a bouquet');
      await sleep(200);
      process.kill(-child.pid!, 'SIGKILL');
      await sleep(300);
      assert.notDeepEqual(await bouquet(), was, 'the killed run had changed the bouquet');
      saved = false;
      const restore = await script('restore', ['--target', file], { ...env, HARNESS_JOURNAL_DIR: dir }, 60_000);
      assert.equal(restore.code, 0, restore.out);
      assert.deepEqual(await bouquet(), was, restore.out);
    } finally {
      await proxy.close();
    }
  });
});
