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
import { today } from '../harness/after-run.ts';
import { ENV } from '../harness/options.ts';
import { scriptArgs, ROOT } from '../harness/paths.ts';
import type { Profile } from '../harness/profile/types.ts';

export interface SidesOptions {
  candidateArgv: string[];
  /** The noise side's command line, but for its --out and --seed: the baseline again, a second baseline, or the candidate's target again (against a recording). */
  noiseArgv: string[];
  noiseName: 'baseline-again' | 'secondary' | 'candidate-again';
  /** The baseline's command line, but for its --out and --seed; none against a recording. */
  baselineArgv?: string[];
  /** Whether the noise side must wait for the side whose deployment it shares (a live target). */
  noiseAfter: boolean;
  seed: string;
  runDir: string;
}

export interface SideRun {
  name: 'candidate' | 'baseline' | 'baseline-again' | 'secondary' | 'candidate-again';
  folder: string;
  code: number;
  /** The run's last line (its verdict), or what went wrong. */
  last: string;
}

export const COMPARE_DIR = 'compare';

/** Runs every side; gives each side's outcome: the candidate, the noise side, and the baseline where there is one. */
export async function runSides(o: SidesOptions): Promise<{ candidate: SideRun; noise: SideRun; baseline?: SideRun }> {
  const dir = (name: string) => path.join(o.runDir, COMPARE_DIR, name);
  const tail = (name: string) => ['--seed', o.seed, '--record-behaviour', '--out', dir(name), '--quiet'];
  const candidate = side('candidate', o.runDir, [...o.candidateArgv, '--seed', o.seed, '--out', o.runDir, '--record-behaviour'], true);
  const baseline = o.baselineArgv ? side('baseline', dir('baseline'), [...o.baselineArgv, ...tail('baseline')], false) : undefined;
  const again = () => side(o.noiseName, dir(o.noiseName), [...o.noiseArgv, ...tail(o.noiseName)], false);
  // A live deployment is asked its second time after its first run ended: two runs at once would share its rate
  // limits and its state. Each embedded reference is one of its own, so those run side by side.
  const shared = o.noiseName === 'candidate-again' ? candidate : baseline;
  const noise = o.noiseAfter && shared ? shared.then(again) : again();
  const [c, n, b] = await Promise.all([candidate, noise, baseline]);
  return { candidate: c, noise: n, ...(b ? { baseline: b } : {}) };
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
    child.on('close', (code) => {
      const lines = tail.trim().split('\n');
      const last = [...lines].reverse().find((l) => l.startsWith('conformance:')) ?? lines.at(-1) ?? '';
      resolve({ name, folder, code: code ?? 2, last });
    });
  });
}

/** The open points and declared noise of each interface of the run, for the diff. */
export function specsForDiff(scope: readonly InterfaceName[]): Map<string, SpecForDiff> {
  return new Map(
    scope.map((name) => {
      const spec = loadSpec(name);
      return [name as string, { openPoints: spec.notShown, noise: spec.behaviourNoise }];
    }),
  );
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
  return { failOnDiff, waivers, profileName, today: today() };
}

/** The command's exit code: the conformance verdict's, unless it passed and the diff gate failed. */
function withDiffGate(conformanceCode: number, gateFailed: string | undefined): number {
  if (gateFailed === undefined) return conformanceCode;
  console.log(`conformance: the behaviour diff gate failed: ${gateFailed}.${conformanceCode === 0 ? ' Exit 1.' : ''}`);
  return conformanceCode === 0 ? 1 : conformanceCode;
}

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/** The indices of these options' tokens (their values too) in the command line. */
function indicesOf(tokens: readonly Token[], names: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (const t of tokens) {
    if (t.kind !== 'option' || !names.includes(t.name)) continue;
    out.add(t.index);
    if (t.value !== undefined && !t.inlineValue) out.add(t.index + 1);
  }
  return out;
}

/** The command line with only these options, as it was written. */
function only(argv: readonly string[], tokens: readonly Token[], names: readonly string[]): string[] {
  const keep = indicesOf(tokens, names);
  return argv.filter((_, i) => keep.has(i));
}

/** The command line without these options (their values too), as it was written. */
function without(argv: readonly string[], tokens: readonly Token[], names: readonly string[]): string[] {
  const drop = indicesOf(tokens, names);
  return argv.filter((_, i) => !drop.has(i));
}

export interface CompareCommand {
  argv: string[];
  tokens: readonly Token[];
  args: { compare?: string; 'compare-secondary'?: string; 'compare-recording'?: string; seed?: string; out?: string; interfaces?: string; depth?: string; grep?: string; checks?: string; workers?: string };
  profile: Profile;
  scope: readonly InterfaceName[];
  gate?: DiffGateOptions;
  cannotRun: (reason: string) => never;
}

const live = (p: Profile, scope: readonly InterfaceName[]) => scope.some((name) => Boolean(p.interfaces[name]?.baseUrl));

/**
 * --compare, --compare-recording: the sides run (the candidate, the baseline, and the side that measures the noise),
 * then the diff; gives the command's exit code. Against a recording, the noise is what this run's target varies
 * between two runs of its own: the recording cannot be asked again.
 */
export async function compareWithBaseline(c: CompareCommand): Promise<number> {
  const { args, cannotRun } = c;
  const recording = args['compare-recording'];
  let shared: readonly InterfaceName[] = c.scope;
  let baselineArgv: string[] | undefined;
  let baselineName = recording ? `the recording ${recording}` : '';
  let noiseName: SidesOptions['noiseName'] = 'candidate-again';
  let noiseProfile: string | undefined;
  let noiseAfter = live(c.profile, c.scope);
  if (!recording) {
    const baselineFile = path.resolve(args.compare!);
    const secondaryFile = args['compare-secondary'] ? path.resolve(args['compare-secondary']) : undefined;
    const baseline = loaded(baselineFile, '--compare', cannotRun);
    if (secondaryFile) loaded(secondaryFile, '--compare-secondary', cannotRun);
    const theirs = interfacesInScope(baseline, args.interfaces);
    shared = c.scope.filter((name) => theirs.includes(name));
    if (shared.length === 0) cannotRun(`--compare ${args.compare}: the baseline profile ${baseline.name} has none of this run's interfaces (${c.scope.join(', ')})`);
    const missing = missingCredentials(baseline, [...shared]);
    if (missing.length) cannotRun(`--compare ${args.compare}: ${missing.join('; ')}`);
    baselineArgv = ['--target', baselineFile];
    baselineName = baseline.name;
    noiseName = secondaryFile ? 'secondary' : 'baseline-again';
    noiseProfile = secondaryFile ?? baselineFile;
    noiseAfter = !secondaryFile && live(baseline, shared);
  }
  const seed = args.seed ?? String(randomInt(1, 2 ** 31 - 1));
  const explicit = args.out ?? process.env[ENV.reportDir];
  const runDir = explicit ? path.resolve(explicit) : freshRunDir(randomUUID());
  const interfaces = shared.length < c.scope.length ? shared.join(',') : args.interfaces;
  const caseArgv = [
    ...(interfaces ? ['--interfaces', interfaces] : []),
    ...(['depth', 'grep', 'checks', 'workers'] as const).flatMap((k) => (args[k] !== undefined ? [`--${k}`, args[k]!] : [])),
  ];
  const candidateArgv = [...without(c.argv, c.tokens, ['compare', 'compare-secondary', 'compare-recording', 'fail-on-diff', 'seed', 'out', 'record-behaviour', 'interfaces']), ...(interfaces ? ['--interfaces', interfaces] : [])];
  // The candidate's target again: the same profile, faults and readings, none of the after-run steps (a history, a record).
  const noiseArgv = noiseProfile ? ['--target', noiseProfile, ...caseArgv] : [...only(c.argv, c.tokens, ['target', 'fault', 'readings', 'unstated']), ...caseArgv];
  const measuring = noiseName === 'secondary' ? 'noise against the second baseline' : noiseName === 'baseline-again' ? 'run twice for its noise' : 'this target run twice for the noise';
  console.log(`conformance: comparing ${c.profile.name} (candidate) with ${baselineName} (baseline; ${measuring}) at seed ${seed}`);
  const sides = await runSides({ candidateArgv, noiseArgv, noiseName, ...(baselineArgv ? { baselineArgv: [...baselineArgv, ...caseArgv] } : {}), noiseAfter, seed, runDir });
  if (!explicit) linkLatest(runDir);
  for (const s of [sides.baseline, sides.noise]) if (s) console.log(`conformance: ${s.name} (${path.relative(process.cwd(), s.folder)}): ${s.last.replace(/^conformance: /, '')}`);
  const ran = [sides.candidate, sides.noise, ...(sides.baseline ? [sides.baseline] : [])];
  const unrecorded = ran.filter((s) => !readRecording(s.folder));
  if (unrecorded.length) {
    console.log(`conformance: behaviour diff: cannot compare: ${unrecorded.map((s) => `the ${s.name} run ended (exit ${s.code}) without a recording`).join('; ')}`);
    return c.gate && sides.candidate.code === 0 ? 2 : sides.candidate.code;
  }
  const report = behaviourDiff({
    candidate: runDir,
    baseline: { folder: sides.baseline?.folder ?? recording!, kind: recording ? 'recording' : 'target' },
    noiseFrom: { folder: sides.noise.folder, kind: noiseName },
    specs: specsForDiff(shared),
    ...(c.gate ? { gate: c.gate } : {}),
  });
  console.log(diffLine(report));
  return withDiffGate(sides.candidate.code, report.gate?.failed ? report.gate.reason : undefined);
}

function loaded(file: string, option: string, cannotRun: (reason: string) => never): Profile {
  try {
    return loadProfile(file);
  } catch (e) {
    cannotRun(`${option} ${file}: ${(e as Error).message}`);
  }
}
