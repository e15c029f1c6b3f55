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

/**
 * Runs made as one group (scripts/conformance-group.ts: one Playwright invocation, its workers shared): each run keeps
 * its own references, state, report folder and exit code, and gives the verdicts it gives in a process of its own.
 * Two runs of one interface with different faults and one without: their references differ side by side in one
 * process, and the exchange-session logins each run caches are its own (harness/run-scoped.ts).
 */
test('runs made as one group give the verdicts they give alone, each its own', { timeout: 240_000 }, async () => {
  const dir = freshDir('selftest-group');
  const slot = new BatchSlot();
  const runs = [
    ['--interfaces', 'exchange-session', '--grep', '@A-LOGIN-HMAC-SIGNATURE|@A-ACCOUNTS', '--fault', 'exchange-session:hmac-signature-unchecked'],
    ['--interfaces', 'exchange-session', '--grep', '@A-LOGIN-HMAC-SIGNATURE|@A-ACCOUNTS'],
    ['--interfaces', 'game-bridge,exchange-session', '--grep', '@C-LOG-200|@A-LOGIN-HMAC-SIGNATURE', '--fault', 'game-bridge:log-202-accepted'],
  ].map((args) => ['--seed', '7', '--quiet', '--workers', '1', '--strict', ...args]);
  const env = (name: string) => ({ HARNESS_REPORT_DIR: path.join(dir, name), CI: '', HARNESS_SELFTEST: '1' });
  const summary = (name: string) => JSON.parse(readFileSync(path.join(dir, name, 'summary.json'), 'utf8')) as RunSummary;
  const verdicts = (s: RunSummary) => Object.fromEntries(s.interfaces.flatMap((i) => i.requirements.map((r) => [`${i.name} ${r.id}`, r.status])));
  try {
    const { replies } = await slot.runGroup(
      runs.map((args, i) => ({ args, env: env(`grouped-${i}`) })),
      2,
    );
    for (const [i, args] of runs.entries()) {
      const alone = await slot.run(args, env(`alone-${i}`));
      assert.equal(replies[i].code, alone.code, `${args.join(' ')}\n${replies[i].output}`);
      assert.deepEqual(verdicts(summary(`grouped-${i}`)), verdicts(summary(`alone-${i}`)), args.join(' '));
      assert.match(replies[i].output, /^conformance: /m, "each run's own last line comes back with it");
    }
    assert.deepEqual(summary('grouped-0').failedCounted, ['A-LOGIN-HMAC-SIGNATURE']);
    assert.deepEqual(summary('grouped-1').failedCounted, []);
    assert.deepEqual(summary('grouped-2').interfaces.map((i) => i.name).sort(), ['exchange-session', 'game-bridge']);
    assert.ok(summary('grouped-2').failedCounted.includes('C-LOG-200'));
    assert.notEqual(summary('grouped-0').runId, summary('grouped-1').runId);
  } finally {
    slot.retire();
  }
});
