/**
 * npm run conformance -- [--target profile.yaml] [--interfaces a,b] [--depth quick|default|deep|N] [--seed N]
 *                        [--strict] [--list] [--fault interface:name] [--grep RE] [--replay TOKEN] [--workers N]
 * Exit 0: every requirement that applies passed; 1: a requirement failed; 2: the harness could not run.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { references } from '../mocks/registry.ts';
import { ENV, depthFactor } from '../harness/options.ts';
import { REPORTS_DIR, ROOT } from '../harness/paths.ts';
import { probe } from '../harness/probe.ts';
import { DEFAULT_PROFILE, loadProfile } from '../harness/profile/load.ts';
import type { RunSummary } from '../harness/reporter/summary.ts';
import { loadSpec } from '../harness/spec/load.ts';
import type { Operation } from '../harness/spec/types.ts';
import { interfacesInScope, missingCredentials } from '../harness/targets.ts';

function cannotRun(reason: string): never {
  console.error(`conformance: cannot run: ${reason}`);
  process.exit(2);
}

let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      target: { type: 'string' },
      interfaces: { type: 'string' },
      depth: { type: 'string' },
      seed: { type: 'string' },
      strict: { type: 'boolean' },
      list: { type: 'boolean' },
      fault: { type: 'string' },
      grep: { type: 'string' },
      replay: { type: 'string' },
      workers: { type: 'string' },
      quiet: { type: 'boolean' },
    },
    allowPositionals: false,
  }).values;
}
try {
  args = parse();
} catch (e) {
  cannotRun((e as Error).message);
}

const profileFile = path.resolve(args.target ?? process.env.CONFORMANCE_TARGET ?? process.env[ENV.profile] ?? DEFAULT_PROFILE);
const env: NodeJS.ProcessEnv = { ...process.env, [ENV.profile]: profileFile };
let profile: ReturnType<typeof loadProfile>;
try {
  profile = loadProfile(profileFile);
} catch (e) {
  cannotRun((e as Error).message);
}
if (args.interfaces !== undefined) env[ENV.interfaces] = args.interfaces;
let scope: ReturnType<typeof interfacesInScope>;
try {
  scope = interfacesInScope(profile, env[ENV.interfaces]);
} catch (e) {
  cannotRun((e as Error).message);
}
if (scope.length === 0) cannotRun(`the profile ${profile.name} names no interface this harness knows`);
if (args.depth !== undefined) {
  try {
    depthFactor(args.depth);
  } catch (e) {
    cannotRun((e as Error).message);
  }
  env[ENV.depth] = args.depth;
}
if (args.seed !== undefined) {
  if (!/^\d+$/.test(args.seed)) cannotRun(`--seed ${args.seed}: give a whole number`);
  env[ENV.seed] = args.seed;
}
if (args.strict) env[ENV.strict] = '1';
if (args.replay) env[ENV.replay] = args.replay;
if (args.workers) env.HARNESS_WORKERS = args.workers;
if (args.quiet) env.HARNESS_QUIET = '1';
if (args.fault) {
  const [name, fault] = args.fault.split(':');
  if (!scope.includes(name as (typeof scope)[number])) cannotRun(`--fault ${args.fault}: ${name} is not an interface of this run`);
  if (profile.interfaces[name as (typeof scope)[number]]?.baseUrl) cannotRun(`--fault ${args.fault}: faults exist only in the embedded reference, and ${name} is a live target here`);
  if (!references[name].faults.some((f) => f.name === fault)) cannotRun(`--fault ${args.fault}: no such fault; known: ${references[name].faults.map((f) => f.name).join(', ')}`);
  env[ENV.fault] = args.fault;
}
const missing = missingCredentials(profile, scope);
if (missing.length) cannotRun(missing.join('; '));

if (args.list) {
  list();
  process.exit(0);
}

for (const name of scope) {
  const base = profile.interfaces[name]?.baseUrl;
  if (!base) continue;
  const problem = await probe(base, profile.probeTimeoutMs ?? 5000);
  if (problem) cannotRun(`target ${name} at ${base} did not answer the start-up probe: ${problem}`);
}

const summaryFile = path.join(REPORTS_DIR, 'summary.json');
rmSync(summaryFile, { force: true });
const pwArgs = [path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', path.join(ROOT, 'playwright.config.ts')];
if (args.grep) pwArgs.push('--grep', args.grep);
const code = await new Promise<number>((resolve) => {
  const child = spawn(process.execPath, pwArgs, { cwd: ROOT, env, stdio: 'inherit' });
  child.on('exit', (c, signal) => resolve(c ?? (signal ? 130 : 2)));
  child.on('error', () => resolve(2));
});
if (!existsSync(summaryFile)) cannotRun(`the run ended (playwright exit ${code}) without writing ${path.relative(ROOT, summaryFile)}`);
const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary;
const t = summary.interfaces.reduce((acc, i) => ({ passed: acc.passed + i.totals.passed, failed: acc.failed + i.totals.failed }), { passed: 0, failed: 0 });
console.log(
  `conformance: ${summary.profile.name}, seed ${summary.seed}: ${t.passed} requirements passed, ${t.failed} failed` +
    (summary.failedCounted.length ? ` (counted: ${summary.failedCounted.join(', ')})` : '') +
    (summary.brokenTests.length ? `; ${summary.brokenTests.length} checks broke` : '') +
    `. Report: ${path.relative(process.cwd(), path.join(REPORTS_DIR, 'conformance', 'index.html'))}`,
);
process.exit(summary.verdict === 'passed' ? 0 : 1);

function list(): void {
  console.log(`profile ${profile.name} (${path.relative(process.cwd(), profile.file)}); writes ${profile.writes ? 'allowed' : 'not allowed'}`);
  for (const name of scope) {
    const spec = loadSpec(name);
    const entry = profile.interfaces[name]!;
    console.log(`\n${name}: ${entry.baseUrl ?? 'embedded reference'}`);
    const disabledOp = (op?: Operation) => Boolean(op?.enabledBy && (entry.settings as { endpoints?: Record<string, boolean> }).endpoints?.[op.enabledBy] === false);
    const disabled = (key: string) => disabledOp(spec.operations.find((o) => o.key === key));
    for (const r of spec.requirements) {
      const ops = r.operations ?? [];
      const note =
        r.observable === false
          ? '  (not observable over HTTP: reported as not tested)'
          : ops.length > 0 && ops.every(disabled)
            ? '  (not applicable: its endpoint is disabled in the profile)'
            : '';
      console.log(`  ${r.id.padEnd(30)} ${r.level.padEnd(8)} ${r.text}${note}`);
    }
    for (const n of spec.notShown) console.log(`  ${n.id.padEnd(30)} ${'open'.padEnd(8)} ${n.text}  (not shown: never asserted)`);
    const writes = spec.operations.filter((op) => op.write);
    console.log(`  writes this run would send:`);
    if (writes.length === 0) console.log('    none');
    for (const op of writes) {
      console.log(`    ${op.key}: ${op.write}: ${!profile.writes ? 'none (the profile does not allow writes)' : disabledOp(op) ? 'none (endpoint disabled in the profile)' : 'yes, a few per run'}`);
    }
  }
}
