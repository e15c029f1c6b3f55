/**
 * Acceptance tests of the commands themselves: their help, what they say to a name or token they do not know, a run
 * that tests nothing, and `npm run replay` answering "is it fixed?" without touching the report it replays from.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, scriptArgs } from '../../harness/paths.ts';
import { DEFAULT_PROFILE, loadProfile } from '../../harness/profile/load.ts';
import { INTERFACES, descriptorOf } from '../../scripts/interfaces.ts';
import { conformance, freshDir, readSummary, requirement, script } from './helpers.ts';

/** The file whose parseArgs reads a command's options, where it is not the command's own script. */
const OPTIONS_IN: Record<string, string> = { conformance: 'conformance-run' };

/** The options a script's parseArgs accepts, read from its source: its help must name each of them. */
function parsedOptions(name: string): string[] {
  const file = `scripts/${OPTIONS_IN[name] ?? name}.ts`;
  const source = readFileSync(path.join(ROOT, file), 'utf8');
  const names = [...source.matchAll(/'?([a-z][a-z-]*)'?: \{ type: '(?:string|boolean)'/g)].map((m) => `--${m[1]}`);
  assert.ok(names.length > 0, `found the options of ${file}`);
  return names;
}

describe('--help names every option, exit 0', () => {
  const expected = {
    conformance: ['--target', '--interfaces', '--depth', '--seed', '--strict', '--grep', '--replay', '--fault', '--workers', '--max-minutes', '--out', '--list', '--quiet', '--help', 'HARNESS_REPORT_DIR', 'CONFORMANCE_TARGET'],
    replay: ['--target', '--fault', '--no-fault', '--out', '--help'],
    reference: ['--fault', '--list-faults', '--port', '--profile', '--help'],
  } as const;
  for (const [name, words] of Object.entries(expected) as Array<[keyof typeof expected, readonly string[]]>) {
    test(`npm run ${name} -- --help`, { timeout: 30_000 }, async () => {
      const r = await script(name, ['--help']);
      assert.equal(r.code, 0, r.out);
      const missing = [...new Set([...words, ...parsedOptions(name)])].filter((w) => !new RegExp(`(^|[^\\w-])${w}(?![\\w-])`).test(r.out));
      assert.deepEqual(missing, [], `--help of ${name} does not name these:\n${r.out}`);
    });
  }
});

describe('a name or token the harness does not know: exit 2, and what it does know', () => {
  test('conformance --interfaces with an unknown name lists the interfaces covered', { timeout: 30_000 }, async () => {
    const r = await conformance(['--interfaces', 'no-such-interface']);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /unknown interface "no-such-interface"/);
    assert.match(r.out, /game-bridge, chat/);
  });

  test('reference with an unknown name', { timeout: 30_000 }, async () => {
    const unknown = await script('reference', ['no-such-interface']);
    assert.equal(unknown.code, 2, unknown.out);
    assert.match(unknown.out, /unified-exchange, usage-events, game-bridge, chat/);
  });

  test('a --replay token that is not one', { timeout: 30_000 }, async () => {
    const r = await conformance(['--interfaces', 'game-bridge', '--replay', 'not a token']);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /not a replay token/);
  });

});

describe('a run that decides nothing: exit 2', () => {
  test('a --replay token that matches no property of the run', { timeout: 60_000 }, async () => {
    const r = await conformance(['--interfaces', 'game-bridge', '--seed', '1', '--grep', 'GET /v2/status: 200', '--replay', 'no-such-property=3:1:0']);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /no test of this run has the property no-such-property/);
  });

  test('--grep that matches no test: nothing was tested, exit 2', { timeout: 60_000 }, async () => {
    const r = await conformance(['--interfaces', 'game-bridge', '--grep', 'no test of the harness is called this']);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /nothing was tested/);
    const s = readSummary(r.reports);
    assert.equal(s.exitCode, 2);
    assert.deepEqual(s.interfaces.flatMap((i) => i.requirements).filter((q) => ['passed', 'failed', 'flagged'].includes(q.status)), []);
  });
});

describe('--checks selects what is judged, and nothing more', () => {
  test('--checks negative-data-rejection judges GEN-REFUSAL-STATUS, not GEN-NO-5XX (not-a-server-error is not selected)', { timeout: 60_000 }, async () => {
    const r = await conformance(['--interfaces', 'game-bridge', '--seed', '1', '--checks', 'negative-data-rejection', '--grep', 'negative-data-rejection']);
    const s = readSummary(r.reports);
    const status = (id: string) => s.interfaces.flatMap((i) => i.requirements).find((q) => q.id === id)?.status;
    assert.equal(status('C-GEN-REFUSAL-STATUS'), 'passed', r.out);
    assert.equal(status('C-GEN-NO-5XX'), 'not-tested', r.out);
  });
});

describe('Playwright run in the command\'s own process or as a child of it', () => {
  test('both give the same verdicts and the same exit code (the child is the fallback where the runner cannot be called)', { timeout: 90_000 }, async () => {
    const args = ['--interfaces', 'game-bridge', '--seed', '1', '--grep', 'GET /v2/(status|players)'];
    const [inProcess, child] = [await conformance(args), await conformance(args, { HARNESS_PLAYWRIGHT_CHILD: '1' })];
    assert.equal(inProcess.code, 0, inProcess.out);
    assert.equal(child.code, inProcess.code, child.out);
    const verdicts = (dir: string) => readSummary(dir).interfaces.flatMap((i) => i.requirements.map((q) => `${q.id} ${q.status}`));
    assert.ok(verdicts(inProcess.reports).some((v) => v.endsWith(' passed')));
    assert.deepEqual(verdicts(child.reports), verdicts(inProcess.reports));
  });
});

/** Every file of a folder with its content's hash. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!f.isFile()) continue;
    const file = path.join(f.parentPath ?? (f as unknown as { path: string }).path, f.name);
    out[path.relative(dir, file)] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return out;
}

describe('npm run replay answers "is it fixed?"', () => {
  test('a failure against the faulted reference: still violated with the fault (1), conforms without it (0)', { timeout: 150_000 }, async (t) => {
    const original = freshDir('replay-original');
    const run = await conformance(['--target', 'targets/reference.yaml', '--interfaces', 'game-bridge', '--fault', 'game-bridge:players-count-truncated', '--seed', '1', '--out', original]);
    t.diagnostic(`the faulted run took ${run.ms} ms`);
    assert.equal(run.code, 1, run.out);
    const summary = readSummary(original);
    assert.deepEqual(summary.failedCounted, ['C-PLAYERS-COUNT-TOTAL']);
    const cassettes = readdirSync(path.join(original, 'cassettes', 'game-bridge'));
    assert.ok(cassettes.length > 0, 'the failure left a cassette');
    const cassette = path.join(original, 'cassettes', 'game-bridge', cassettes.find((f) => f.startsWith('C-PLAYERS-COUNT-TOTAL-') && f.endsWith('.json'))!);
    const before = snapshot(original);

    // One after the other: the machine's cores are shared.
    const again = await script('replay', [cassette, '--out', freshDir('replay-faulted')]);
    const fixed = await script('replay', [cassette, '--no-fault', '--out', freshDir('replay-fixed')]);
    t.diagnostic(`the replays took ${again.ms} and ${fixed.ms} ms`);
    assert.equal(again.code, 1, again.out);
    assert.match(again.out, /still fails/);
    assert.equal(fixed.code, 0, fixed.out);
    assert.match(fixed.out, /now passes/);
    for (const out of [again.out, fixed.out]) {
      const dir = /report: (\S+)conformance\/index\.html\)/.exec(out)?.[1];
      assert.ok(dir, `the replay names its report:\n${out}`);
      assert.notEqual(path.resolve(ROOT, dir), path.resolve(original), 'a replay reports into a folder of its own');
      readSummary(path.resolve(ROOT, dir));
    }
    assert.equal(requirement(readSummary(original), 'C-PLAYERS-COUNT-TOTAL').status, 'failed');
    assert.deepEqual(snapshot(original), before, 'the report the cassette comes from is untouched');
  });
});

describe("the README's `npm run reference -- <interface>`, for each of the six", () => {
  /** Starts the command, waits for what it prints before serving, asks its URL once, and stops it. */
  async function serve(name: string): Promise<{ out: string; answered: number; code: number | null }> {
    const child = spawn(process.execPath, scriptArgs('reference', [name]), { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // It serves once it has printed the template of the settings, the last thing it prints.
    const ready = new Promise<void>((resolve) =>
      child.stdout.on('data', (d) => {
        out += d;
        if (/The settings each field stands for[\s\S]*interfaces:/.test(out)) resolve();
      }),
    );
    const gone = exited.then((code) => assert.fail(`${name}: exit ${code} before serving\n${out}`));
    await Promise.race([ready, gone]);
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    assert.ok(url, out);
    const answered = (await fetch(url)).status;
    child.kill('SIGTERM');
    return { out, answered, code: await exited };
  }

  test('each starts, prints its URL and the credentials it needs, serves, and stops on Ctrl-C', { timeout: 60_000 }, async () => {
    const profile = loadProfile(DEFAULT_PROFILE);
    await Promise.all(
      INTERFACES.map(async (name) => {
        const { out, answered, code } = await serve(name);
        assert.ok(answered > 0, `${name}: its URL answers`);
        assert.equal(code, 0, `${name}: Ctrl-C (SIGTERM) stops it cleanly\n${out}`);
        assert.doesNotMatch(out, /\n\s+at /, `${name}: no stack trace\n${out}`);
        // What a client needs to be let in: the credentials the profile names, or those the reference makes itself.
        const needs = Boolean(profile.interfaces[name]?.credentials) || Boolean(descriptorOf(name).reference.issueCredentials);
        if (needs) assert.match(out, /^credential \S+.*: \S{8,}$/m, `${name}: prints its credentials\n${out}`);
      }),
    );
  });
});
