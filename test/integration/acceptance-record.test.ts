/**
 * The vendor acceptance record (npm run conformance -- --record): a genuine record passes npm run verify-record; one
 * edited by a single byte, one checked against a changed spec, and one signed by a key other than the pinned one fail
 * it; and the signing key appears nowhere in what the run wrote.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ed25519 } from '@noble/curves/ed25519.js';
import { verifyRecord, type SignedRecord } from '../../harness/acceptance/record.ts';
import { ROOT } from '../../harness/paths.ts';
import { BRIDGE_SETTINGS, conformance, freshDir, script } from './helpers.ts';

const KEY = randomBytes(32).toString('hex');
const PUBLIC = Buffer.from(ed25519.getPublicKey(Buffer.from(KEY, 'hex'))).toString('hex');

function profile(withKey: boolean): string {
  const file = path.join(freshDir('profile'), 'recorded.yaml');
  const lines = ['name: recorded-acceptance', 'writes: true', 'requestTimeoutMs: 3000', ...(withKey ? ['recordSigningKey: TEST_RECORD_KEY'] : []), 'interfaces:', '  game-bridge:', '    reference: {}', '    credentials: { authKey: TEST_BRIDGE_KEY }', `    settings: ${JSON.stringify(BRIDGE_SETTINGS)}`];
  writeFileSync(file, lines.join('\n'));
  return file;
}

describe('the signed acceptance record', () => {
  let record: string;
  let reports: string;
  before(async () => {
    const run = await conformance(['--target', profile(true), '--interfaces', 'game-bridge', '--seed', '1', '--grep', 'GET /v2/status', '--record'], { TEST_RECORD_KEY: KEY, TEST_BRIDGE_KEY: 'bridge-key-for-the-record-test' });
    assert.equal(run.code, 0, run.out);
    reports = run.reports;
    record = path.join(reports, 'acceptance', 'record.json');
    assert.match(run.out, new RegExp(`signed by Ed25519 public key ${PUBLIC}`));
  });

  test('an untouched record is genuine when its signer is pinned; without a pinned signer its signature is valid, no more', async () => {
    const [r, unpinned] = await Promise.all([script('verify-record', [record, '--public-key', PUBLIC]), script('verify-record', [record])]);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /is genuine/);
    assert.equal(unpinned.code, 0, unpinned.out);
    assert.match(unpinned.out, /signature valid, signer not pinned/);
    assert.doesNotMatch(unpinned.out, /genuine/);
    const signed = JSON.parse(readFileSync(record, 'utf8')) as SignedRecord;
    assert.equal(signed.record.profile.name, 'recorded-acceptance');
    assert.ok(signed.record.requirements.some((q) => q.id === 'C-STATUS-200' && q.status === 'passed' && q.source.length > 0));
    assert.ok(readFileSync(path.join(reports, 'acceptance', 'record.html'), 'utf8').includes('C-STATUS-200'));
  });

  test('one byte changed fails it', async () => {
    const text = readFileSync(record, 'utf8');
    const at = text.indexOf('"passed"') + 2;
    const edited = path.join(freshDir('edited'), 'record.json');
    writeFileSync(edited, text.slice(0, at) + (text[at] === 'a' ? 'b' : 'a') + text.slice(at + 1));
    const r = await script('verify-record', [edited]);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /changed after it was signed/);
  });

  test('a spec changed since fails it, naming the spec', () => {
    const root = freshDir('checkout');
    mkdirSync(path.join(root, 'specs'));
    cpSync(path.join(ROOT, 'specs', 'game-bridge.yaml'), path.join(root, 'specs', 'game-bridge.yaml'));
    const signed = JSON.parse(readFileSync(record, 'utf8')) as SignedRecord;
    assert.deepEqual(verifyRecord(signed, root), []);
    writeFileSync(path.join(root, 'specs', 'game-bridge.yaml'), `${readFileSync(path.join(root, 'specs', 'game-bridge.yaml'), 'utf8')}\n# changed\n`);
    assert.match(verifyRecord(signed, root).join('\n'), /specs\/game-bridge\.yaml \(game-bridge\) differs/);
  });

  test('another signer than the pinned key fails it', async () => {
    const other = Buffer.from(ed25519.getPublicKey(randomBytes(32))).toString('hex');
    const r = await script('verify-record', [record, '--public-key', other]);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /not by the key given/);
  });

  test('the signing key is nowhere in the reports', () => {
    for (const entry of readdirSync(reports, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      assert.ok(!readFileSync(path.join(entry.parentPath, entry.name), 'latin1').toLowerCase().includes(KEY), `${entry.name} holds the signing key`);
    }
  });

  test('--record without a key stops before the run, with the reason', async () => {
    const r = await conformance(['--target', profile(false), '--interfaces', 'game-bridge', '--record'], { TEST_BRIDGE_KEY: 'x' });
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /names no recordSigningKey/);
  });
});
