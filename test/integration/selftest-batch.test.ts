/**
 * The self-test makes run after run in one process (scripts/selftest-batch.ts): a run there must be what it would be
 * in a process of its own. Three runs in one batch process: a fault of one interface, then another interface without
 * a fault, then the first again without its fault. Each is judged on its own interface and its own fault only, writes
 * into its own folder, and gives the exit code a run of its own gives.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchSlot } from '../../scripts/selftest-batches.ts';
import type { RunSummary } from '../../harness/reporter/summary.ts';
import { freshDir } from './helpers.ts';

test('runs made one after another in one batch process keep nothing of each other', { timeout: 180_000 }, async () => {
  const dir = freshDir('selftest-batch');
  const slot = new BatchSlot();
  const run = async (name: string, args: string[]) => {
    const out = path.join(dir, name);
    const reply = await slot.run(['--seed', '7', '--quiet', '--workers', '1', ...args], { HARNESS_REPORT_DIR: out, CI: '', HARNESS_SELFTEST: '1' });
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')) as RunSummary;
    return { ...reply, summary };
  };
  try {
    const faulted = await run('faulted', ['--interfaces', 'exchange-session', '--grep', '@A-LOGIN-HMAC-SIGNATURE', '--fault', 'exchange-session:hmac-signature-unchecked']);
    assert.equal(faulted.code, 1, faulted.output);
    assert.deepEqual(faulted.summary.failedCounted, ['A-LOGIN-HMAC-SIGNATURE'], faulted.output);

    // Another interface: the config is evaluated again for it (its tests are selected), and no fault is carried over.
    const other = await run('other', ['--interfaces', 'chat', '--grep', '@E-LIMIT-ALLOWED']);
    assert.equal(other.code, 0, other.output);
    assert.deepEqual(other.summary.interfaces.map((i) => i.name), ['chat']);
    assert.equal(other.summary.fault, undefined);

    const again = await run('again', ['--interfaces', 'exchange-session', '--grep', '@A-LOGIN-HMAC-SIGNATURE']);
    assert.equal(again.code, 0, again.output);
    assert.equal(again.summary.fault, undefined);
    assert.match(again.output, /^conformance: /m, 'the run\'s console output comes back with it');
  } finally {
    slot.retire();
  }
});
