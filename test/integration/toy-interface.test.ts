/**
 * Adding an interface touches only its own folders and one registry line: in a copy of the repository,
 * `npm run new-interface` makes a seventh interface from the template (templates/new-interface, renamed to pet-store,
 * prefix S), one line goes into interfaces/registry.ts, and the self-test, --list, bench and the secret search pick it
 * up without any other edit. The copy's typecheck and import rules pass with it in: the template is proven as it is
 * copied, not only as it is kept.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT } from '../../harness/paths.ts';
import { INTERFACES } from '../../interfaces/registry.ts';

const NAME = 'pet-store';
const COPIED = ['interfaces', 'harness', 'mocks', 'suites', 'scripts', 'specs', 'targets', 'schemas', 'generated', 'templates', 'test/browser', 'package.json', 'tsconfig.json', 'playwright.config.ts', 'playwright.group.config.ts', 'playwright.report.config.ts', 'redocly.yaml', '.dependency-cruiser.cjs'];
let copy: string;

/** Every file under the given parts of a tree, relative to it. */
function filesOf(root: string, parts: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const full = path.join(root, rel);
    if (statSync(full).isDirectory()) for (const e of readdirSync(full)) walk(path.join(rel, e));
    else out.push(rel);
  };
  for (const p of parts) walk(p);
  return out.sort();
}

function runBin(bin: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(copy, 'node_modules', bin), ...args], { cwd: copy });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, out }));
  });
}

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
  const file = path.join(copy, 'suites', NAME, name);
  writeFileSync(file, source);
  try {
    return await run('conformance.ts', ['--target', `targets/reference-${NAME}.yaml`, '--quiet', ...args]);
  } finally {
    rmSync(file);
  }
}

describe('a seventh interface, made from the template, added in its own folders and one registry line', () => {
  before(async () => {
    copy = path.join(mkdtempSync(path.join(os.tmpdir(), 'toy-interface-')), 'main');
    for (const part of COPIED) cpSync(path.join(ROOT, part), path.join(copy, part), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    // Its own folders, from the template...
    const made = await run('new-interface.ts', [NAME, '--prefix', 'S', '--title', 'a pet store made from the template']);
    assert.equal(made.code, 0, made.out);
    // ...and its line in the registry, as the command prints it.
    const registry = path.join(copy, 'interfaces', 'registry.ts');
    const text = readFileSync(registry, 'utf8');
    const added = text.replace(/^export const DEFINITIONS = \[(.*)\] as const;$/m, "import { petStoreInterface } from './pet-store/definition.ts';\nexport const DEFINITIONS = [$1, petStoreInterface] as const;");
    assert.notEqual(added, text, 'the registry has its one list');
    assert.match(made.out, /import \{ petStoreInterface \} from '\.\/pet-store\/definition\.ts'/);
    writeFileSync(registry, added);
  });
  after(() => rmSync(path.dirname(copy), { recursive: true, force: true }));

  test('it touches its own folders and files, and the registry alone besides', () => {
    const before = new Set(filesOf(ROOT, COPIED));
    const after = filesOf(copy, COPIED);
    const own = new RegExp(`^(interfaces|suites|mocks)/${NAME}/|^specs/${NAME}\\.yaml$|^targets/reference-${NAME}\\.yaml$|^generated/${NAME}\\.ts$`);
    const added = after.filter((f) => !before.has(f));
    assert.deepEqual(added.filter((f) => !own.test(f.split(path.sep).join('/'))), [], 'files outside the interface\'s own');
    assert.ok(added.length >= 12, `the template's parts: ${added.join(', ')}`);
    const changed = after.filter((f) => before.has(f) && readFileSync(path.join(copy, f), 'utf8') !== readFileSync(path.join(ROOT, f), 'utf8'));
    assert.deepEqual(changed, [path.join('interfaces', 'registry.ts')]);
  });

  test('the copy typechecks, and its imports run one way with no loop', { timeout: 180_000 }, async () => {
    // The new interface's folders and the registry, with all they import: every other file is the repository's own,
    // which npm test typechecks already (the whole copy took twice the CPU time).
    const own = ['interfaces', 'suites', 'mocks'].map((d) => `${d}/${NAME}`);
    writeFileSync(path.join(copy, `tsconfig.${NAME}.json`), JSON.stringify({ extends: './tsconfig.json', include: [...own, `generated/${NAME}.ts`, 'interfaces/registry.ts'] }));
    const tsc = await runBin('typescript/bin/tsc', ['-p', `tsconfig.${NAME}.json`]);
    assert.equal(tsc.code, 0, tsc.out);
    const cruise = await runBin('dependency-cruiser/bin/dependency-cruise.mjs', ['interfaces', 'harness', 'suites', 'mocks', 'scripts', '--config', '.dependency-cruiser.cjs', '--output-type', 'err']);
    assert.equal(cruise.code, 0, cruise.out);
    assert.match(cruise.out, /no dependency violations/);
  });

  test('--list shows its requirements, the generic ones derived from its spec included', async () => {
    const r = await run('conformance.ts', ['--list', '--target', `targets/reference-${NAME}.yaml`]);
    assert.equal(r.code, 0, r.out);
    for (const id of ['S-PING-200', 'S-ECHO-SAME', 'S-GEN-AUTH', 'S-GEN-VALID-ACCEPTED']) assert.match(r.out, new RegExp(id));
  });

  test('the self-test runs its valid configuration and its faults, proves its pairs and searches for its credential', { timeout: 300_000 }, async () => {
    // Two slots, not the self-test's default ten: its dozen short runs would each start a batch process of their own,
    // and each load the copy's code cold, at the same time, on a machine the other unit tests share.
    // Without the environment runs: they judge the client against trouble, not what a new interface adds, and doubled
    // this test's time on a loaded machine (killed at its limit).
    const r = await run('selftest.ts', ['--interface', NAME, '--no-browser', '--jobs', '2', '--environment', 'none']);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /ok {3}valid reference-pet-store\.yaml/);
    assert.match(r.out, /ok {3}fault pet-store:pong-false/);
    assert.match(r.out, /ok {3}fault pet-store:echo-cut/);
    assert.match(r.out, /pairs the suites of pet-store claim is made to fail/);
    assert.match(r.out, /holds a credential \([^)]*PET_STORE_KEY/);
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
      "import { reqTags } from '../../harness/fixtures.ts';\nimport { test } from './test.ts';\n" +
        "test('a check that crashes', { tag: reqTags('S-GEN-NO-5XX') }, async () => {\n  (undefined as unknown as { x: number }).x;\n});\n",
    );
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /1 check broke .*a check that crashes: .*TypeError/);
  });

  test('a harness error after the answer arrived leaves the check inconclusive, exit 2, with the harness stack in the report', async () => {
    const r = await withSpecFile(
      'injected.spec.ts',
      "import { reqTags } from '../../harness/fixtures.ts';\nimport { test } from './test.ts';\n" +
        "test('recording breaks after the answer', { tag: reqTags('S-PING-200') }, async ({ api, verify }) => {\n" +
        "  (api.options as { onExchange?: () => void }).onExchange = () => { throw new TypeError('injected: recording broke'); };\n" +
        "  await verify('S-PING-200', async () => { await api.send({ method: 'GET', path: '/pet-store/ping', authenticate: true }); });\n" +
        '});\n',
      ['--out', 'reports/injected'],
    );
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /could not be decided \(S-PING-200\); first cause: harness error after GET .*TypeError: injected: recording broke/);
    const s = JSON.parse(readFileSync(path.join(copy, 'reports', 'injected', 'summary.json'), 'utf8')) as { interfaces: Array<{ requirements: Array<{ id: string; status: string; message?: string }> }> };
    const ping = s.interfaces[0].requirements.find((x) => x.id === 'S-PING-200');
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
