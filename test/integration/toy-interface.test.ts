/**
 * Adding an interface touches only its own folders and one registry line: a seventh, toy interface (the fixture in
 * test/fixtures/toy-interface) is dropped into a copy of the repository, and the self-test, --list, bench and the
 * secret search pick it up without any other edit.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT } from '../../harness/paths.ts';
import { INTERFACES } from '../../harness/registry.ts';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'toy-interface');
let copy: string;

function run(script: string, args: string[], timeoutMs = 240_000): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(copy, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(copy, 'scripts', script), ...args], {
      cwd: copy,
      env: { ...process.env, HARNESS_REPORT_DIR: '', HARNESS_PROFILE: '', CI: '' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, out });
    });
  });
}

/** Runs conformance against the toy reference with one more spec file in its suite folder, removed afterwards. */
async function withSpecFile(name: string, source: string, args: string[] = []): Promise<{ code: number; out: string }> {
  const file = path.join(copy, 'suites', 'toy', name);
  writeFileSync(file, source);
  try {
    return await run('conformance.ts', ['--target', 'targets/reference-toy.yaml', '--quiet', ...args]);
  } finally {
    rmSync(file);
  }
}

describe('a seventh, toy interface added in its own folders and one registry line', () => {
  before(() => {
    copy = path.join(mkdtempSync(path.join(os.tmpdir(), 'toy-interface-')), 'main');
    for (const part of ['harness', 'mocks', 'suites', 'scripts', 'specs', 'targets', 'schemas', 'generated', 'test/browser', 'package.json', 'tsconfig.json', 'playwright.config.ts', 'playwright.report.config.ts', 'redocly.yaml']) {
      cpSync(path.join(ROOT, part), path.join(copy, part), { recursive: true });
    }
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    // Its own folders...
    cpSync(FIXTURE, copy, { recursive: true });
    // ...and its line in the registry.
    const registry = path.join(copy, 'harness', 'registry.ts');
    const text = readFileSync(registry, 'utf8');
    const added = text.replace(/^export const REGISTRY = \[(.*)\] as const;$/m, "import { toy } from '../suites/toy/interface.ts';\nexport const REGISTRY = [$1, toy] as const;");
    assert.notEqual(added, text, 'the registry has its one list');
    writeFileSync(registry, added);
  });
  after(() => rmSync(path.dirname(copy), { recursive: true, force: true }));

  test('--list shows its requirements, the generic ones derived from its spec included', async () => {
    const r = await run('conformance.ts', ['--list', '--target', 'targets/reference-toy.yaml']);
    assert.equal(r.code, 0, r.out);
    for (const id of ['T-PING-200', 'T-GEN-AUTH', 'T-GEN-VALID-ACCEPTED']) assert.match(r.out, new RegExp(id));
  });

  test('the self-test runs its valid configuration and its faults, proves its pairs and searches for its credential', { timeout: 300_000 }, async () => {
    const r = await run('selftest.ts', ['--only', 'toy', '--no-browser']);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /ok {3}valid reference-toy\.yaml/);
    assert.match(r.out, /ok {3}fault toy:pong-false/);
    assert.match(r.out, /pairs the suites of toy claim is made to fail/);
    assert.match(r.out, /holds a credential \([^)]*TOY_KEY/);
  });

  test('a suite file that does not load stops the run with exit 2 and its cause printed, not "does --grep match"', async () => {
    const r = await withSpecFile('broken.spec.ts', 'const x: = 1;\n');
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /the run could not start: SyntaxError: .*broken\.spec\.ts/);
    assert.doesNotMatch(r.out, /does --grep match/);
  });

  test('a check that crashes exits 2 although it claims only a should', async () => {
    const r = await withSpecFile(
      'crash.spec.ts',
      "import { test, reqTags } from '../../harness/fixtures.ts';\n" +
        "test('a check that crashes', { tag: reqTags('T-GEN-NO-5XX') }, async () => {\n  (undefined as unknown as { x: number }).x;\n});\n",
    );
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /1 check broke .*a check that crashes: .*TypeError/);
  });

  test('a harness error after the answer arrived leaves the check inconclusive, exit 2, with the harness stack in the report', async () => {
    const r = await withSpecFile(
      'injected.spec.ts',
      "import { test, reqTags } from '../../harness/fixtures.ts';\n" +
        "test('recording breaks after the answer', { tag: reqTags('T-PING-200') }, async ({ api, verify }) => {\n" +
        "  (api.options as { onExchange?: () => void }).onExchange = () => { throw new TypeError('injected: recording broke'); };\n" +
        "  await verify('T-PING-200', async () => { await api.send({ method: 'GET', path: '/toy/ping', authenticate: true }); });\n" +
        '});\n',
      ['--out', 'reports/injected'],
    );
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /could not be decided \(T-PING-200\); first cause: harness error after GET .*TypeError: injected: recording broke/);
    const s = JSON.parse(readFileSync(path.join(copy, 'reports', 'injected', 'summary.json'), 'utf8')) as { interfaces: Array<{ requirements: Array<{ id: string; status: string; message?: string }> }> };
    const ping = s.interfaces[0].requirements.find((x) => x.id === 'T-PING-200');
    assert.equal(ping?.status, 'inconclusive');
    assert.match(ping?.message ?? '', /TypeError: injected: recording broke\n\s+at /);
  });

  test('bench validates its documented responses too', { timeout: 120_000 }, async () => {
    const r = await run('bench.ts', ['--skip-run', '--seconds', '0.2']);
    assert.equal(r.code, 0, r.out);
    // Every registered spec documents response bodies; the toy's is one more.
    assert.match(r.out, new RegExp(`of ${INTERFACES.length + 1} specs`));
  });
});
