/**
 * npm run conformance -- [options]   (--help lists them)
 * Exit 0: every counted requirement that was judged passed; 1: a counted requirement failed; 2: the run could not
 * decide (a bad profile, a target that is not the API, an outage, a time-out, nothing tested).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import YAML from 'yaml';
import { buildRecord, renderRecordHtml, sign, signingKeyFrom } from '../harness/acceptance/record.ts';
import { applyGate, loadWaivers, type Waiver } from '../harness/gate.ts';
import { keepInHistory, loadHistory, renderTrend } from '../harness/trend.ts';
import { writeSummaryReports } from '../harness/reporter/html.ts';
import { Client, closeAgents } from '../harness/http/client.ts';
import { ENV, depthFactor } from '../harness/options.ts';
import { ROOT } from '../harness/paths.ts';
import { DEFAULT_PROFILE, loadProfile } from '../harness/profile/load.ts';
import type { Profile } from '../harness/profile/types.ts';
import { descriptorOf, type InterfaceName } from '../harness/registry.ts';
import { freshRunDir, linkLatest } from '../harness/reporter/run-dir.ts';
import type { RunSummary } from '../harness/reporter/summary.ts';
import { loadSpec } from '../harness/spec/load.ts';
import { specForTarget } from '../harness/spec/for-target.ts';
import { credentialVariables, interfacesInScope, missingCredentials, mountedUrl, secretsFor } from '../harness/targets.ts';
import { PROBE_BLOCK, freshAddress } from '../harness/identity.ts';

const HELP = `npm run conformance -- [options]

Runs the suites of every interface in the profile against its target (a live deployment, or the embedded reference
started on loopback) and writes the reports into a folder of its own.

Options:
  --target FILE          target profile (default targets/reference.yaml; also CONFORMANCE_TARGET=FILE)
  --interfaces a,b       narrow the run to these interfaces of the profile
  --depth D              quick | default | deep | a positive factor: how many generated cases the properties run
                         (default: the profile's depth, else default)
  --seed N               fix the generated cases (printed by every run)
  --strict               failed "should" requirements count in the exit code too
  --grep RE              run only the tests whose title matches
  --replay TOKEN         rerun one shrunk property case (from a failure's replay command); with --grep and --seed
  --fault IFACE:NAME     start the embedded reference with a seeded fault (npm run reference -- IFACE --list-faults);
                         repeat it for faults of several interfaces in one run
  --workers N            parallel workers (default 2)
  --max-minutes N        refuse to start when the planned work cannot fit in N minutes (also maxRunMinutes in the profile)
  --out DIR              write the reports into DIR (default reports/runs/<time>-<run id>, linked as reports/latest)
  --list                 print the requirements and the writes a run would send; sends nothing, needs no secret
  --quiet                no line per test
  --baseline FILE        compare with an earlier run's summary.json: the report and summary gain the requirements
                         newly failing, newly fixed, still failing and new to the spec
  --fail-on any|new      with --baseline: new counts only failures the baseline did not have (default any)
  --waivers FILE         known deviations (requirement, target?, reason, acceptedBy, expires): a waived failure does not
                         count; an expired waiver fails the run; unused waivers are listed
  --history DIR          keep this run's summary in DIR (created if missing) and write trend/index.html in the report
                         folder: the share passed per interface over time, what changed since the run before, what flaps
  --flap-window N        how many of the latest runs (same harness version and target) the flapping count looks at (10)
  --record               also write a signed acceptance record (acceptance/record.json and record.html in the
                         report folder), signed with the Ed25519 key in the variable the profile's recordSigningKey
                         names; check one with npm run verify-record -- <record.json>
  --help                 this text

Environment: HARNESS_REPORT_DIR=DIR is --out DIR; the credential variables the profile names (credentials:).
Exit codes: 0 every counted requirement that was judged passed; 1 a counted requirement failed (musts, and shoulds
with --strict); 2 the run could not decide: a bad profile or option, a target that is not the API or refuses the
credential, an outage, a time-out, a counted requirement inconclusive, or nothing tested.`;

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
      fault: { type: 'string', multiple: true },
      grep: { type: 'string' },
      replay: { type: 'string' },
      workers: { type: 'string' },
      'max-minutes': { type: 'string' },
      out: { type: 'string' },
      quiet: { type: 'boolean' },
      record: { type: 'boolean' },
      baseline: { type: 'string' },
      waivers: { type: 'string' },
      'fail-on': { type: 'string' },
      history: { type: 'string' },
      'flap-window': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  }).values;
}
try {
  args = parse();
} catch (e) {
  cannotRun(`${(e as Error).message} (--help lists the options)`);
}
if (args.help) {
  console.log(HELP);
  process.exit(0);
}

const profileFile = path.resolve(args.target ?? process.env.CONFORMANCE_TARGET ?? process.env[ENV.profile] ?? DEFAULT_PROFILE);
const env: NodeJS.ProcessEnv = { ...process.env, [ENV.profile]: profileFile };
let profile: Profile;
try {
  profile = loadProfile(profileFile);
} catch (e) {
  cannotRun((e as Error).message);
}
if (args.interfaces !== undefined) env[ENV.interfaces] = args.interfaces;
let scope: InterfaceName[];
try {
  scope = interfacesInScope(profile, env[ENV.interfaces]);
} catch (e) {
  cannotRun((e as Error).message);
}
if (scope.length === 0) cannotRun(`the profile ${profile.name} names no interface this harness knows`);
let depth = 1;
// --depth, else the profile's depth (a nightly profile may ask for deep runs; a slow pipeline for fewer cases).
const depthAsked = args.depth ?? (profile.depth === undefined ? undefined : String(profile.depth));
if (depthAsked !== undefined) {
  try {
    depth = depthFactor(depthAsked);
  } catch (e) {
    cannotRun((e as Error).message);
  }
  env[ENV.depth] = depthAsked;
}
if (args.seed !== undefined) {
  if (!/^\d+$/.test(args.seed)) cannotRun(`--seed ${args.seed}: give a whole number`);
  env[ENV.seed] = args.seed;
}
if (args.workers !== undefined && !/^[1-9]\d*$/.test(args.workers)) cannotRun(`--workers ${args.workers}: give a whole number of at least 1`);
if (args.strict) env[ENV.strict] = '1';
if (args.replay) {
  if (!/^[A-Za-z0-9_.-]+(![A-Z0-9,-]+)?=[0-9:]+$/.test(args.replay)) cannotRun(`--replay ${args.replay}: not a replay token (copy it from a failure's replay command)`);
  env[ENV.replay] = args.replay;
}
if (args.grep) env[ENV.grep] = args.grep;
if (args.workers) env.HARNESS_WORKERS = args.workers;
if (args.quiet) env.HARNESS_QUIET = '1';
for (const one of args.fault ?? []) {
  const [name, fault] = one.split(':');
  if (!scope.includes(name as InterfaceName)) cannotRun(`--fault ${one}: ${name} is not an interface of this run (${scope.join(', ')})`);
  if (profile.interfaces[name as InterfaceName]?.baseUrl) cannotRun(`--fault ${one}: faults exist only in the embedded reference, and ${name} is a live target here`);
  const known = descriptorOf(name as InterfaceName).reference.faults;
  if (!known.some((f) => f.name === fault)) cannotRun(`--fault ${one}: no such fault; known: ${known.map((f) => f.name).join(', ')}`);
  if ((args.fault ?? []).filter((f) => f.startsWith(`${name}:`)).length > 1) cannotRun(`--fault: one fault per interface (${name} has several)`);
}
if (args.fault?.length) env[ENV.fault] = args.fault.join(',');

if (args.list) {
  list();
  process.exit(0);
}

const missing = missingCredentials(profile, scope);
if (missing.length) cannotRun(missing.join('; '));
// The gate's inputs are checked before the run, not after it.
let waivers: Waiver[] | undefined;
if (args.waivers) {
  try {
    waivers = loadWaivers(args.waivers);
  } catch (e) {
    cannotRun(`--waivers ${(e as Error).message}`);
  }
}
let baseline: { file: string; summary: RunSummary } | undefined;
if (args.baseline) {
  try {
    const data = JSON.parse(readFileSync(args.baseline, 'utf8')) as RunSummary;
    if (!Array.isArray(data?.interfaces)) throw new Error('not a summary.json (no interfaces)');
    baseline = { file: args.baseline, summary: data };
  } catch (e) {
    cannotRun(`--baseline ${args.baseline}: ${(e as Error).message.split('\n')[0]}`);
  }
}
const flapWindow = Number(args['flap-window'] ?? 10);
if (!Number.isInteger(flapWindow) || flapWindow < 2) cannotRun(`--flap-window ${args['flap-window']}: give a whole number of at least 2`);
const failOn = args['fail-on'] ?? 'any';
if (failOn !== 'any' && failOn !== 'new') cannotRun(`--fail-on ${failOn}: give any or new`);
if (failOn === 'new' && !baseline) cannotRun('--fail-on new needs --baseline (the run to compare with)');
// A record that cannot be signed is found out before the run, not after it.
let signingKey: Uint8Array | undefined;
if (args.record) {
  if (!profile.recordSigningKey) cannotRun('--record: the profile names no recordSigningKey (the environment variable holding the Ed25519 key that signs the record)');
  const value = process.env[profile.recordSigningKey];
  if (!value) cannotRun(`--record: the environment variable ${profile.recordSigningKey} (the profile's recordSigningKey) is not set`);
  try {
    signingKey = signingKeyFrom(value, profile.recordSigningKey);
  } catch (e) {
    cannotRun(`--record: ${(e as Error).message}`);
  }
}

const workers = Number(args.workers ?? env.HARNESS_WORKERS ?? 2);
checkPlannedWork();
await probeLiveTargets();

const runId = env[ENV.runId] ?? randomUUID();
env[ENV.runId] = runId;
const explicitDir = args.out ?? process.env[ENV.reportDir];
const runDir = explicitDir ? path.resolve(explicitDir) : freshRunDir(runId);
env[ENV.reportDir] = runDir;
const summaryFile = path.join(runDir, 'summary.json');
rmSync(summaryFile, { force: true });
const pwArgs = [path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', path.join(ROOT, 'playwright.config.ts')];
if (args.grep) pwArgs.push('--grep', args.grep);
const code = await new Promise<number>((resolve) => {
  const child = spawn(process.execPath, pwArgs, { cwd: ROOT, env, stdio: 'inherit' });
  child.on('exit', (c, signal) => resolve(c ?? (signal ? 130 : 2)));
  child.on('error', () => resolve(2));
});
if (!existsSync(summaryFile)) cannotRun(`the run ended (playwright exit ${code}) without writing ${path.relative(process.cwd(), summaryFile)}`);
if (!explicitDir) linkLatest(runDir);
let summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary;
if (waivers || baseline) {
  summary = applyGate(summary, { waivers, baseline, failOn, today: new Date().toISOString().slice(0, 10) });
  writeSummaryReports(runDir, summary);
}
if (args.replay) {
  const property = args.replay.split(/[!=]/)[0];
  if (!summary.properties.some((p) => p.property === property)) {
    cannotRun(`--replay ${args.replay}: no test of this run has the property ${property} (does --grep select the test the replay command names?)`);
  }
}
if (signingKey) writeRecord(summary, signingKey);
if (args.history) {
  keepInHistory(args.history, summaryFile, summary);
  const trend = path.join(runDir, 'trend', 'index.html');
  mkdirSync(path.dirname(trend), { recursive: true });
  writeFileSync(trend, renderTrend(loadHistory(args.history), flapWindow));
  console.log(`conformance: trend of ${args.history}: ${path.relative(process.cwd(), trend)}`);
}
console.log(finalLine(summary));
process.exit(summary.exitCode);

/** The signed acceptance record of the run, beside its other reports. */
function writeRecord(s: RunSummary, key: Uint8Array): void {
  const signed = sign(buildRecord(s, YAML.parse(readFileSync(profileFile, 'utf8'))), key);
  const dir = path.join(runDir, 'acceptance');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'record.json'), JSON.stringify(signed, null, 2));
  writeFileSync(path.join(dir, 'record.html'), renderRecordHtml(signed));
  console.log(`conformance: acceptance record ${path.relative(process.cwd(), path.join(dir, 'record.json'))}, signed by Ed25519 public key ${signed.signature.publicKey}`);
}

/** What was counted and what was not, and why, in one line. */
function finalLine(s: RunSummary): string {
  const all = s.interfaces.flatMap((i) => i.requirements);
  const n = (f: (r: (typeof all)[number]) => boolean) => all.filter(f).length;
  const notCounted = n((r) => r.status === 'failed' && !r.counted);
  const parts = [
    `${n((r) => r.status === 'passed')} passed`,
    `${s.failedCounted.length} failed and counted${notCounted ? ` (${notCounted} more failed, not counted: ${s.strict ? 'advisories' : 'shoulds without --strict'})` : ''}`,
    `${n((r) => r.status === 'inconclusive')} inconclusive`,
    `${n((r) => r.status === 'not-tested')} not tested`,
    `${n((r) => r.status === 'not-applicable')} not applicable`,
  ];
  const flagged = n((r) => r.status === 'flagged');
  if (flagged) parts.push(`${flagged} advisories flagged`);
  return `conformance: ${s.profile.name}, seed ${s.seed}: ${parts.join(', ')}. Exit ${s.exitCode}: ${s.exitReason}. Report: ${path.relative(process.cwd(), path.join(runDir, 'conformance', 'index.html'))}`;
}

/** The planned work of the run against the time the profile or --max-minutes allows, before anything is sent. */
function checkPlannedWork(): void {
  let ms = 0;
  for (const name of scope) {
    const d = descriptorOf(name);
    const entry = profile.interfaces[name]!;
    ms += d.plannedMs({ profile, settings: entry.settings, baseUrl: entry.baseUrl, depth, live: Boolean(entry.baseUrl), workers });
  }
  const minutes = ms / 60_000 / Math.max(1, Math.min(workers, 2));
  const limit = args['max-minutes'] !== undefined ? Number(args['max-minutes']) : profile.maxRunMinutes;
  if (limit !== undefined && !(limit > 0)) cannotRun(`--max-minutes ${args['max-minutes']}: give a positive number`);
  if (limit !== undefined && minutes > limit) {
    cannotRun(`the planned work takes about ${minutes.toFixed(1)} minutes (depth ${args.depth ?? 'default'}, ${profile.requestsPerSecond} requests per second, ${workers} workers), more than the ${limit} allowed: use a smaller --depth, a higher requestsPerSecond or a larger limit`);
  }
  if (!args.quiet && !process.env.HARNESS_QUIET && minutes >= 1) console.log(`conformance: the planned work takes about ${minutes.toFixed(1)} minutes`);
}

/**
 * A harmless documented request to each live target: a login page, a redirect, a refused credential or a wrong path
 * prefix ends the run here, in seconds, with its cause, instead of as a report full of false verdicts.
 */
async function probeLiveTargets(): Promise<void> {
  for (const name of scope) {
    const entry = profile.interfaces[name]!;
    if (!entry.baseUrl) continue;
    const secrets = secretsFor(profile, name);
    const descriptor = descriptorOf(name);
    const probe = descriptor.probe({ profile, settings: entry.settings, secrets, credentialEnv: credentialVariables(name, entry.credentials), address: () => freshAddress(PROBE_BLOCK) });
    const client = new Client({ interfaceName: name, baseUrl: mountedUrl(name, entry.baseUrl, entry.settings), spec: specForTarget(name, entry.settings), secrets, timeoutMs: profile.probeTimeoutMs, live: false, requestsPerSecond: 0, authenticate: descriptor.authenticate, settings: entry.settings });
    let problem: string | undefined;
    try {
      problem = probe.judge(await client.send(probe.request));
    } catch (e) {
      problem = (e as Error).message;
    }
    if (problem) {
      await closeAgents();
      cannotRun(`target ${name} at ${entry.baseUrl} is not the API, or not ready: ${secrets.redact(problem)}`);
    }
  }
  await closeAgents();
}

function list(): void {
  console.log(`profile ${profile.name} (${path.relative(process.cwd(), profile.file)}); writes ${profile.writes ? 'allowed' : 'not allowed'}`);
  for (const name of scope) {
    const spec = loadSpec(name);
    const entry = profile.interfaces[name]!;
    console.log(`\n${name}: ${entry.baseUrl ?? 'embedded reference'}`);
    const reasons = descriptorOf(name).notApplicable({ profile, settings: entry.settings, baseUrl: entry.baseUrl, credentials: entry.credentials, live: Boolean(entry.baseUrl) });
    for (const r of spec.requirements) {
      const ops = r.operations ?? [];
      const why =
        r.observable === false
          ? 'not observable over HTTP: reported as not tested'
          : (reasons.requirements[r.id] ?? (ops.length > 0 && ops.every((o) => reasons.operations[o]) ? reasons.operations[ops[0]] : undefined));
      console.log(`  ${r.id.padEnd(30)} ${r.level.padEnd(8)} ${r.text}${why ? `  (${r.observable === false ? '' : 'not applicable: '}${why})` : ''}`);
    }
    for (const n of spec.notShown) console.log(`  ${n.id.padEnd(30)} ${'open'.padEnd(8)} ${n.text}  (not shown: never asserted)`);
    const writes = spec.operations.filter((op) => op.write);
    console.log(`  writes this run would send:`);
    if (writes.length === 0) console.log('    none');
    for (const op of writes) {
      console.log(`    ${op.key}: ${op.write}: ${!profile.writes ? 'none (the profile does not allow writes)' : reasons.operations[op.key] ? `none (${reasons.operations[op.key]})` : 'yes, a few per run'}`);
    }
  }
}
