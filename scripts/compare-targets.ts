/**
 * `npm run conformance -- --target a.yaml --compare b.yaml` (issue 25): the same generated cases, at one seed, sent to
 * the candidate (a.yaml, with --fault and --readings if given) and to the baseline (b.yaml, the known-good side:
 * production, last release), each a conformance run of its own in a child process with its own report (verdicts
 * stay per target). The baseline is run a second time, or a second baseline deployment (--compare-secondary), to
 * measure what varies on its own (noise). Then the behaviour diff of the two sides (harness/diff/diff-run.ts).
 *
 * The sides run side by side where they cannot disturb each other: the candidate and the baseline are two
 * deployments, and each embedded reference is one of its own. A live baseline is asked the second time only after
 * the first run ended: two runs at once against one deployment would share its rate limits and its state.
 */
import { spawn } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { parseArgs } from 'node:util';
import { behaviourDiff, diffLine, type DiffGateOptions, type SpecForDiff } from '../harness/diff/diff-run.ts';
import { loadDifferenceWaivers } from '../harness/gate.ts';
import { readRecording } from '../harness/diff/recording.ts';
import { loadProfile } from '../harness/profile/load.ts';
import { freshRunDir, linkLatest } from '../harness/reporter/run-dir.ts';
import { loadSpec } from '../harness/spec/load.ts';
import { interfacesInScope, missingCredentials } from '../harness/targets.ts';
import type { DifferenceWaiver } from '../harness/diff/diff-types.ts';
import type { InterfaceName } from './interfaces.ts';
import { ENV } from '../harness/options.ts';
import { scriptArgs, ROOT } from '../harness/paths.ts';
import type { Profile } from '../harness/profile/types.ts';
import type { RunSummary } from '../harness/reporter/summary.ts';

export interface CompareOptions {
  candidateArgv: string[];
  /** Options that make the cases (interfaces, depth, grep, checks, workers), given to every side. */
  caseArgv: string[];
  baselineProfile: string;
  secondaryProfile?: string;
  baseline: Profile;
  seed: string;
  runDir: string;
  quiet: boolean;
}

export interface SideRun {
  name: 'candidate' | 'baseline' | 'baseline-again' | 'secondary';
  folder: string;
  code: number;
  /** The run's last line (its verdict), or what went wrong. */
  last: string;
  summary?: RunSummary;
}

export const COMPARE_DIR = 'compare';

/** Runs every side; gives each side's outcome (the candidate first). */
export async function runSides(o: CompareOptions): Promise<SideRun[]> {
  const dir = (name: string) => path.join(o.runDir, COMPARE_DIR, name);
  const common = [...o.caseArgv, '--seed', o.seed, '--record-behaviour'];
  const candidate = side('candidate', o.runDir, [...o.candidateArgv, '--seed', o.seed, '--out', o.runDir, '--record-behaviour'], true);
  const baseline = side('baseline', dir('baseline'), ['--target', o.baselineProfile, ...common, '--out', dir('baseline'), '--quiet'], false);
  let noise: Promise<SideRun>;
  if (o.secondaryProfile) noise = side('secondary', dir('secondary'), ['--target', o.secondaryProfile, ...common, '--out', dir('secondary'), '--quiet'], false);
  else {
    const again = () => side('baseline-again', dir('baseline-again'), ['--target', o.baselineProfile, ...common, '--out', dir('baseline-again'), '--quiet'], false);
    const live = Object.values(o.baseline.interfaces).some((entry) => entry?.baseUrl);
    noise = live ? baseline.then(again) : again();
  }
  return Promise.all([candidate, baseline, noise]);
}

/** One side: a conformance run in a child process; its console shown (the candidate) or kept to its last lines. */
function side(name: SideRun['name'], folder: string, argv: string[], shown: boolean): Promise<SideRun> {
  return new Promise((resolve) => {
    // Each side is a run of its own: its own run id and report folder (--out), never this process's.
    const env = { ...process.env };
    delete env[ENV.reportDir];
    delete env[ENV.runId];
    const child = spawn(process.execPath, scriptArgs('conformance', argv), {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A side never outlives the comparison (an interrupted command, a CI time-out).
    const stop = () => child.kill('SIGTERM');
    process.once('exit', stop);
    child.once('close', () => process.off('exit', stop));
    let tail = '';
    const keep = (chunk: Buffer, to: NodeJS.WriteStream) => {
      if (shown) to.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', (c: Buffer) => keep(c, process.stdout));
    child.stderr.on('data', (c: Buffer) => keep(c, process.stderr));
    child.on('error', (e) => resolve({ name, folder, code: 2, last: `could not start: ${e.message}` }));
    child.on('close', (code, signal) => {
      const summaryFile = path.join(folder, 'summary.json');
      const summary = existsSync(summaryFile) ? (JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary) : undefined;
      const lines = tail.trim().split('\n');
      const last = [...lines].reverse().find((l) => l.startsWith('conformance:')) ?? lines.at(-1) ?? '';
      resolve({ name, folder, code: code ?? 2, last, ...(summary ? { summary } : {}) });
    });
  });
}

/** The open points and declared noise of each interface of the run, for the diff. */
export function specsForDiff(scope: readonly InterfaceName[]): Map<string, SpecForDiff> {
  return new Map(scope.map((name) => [name as string, { openPoints: loadSpec(name).notShown, noise: loadSpec(name).behaviourNoise }]));
}

/** --fail-on-diff checked before anything is sent: each name an open point, an operation or an interface of the run. */
export function diffGateOptions(value: string, waiversFile: string | undefined, scope: readonly InterfaceName[], profileName: string, cannotRun: (reason: string) => never): DiffGateOptions {
  const failOnDiff = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (failOnDiff.length === 0) cannotRun('--fail-on-diff: give all, or open point ids, operations ("GET /v2/status") and interfaces');
  const known = new Set<string>(['all', ...scope, ...scope.flatMap((name) => [...loadSpec(name).notShown.map((p) => p.id), ...loadSpec(name).operations.map((op) => op.key)])]);
  const unknown = failOnDiff.filter((n) => !known.has(n));
  if (unknown.length) cannotRun(`--fail-on-diff: ${unknown.join(', ')}: not an open point, an operation or an interface of this run (npm run conformance -- --list names them)`);
  let waivers: DifferenceWaiver[] = [];
  if (waiversFile) {
    try {
      waivers = loadDifferenceWaivers(waiversFile);
    } catch (e) {
      cannotRun(`--waivers ${(e as Error).message}`);
    }
  }
  return { failOnDiff, waivers, profileName, today: new Date().toISOString().slice(0, 10) };
}

/** The command's exit code: the conformance verdict's, unless it passed and the diff gate failed. */
export function withDiffGate(conformanceCode: number, gateFailed: string | undefined): number {
  if (gateFailed === undefined) return conformanceCode;
  console.log(`conformance: the behaviour diff gate failed: ${gateFailed}.${conformanceCode === 0 ? ' Exit 1.' : ''}`);
  return conformanceCode === 0 ? 1 : conformanceCode;
}

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/** The command line without these options (their values too), as it was written. */
function without(argv: readonly string[], tokens: readonly Token[], names: readonly string[]): string[] {
  const drop = new Set<number>();
  for (const t of tokens) {
    if (t.kind !== 'option' || !names.includes(t.name)) continue;
    drop.add(t.index);
    if (t.value !== undefined && !t.inlineValue) drop.add(t.index + 1);
  }
  return argv.filter((_, i) => !drop.has(i));
}

export interface CompareCommand {
  argv: string[];
  tokens: readonly Token[];
  args: { compare?: string; 'compare-secondary'?: string; seed?: string; out?: string; interfaces?: string; depth?: string; grep?: string; checks?: string; workers?: string; quiet?: boolean };
  profile: Profile;
  scope: readonly InterfaceName[];
  gate?: DiffGateOptions;
  cannotRun: (reason: string) => never;
}

/** --compare: both sides run, then the diff; gives the command's exit code. */
export async function compareWithBaseline(c: CompareCommand): Promise<number> {
  const { args, cannotRun } = c;
  const baselineFile = path.resolve(args.compare!);
  const secondaryFile = args['compare-secondary'] ? path.resolve(args['compare-secondary']) : undefined;
  const baseline = loaded(baselineFile, '--compare', cannotRun);
  if (secondaryFile) loaded(secondaryFile, '--compare-secondary', cannotRun);
  const theirs = interfacesInScope(baseline, args.interfaces);
  const shared = c.scope.filter((name) => theirs.includes(name));
  if (shared.length === 0) cannotRun(`--compare ${args.compare}: the baseline profile ${baseline.name} has none of this run's interfaces (${c.scope.join(', ')})`);
  const missing = missingCredentials(baseline, shared);
  if (missing.length) cannotRun(`--compare ${args.compare}: ${missing.join('; ')}`);
  const seed = args.seed ?? String(randomInt(1, 2 ** 31 - 1));
  const explicit = args.out ?? process.env[ENV.reportDir];
  const runDir = explicit ? path.resolve(explicit) : freshRunDir(randomUUID());
  const interfaces = shared.length < c.scope.length ? shared.join(',') : args.interfaces;
  const caseArgv = [
    ...(interfaces ? ['--interfaces', interfaces] : []),
    ...(['depth', 'grep', 'checks', 'workers'] as const).flatMap((k) => (args[k] !== undefined ? [`--${k}`, args[k]!] : [])),
  ];
  const candidateArgv = [...without(c.argv, c.tokens, ['compare', 'compare-secondary', 'fail-on-diff', 'seed', 'out', 'record-behaviour', 'interfaces']), ...(interfaces ? ['--interfaces', interfaces] : [])];
  console.log(`conformance: comparing ${c.profile.name} (candidate) with ${baseline.name} (baseline${secondaryFile ? ', noise against the second baseline' : ', run twice for its noise'}) at seed ${seed}`);
  const sides = await runSides({ candidateArgv, caseArgv, baselineProfile: baselineFile, ...(secondaryFile ? { secondaryProfile: secondaryFile } : {}), baseline, seed, runDir, quiet: Boolean(args.quiet) });
  if (!explicit) linkLatest(runDir);
  for (const s of sides.slice(1)) console.log(`conformance: ${s.name} (${path.relative(process.cwd(), s.folder)}): ${s.last.replace(/^conformance: /, '')}`);
  const [candidate, base, noise] = sides as [SideRun, SideRun, SideRun];
  const unrecorded = sides.filter((s) => !readRecording(s.folder));
  if (unrecorded.length) {
    console.log(`conformance: behaviour diff: cannot compare: ${unrecorded.map((s) => `the ${s.name} run ended (exit ${s.code}) without a recording`).join('; ')}`);
    return c.gate && candidate.code === 0 ? 2 : candidate.code;
  }
  const report = behaviourDiff({
    candidate: runDir,
    baseline: { folder: base.folder, kind: 'target' },
    noiseFrom: { folder: noise.folder, kind: noise.name === 'secondary' ? 'secondary' : 'baseline-again' },
    specs: specsForDiff(shared),
    ...(c.gate ? { gate: c.gate } : {}),
  });
  console.log(diffLine(report));
  return withDiffGate(candidate.code, report.gate?.failed ? report.gate.reason : undefined);
}

function loaded(file: string, option: string, cannotRun: (reason: string) => never): Profile {
  try {
    return loadProfile(file);
  } catch (e) {
    cannotRun(`${option} ${file}: ${(e as Error).message}`);
  }
}
