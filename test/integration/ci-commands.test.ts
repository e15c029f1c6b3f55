/**
 * The commands of examples/ci, run here against the embedded reference as the CI jobs run them: two shards, merged
 * with a baseline, --fail-on new and waivers; a nightly merge kept in a history with its trend; a recorded merge and
 * its verification. And every `npm run <command> -- --option` the examples write is one the command knows.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ed25519 } from '@noble/curves/ed25519.js';
import { ROOT } from '../../harness/paths.ts';
import { BRIDGE_SETTINGS, freshDir, readSummary, script } from './helpers.ts';

const EXAMPLES = path.join(ROOT, 'examples', 'ci');
const KEY = randomBytes(32).toString('hex');
const PUBLIC = Buffer.from(ed25519.getPublicKey(Buffer.from(KEY, 'hex'))).toString('hex');
const BRIDGE_KEY = 'bridge-key-for-the-ci-commands-test';
// One fault, a few checks: C-PLAYERS-COUNT-TOTAL fails in every run, which the baseline then already has.
const FAILING = 'C-PLAYERS-COUNT-TOTAL';
const RUN = ['--interfaces', 'game-bridge', '--fault', 'game-bridge:players-count-truncated', '--grep', 'GET /v2/', '--depth', 'quick', '--seed', '11'];

function stagingProfile(): string {
  const file = path.join(freshDir('profile'), 'staging.yaml');
  const lines = ['name: ci-staging', 'writes: true', 'requestTimeoutMs: 3000', 'recordSigningKey: TEST_RECORD_KEY', 'interfaces:', '  game-bridge:', '    reference: {}', '    credentials: { authKey: TEST_BRIDGE_KEY }', `    settings: ${JSON.stringify(BRIDGE_SETTINGS)}`];
  writeFileSync(file, lines.join('\n'));
  return file;
}

const ENV = { TEST_BRIDGE_KEY: BRIDGE_KEY, TEST_RECORD_KEY: KEY };

describe('the CI examples’ commands, run locally', () => {
  let profile: string;
  let shards: string[];
  let baseline: string;
  before(async () => {
    profile = stagingProfile();
    shards = [freshDir('shard-1'), freshDir('shard-2')];
    // The shard jobs run at the same time; their exit codes are ignored (the merge decides).
    await Promise.all(shards.map((out, i) => script('conformance', ['--target', profile, ...RUN, '--shard', `${i + 1}/2`, '--out', out], ENV)));
    // The main branch's gate: its merged summary is the next gates' baseline.
    const mainDir = freshDir('main');
    const main = await script('merge-reports', [...shards, '--out', mainDir], ENV);
    assert.equal(main.code, 1, main.out);
    baseline = path.join(mainDir, 'summary.json');
  });

  test('gate: the merged shards fail only on what the baseline does not have, with waivers applied and JUnit written', async () => {
    const waivers = path.join(freshDir('waivers'), 'waivers.yaml');
    writeFileSync(waivers, `waivers:\n  - { requirement: C-STATUS-200, reason: "vendor ticket 9", acceptedBy: qa-lead, expires: 2999-12-31 }\n`);
    const out = freshDir('merged');
    const gate = await script('merge-reports', [...shards, '--target', profile, '--out', out, '--baseline', baseline, '--fail-on', 'new', '--waivers', waivers], ENV);
    assert.equal(gate.code, 0, gate.out);
    const s = readSummary(out);
    assert.deepEqual(s.gate?.stillFailing, [`game-bridge:${FAILING}`]);
    assert.deepEqual(s.gate?.unusedWaivers.map((w) => w.requirement), ['C-STATUS-200']);
    assert.equal(s.mergedFrom?.length, 2);
    assert.match(readFileSync(path.join(out, 'junit.xml'), 'utf8'), /<testsuites/);
    assert.ok(existsSync(path.join(out, 'playwright', 'index.html')), "Playwright's merged report");
  });

  test('nightly: the merged run is kept in the history (once, however often it is merged) and the trend page is written', async () => {
    const history = freshDir('history');
    for (const night of ['night-1', 'night-1-merged-again']) {
      const out = freshDir(night);
      const r = await script('merge-reports', [...shards, '--out', out, '--history', history], ENV);
      assert.equal(r.code, 1, r.out);
      assert.ok(existsSync(path.join(out, 'trend', 'index.html')), r.out);
    }
    assert.equal(readdirSync(history).filter((f) => f.endsWith('.json')).length, 1);
  });

  test('vendor: a recorded merge is signed and verifies against this checkout, pinned to its signer', async () => {
    const out = freshDir('vendor');
    const r = await script('merge-reports', [...shards, '--target', profile, '--out', out, '--record'], ENV);
    assert.equal(r.code, 1, r.out);
    const record = path.join(out, 'acceptance', 'record.json');
    const v = await script('verify-record', [record, '--public-key', PUBLIC]);
    assert.equal(v.code, 0, v.out);
  });

  test('every npm run command and option the examples use is one the harness knows', async () => {
    const files = readdirSync(EXAMPLES, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /\.ya?ml$/.test(e.name));
    assert.ok(files.length >= 6);
    const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    const used = new Map<string, Set<string>>();
    for (const f of files) {
      // Folded YAML lines and shell continuations make one command of several lines.
      const text = readFileSync(path.join(f.parentPath, f.name), 'utf8').replace(/\\\n\s*/g, ' ');
      for (const m of text.matchAll(/npm run ([\w:-]+)(?: --)?([^\n|;&]*)/g)) {
        const options = used.get(m[1]) ?? new Set<string>();
        for (const o of m[2].matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)) options.add(o[1]);
        used.set(m[1], options);
      }
    }
    assert.ok(used.has('merge-reports') && used.has('conformance') && used.has('verify-record'), [...used.keys()].join(', '));
    for (const [name, options] of used) {
      assert.ok(scripts[name], `the examples run npm run ${name}, which package.json does not have`);
      if (!['conformance', 'merge-reports', 'verify-record'].includes(name)) continue;
      const help = await script(name as 'conformance', ['--help']);
      for (const o of options) assert.ok(help.out.includes(o), `npm run ${name} does not know ${o} (its --help does not list it)`);
    }
  });
});
