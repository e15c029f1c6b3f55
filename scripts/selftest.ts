/**
 * npm run selftest: proves the suites against the embedded reference.
 *  - every valid configuration (targets/reference*.yaml) must pass, shoulds included (--strict);
 *  - every seeded fault must make the run fail, and the failed requirements must include those the fault names.
 * One run per fault, limited to the tests tagged with the fault's requirements, at a fixed seed, a few at a time.
 * Ends with the browser check of one fault run's conformance report.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Fault } from '../mocks/types.ts';
import { ROOT } from '../harness/paths.ts';
import { INTERFACES, REGISTRY } from '../harness/registry.ts';
import { loadSpec } from '../harness/spec/load.ts';
import type { RunSummary } from '../harness/reporter/summary.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' }, // a substring of run names, to iterate on a few
    seed: { type: 'string', default: '20261123' },
    // Chat's runs mostly sit out windows, so one more run than there are cores keeps both cores busy.
    jobs: { type: 'string', default: String(os.availableParallelism() + 1) },
    'no-browser': { type: 'boolean' },
  },
});
const SELFTEST_DIR = path.join(ROOT, 'reports', 'selftest');
// A key known to the self-test, so that it can look for it, in any letter case or cut short, in everything written.
const KEY = `SelfTest-Key-${randomBytes(9).toString('base64url')}`;

interface Run {
  name: string;
  args: string[];
  judge: (code: number, summary: RunSummary | undefined) => string | undefined;
}

const failedIds = (s: RunSummary) => s.interfaces.flatMap((i) => i.requirements.filter((r) => r.status === 'failed').map((r) => r.id));

// A check that cannot fail is a defect: every requirement a test claims (its tags) is named by a seeded fault,
// except advisories, which never fail: the default configuration must show them flagged instead.
const claimed = claimedRequirements();
const proven = new Set(REGISTRY.flatMap((d) => d.reference.faults.flatMap((f) => f.violates)));
const advisories = INTERFACES.flatMap((name) => loadSpec(name).requirements.filter((r) => r.level === 'advisory' && claimed.includes(r.id)).map((r) => r.id));
const unproven = claimed.filter((id) => !proven.has(id) && !advisories.includes(id));
console.log(unproven.length ? `FAIL claimed by a test but named by no seeded fault: ${unproven.join(', ')}` : `ok   each of the ${claimed.length} requirements the suites claim is named by a seeded fault (advisories: shown flagged)`);

const validConfigurations: Array<{ profile: string; flagged?: string[] }> = [
  // The reference behaves as documented, risks included: its advisories must be raised.
  { profile: 'reference.yaml', flagged: advisories },
  { profile: 'reference-players-disabled.yaml' },
  { profile: 'reference-small-max-list.yaml' },
  { profile: 'reference-short-window.yaml' },
  // Settings that make the harness know less (instances, a rewriting proxy, development mode): no false alarm.
  { profile: 'reference-chat-unknown-clients.yaml' },
  // Writes forbidden: the reference trips on any console write, so a pass proves none was sent.
  { profile: 'reference-read-only.yaml' },
];

const runs: Run[] = [];
for (const v of validConfigurations) {
  runs.push({
    name: `valid ${v.profile}`,
    args: ['--target', path.join('targets', v.profile), '--strict'],
    judge: (code, s) => {
      if (!s) return `no summary (exit ${code})`;
      const failed = failedIds(s);
      if (code !== 0 || failed.length || s.brokenTests.length) {
        return `expected a clean pass, got exit ${code}; failed: ${failed.join(', ') || 'none'}${s.brokenTests.length ? `; broken: ${s.brokenTests.map((b) => b.test).join('; ')}` : ''}`;
      }
      const notFlagged = (v.flagged ?? []).filter((id) => !s.interfaces.some((i) => i.requirements.some((r) => r.id === id && r.status === 'flagged')));
      return notFlagged.length ? `advisories the reference's documented behaviour should raise were not flagged: ${notFlagged.join(', ')}` : undefined;
    },
  });
}
for (const d of REGISTRY) {
  for (const fault of d.reference.faults) runs.push(faultRun(d.name, fault));
}

function faultRun(interfaceName: string, fault: Fault): Run {
  const tags = [...new Set(fault.violates)].map((id) => `@${id}(?![A-Z0-9-])`).join('|');
  return {
    name: `fault ${interfaceName}:${fault.name}`,
    args: ['--target', path.join('targets', fault.profile ?? 'reference.yaml'), '--interfaces', interfaceName, '--fault', `${interfaceName}:${fault.name}`, '--grep', tags, '--strict'],
    judge: (code, s) => {
      if (!s) return `no summary (exit ${code})`;
      const failed = new Set(failedIds(s));
      const missed = fault.violates.filter((id) => !failed.has(id));
      if (missed.length) return `survived: ${missed.join(', ')} did not fail (failed: ${[...failed].join(', ') || 'none'}; exit ${code})`;
      if (code !== 1) return `the run should exit 1, exited ${code}`;
      const expected = new Set([...fault.violates, ...(fault.collateral ?? [])]);
      const extra = [...failed].filter((id) => !expected.has(id));
      if (extra.length) console.log(`note ${interfaceName}:${fault.name} also failed ${extra.join(', ')} (not in its catalogue entry)`);
      return undefined;
    },
  };
}

function claimedRequirements(): string[] {
  const out = execFileSync(process.execPath, [path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--list', '--reporter=json', '-c', path.join(ROOT, 'playwright.config.ts')], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  }).toString();
  const tags = new Set<string>();
  const walk = (suite: { specs?: Array<{ tags?: string[] }>; suites?: unknown[] }) => {
    for (const spec of suite.specs ?? []) for (const t of spec.tags ?? []) tags.add(t.replace(/^@/, ''));
    for (const child of suite.suites ?? []) walk(child as typeof suite);
  };
  for (const suite of JSON.parse(out).suites) walk(suite);
  return [...tags].sort();
}

const selected = runs.filter((r) => !values.only || r.name.includes(values.only));
if (selected.length === 0) {
  console.error(`self-test: no run matches --only ${values.only}`);
  process.exit(2);
}
rmSync(SELFTEST_DIR, { recursive: true, force: true });
mkdirSync(SELFTEST_DIR, { recursive: true });

function dirOf(run: Run): string {
  return path.join(SELFTEST_DIR, run.name.replace(/[^A-Za-z0-9.-]+/g, '_'));
}

async function execute(run: Run): Promise<{ run: Run; problem?: string; ms: number; output: string }> {
  const started = Date.now();
  const reportDir = dirOf(run);
  const args = [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'conformance.ts'), ...run.args, '--seed', values.seed!, '--quiet'];
  let output = '';
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, HARNESS_REPORT_DIR: reportDir, CI: '', BRIDGE_AUTH_KEY: KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (c) => resolve(c ?? 2));
  });
  const file = path.join(reportDir, 'summary.json');
  const summary = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunSummary) : undefined;
  return { run, problem: run.judge(code, summary), ms: Date.now() - started, output };
}

const started = Date.now();
const results: Awaited<ReturnType<typeof execute>>[] = [];
const queue = [...selected];
await Promise.all(
  Array.from({ length: Number(values.jobs) }, async () => {
    for (let run = queue.shift(); run; run = queue.shift()) {
      const r = await execute(run);
      results.push(r);
      console.log(`${r.problem ? 'FAIL' : 'ok  '} ${r.run.name} (${(r.ms / 1000).toFixed(1)} s)${r.problem ? `\n     ${r.problem}` : ''}`);
      if (r.problem && process.env.SELFTEST_VERBOSE) console.log(r.output);
    }
  }),
);

let browserProblem: string | undefined;
const sample = results.find((r) => r.run.name.startsWith('fault') && !r.problem);
if (!values['no-browser'] && sample) {
  browserProblem = await browserCheck(path.join(dirOf(sample.run), 'conformance', 'index.html'));
  console.log(`${browserProblem ? 'FAIL' : 'ok  '} browser check of the conformance report (${sample.run.name})${browserProblem ? `\n     ${browserProblem}` : ''}`);
}

function findSecret(dir: string, needles: string[]): string[] {
  const lower = needles.map((n) => n.toLowerCase());
  const hits: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = readFileSync(file).toString('latin1').toLowerCase();
    if (lower.some((n) => text.includes(n))) hits.push(path.relative(ROOT, file));
  }
  return hits;
}

async function browserCheck(html: string): Promise<string | undefined> {
  let output = '';
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', path.join(ROOT, 'playwright.report.config.ts')], {
      cwd: ROOT,
      env: { ...process.env, HARNESS_REPORT_HTML: html },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (c) => resolve(c ?? 2));
  });
  return code === 0 ? undefined : `exit ${code}\n${output.split('\n').slice(-30).join('\n')}`;
}

const leaks = findSecret(SELFTEST_DIR, [KEY, KEY.slice(0, -1)]).concat(results.filter((r) => r.output.toLowerCase().includes(KEY.slice(0, -1).toLowerCase())).map((r) => `output of ${r.run.name}`));
console.log(leaks.length ? `FAIL the key appears in: ${leaks.slice(0, 10).join(', ')}` : 'ok   no report, cassette, trace or log of the runs holds the key, in any letter case or cut short');

const failed = results.filter((r) => r.problem).length + (browserProblem ? 1 : 0) + (leaks.length ? 1 : 0) + (unproven.length ? 1 : 0);
const passed = results.length - results.filter((r) => r.problem).length + (sample && !values['no-browser'] && !browserProblem ? 1 : 0) + (leaks.length ? 0 : 1) + (unproven.length ? 0 : 1);
console.log(`\nself-test: ${selected.length} runs in ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
