/**
 * One conformance run, as `npm run conformance -- [options]` makes it (scripts/conformance.ts; --help lists the
 * options): a function of its arguments and of process.env that gives the exit code instead of ending the process, so
 * that the self-test's batches (scripts/selftest-batch.ts) make run after run in one process.
 * Exit 0: every counted requirement that was judged passed; 1: a counted requirement failed; 2: the run could not
 * decide (a bad profile, a target that is not the API, an outage, a time-out, nothing tested).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AFTER_RUN_HELP, AFTER_RUN_OPTIONS, failureBlocks, finalLine, finishRun, prepareAfterRun } from '../harness/after-run.ts';
import { ENV, depthFactor, parseShard } from '../harness/options.ts';
import { PLANNED_TESTS_ENV, writePlannedTests } from '../harness/planned-tests.ts';
import { applyReadings, parseReadings } from '../harness/readings.ts';
import { listTests, runPlaywright } from '../harness/playwright-run.ts';
import { shardWeights } from '../harness/shard-weights.ts';
import { ROOT } from '../harness/paths.ts';
import { DEFAULT_PROFILE, RESOLVED_PROFILE_ENV, isStated, loadProfile } from '../harness/profile/load.ts';
import type { Profile } from '../harness/profile/types.ts';
import { CATALOGUES, descriptorOf, isInterfaceName, type InterfaceName } from './interfaces.ts';
import { LATEST, freshRunDir, linkLatest } from '../harness/reporter/run-dir.ts';
import type { RunSummary } from '../harness/reporter/summary.ts';
import { loadSpec, openPointTreatment } from '../harness/spec/load.ts';
import { credentialVariables, interfacesInScope, missingCredentials, mountedUrl, secretsFor } from '../harness/targets.ts';
import { probeTarget } from '../harness/probe.ts';
import { closeAgents } from '../harness/http/client.ts';
import { checksListing, selectedChecks } from '../harness/generic/checks.ts';
import { readRecording } from '../harness/diff/recording.ts';
import { compareWithBaseline, diffGateOptions } from './compare-targets.ts';

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
  --checks a,b           run only these named generic checks (the interfaces' own requirement tests still run);
                         --checks list prints the registry: each check's name, requirement and what it holds
  --replay TOKEN         rerun one shrunk property case (from a failure's replay command); with --grep and --seed
  --fault IFACE:NAME     start the embedded reference with a seeded fault (npm run reference -- IFACE --list-faults);
                         repeat it for faults of several interfaces in one run, or several of one reference
  --readings R           start the embedded references in other readings of the open points their documents leave
                         to a deployment: other (every point in its first other reading), or <open point>=<reading>,
                         repeated or comma-separated (npm run reference -- IFACE --list-readings lists them)
  --unstated             with --readings: the profile does not state what a tester of those readings would (their
                         settings), as for a deployment whose choices nobody told the harness
  --workers N            parallel workers (default 2)
  --max-minutes N        refuse to start when the planned work cannot fit in N minutes (also maxRunMinutes in the profile)
  --out DIR              write the reports into DIR (default reports/runs/<time>-<run id>, linked as reports/latest)
  --list                 print the requirements and the writes a run would send; sends nothing, needs no secret
  --quiet                no line per test
${AFTER_RUN_HELP}
  --record-behaviour     also write what every exchange showed (status, members and their types, the headers the spec
                         names: behaviour/ in the report folder), for a later run to be compared with
  --compare FILE         also run the same cases (one seed) against the baseline target of profile FILE (the known-good
                         side: production, the last release), and compare what the two showed, case by case: diff.json
                         and a section of the report, each difference named by the open points it falls on. The
                         baseline runs twice, to measure what it varies on its own (noise); verdicts stay per target
                         (the baseline's report: compare/baseline/ in the report folder); --fault and --readings apply
                         to this run's target only
  --compare-secondary FILE  measure the noise against this second baseline deployment instead of a second run
  --compare-recording DIR  compare this run's behaviour with the recording in DIR (an earlier report folder of a run with
                         --record-behaviour), case by case, as --compare does; this run's target runs twice, for the
                         noise (a recording cannot be asked again)
  --fail-on-diff LIST    with --compare or --compare-recording: a difference fails the run (exit 1, a reason of its
                         own): all, or open point ids, operations ("GET /v2/status") and interfaces, comma-separated;
                         the waivers file's differences: entries waive them. Without it a difference never changes the
                         exit code
  --shard I/N            run the I-th of N parts of the run (needs --seed); the report folder keeps a blob report, and
                         npm run merge-reports -- <the N report folders> makes the reports of the whole run
  --help                 this text

Environment: HARNESS_REPORT_DIR=DIR is --out DIR; the credential variables the profile names (credentials:).
Exit codes: 0 every counted requirement that was judged passed; 1 a counted requirement failed (musts, and shoulds
with --strict); 2 the run could not decide: a bad profile or option, a target that is not the API or refuses the
credential, an outage, a time-out, a counted requirement inconclusive, or nothing tested.`;

/** A reason the run cannot start: said on one line, exit 2. */
class CannotRun extends Error {}

function cannotRun(reason: string): never {
  throw new CannotRun(reason);
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      target: { type: 'string' },
      interfaces: { type: 'string' },
      depth: { type: 'string' },
      seed: { type: 'string' },
      strict: { type: 'boolean' },
      list: { type: 'boolean' },
      fault: { type: 'string', multiple: true },
      readings: { type: 'string', multiple: true },
      unstated: { type: 'boolean' },
      grep: { type: 'string' },
      checks: { type: 'string' },
      replay: { type: 'string' },
      workers: { type: 'string' },
      'max-minutes': { type: 'string' },
      out: { type: 'string' },
      quiet: { type: 'boolean' },
      shard: { type: 'string' },
      'record-behaviour': { type: 'boolean' },
      'compare-recording': { type: 'string' },
      compare: { type: 'string' },
      'compare-secondary': { type: 'string' },
      'fail-on-diff': { type: 'string' },
      ...AFTER_RUN_OPTIONS,
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
    tokens: true,
  });
}
/** Runs the conformance command with these arguments, and gives its exit code. */
export async function conformance(argv: string[]): Promise<number> {
  try {
    const run = await prepare(argv);
    if (typeof run === 'number') return run;
    return run.finish(await runPlaywright(run.env, run.grep, await run.shardWeights()));
  } catch (e) {
    return cannotRunCode(e);
  }
}

/** Exit 2 with the reason where the run cannot run; anything else is the harness's own error, and is thrown on. */
export function cannotRunCode(e: unknown): number {
  if (!(e instanceof CannotRun)) throw e;
  console.error(`conformance: cannot run: ${e.message}`);
  return 2;
}

/**
 * A run made ready to hand to Playwright: its environment (which Playwright's runner and workers read its settings
 * from), its grep, and what to do with Playwright's exit code (the reports, the gate, the exit code of the run).
 */
export interface PreparedRun {
  env: NodeJS.ProcessEnv;
  grep: string | undefined;
  scope: InterfaceName[];
  workers: number;
  shardWeights(): Promise<number[] | undefined>;
  finish(playwrightCode: number): number;
  /** Whether it can share one Playwright invocation with others (scripts/conformance-group.ts): no shard, no replay. */
  groupable: boolean;
}

/**
 * Everything a run does before Playwright runs its tests: the options and the profile checked, the planned work
 * weighed, live targets probed, the report folder settled. An exit code where the run ends here (--help, --list, a
 * comparison of two targets, which makes runs of its own).
 */
export async function prepare(argv: string[]): Promise<PreparedRun | number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    cannotRun(`${(e as Error).message} (--help lists the options)`);
  }
  const args = parsed.values;
  if (args.help) {
    console.log(HELP);
    return 0;
  }
  if (args.checks === 'list') {
    console.log(checksListing());
    return 0;
  }
  if (args.checks !== undefined) {
    try {
      selectedChecks(args.checks);
    } catch (e) {
      cannotRun((e as Error).message);
    }
  }

  const profileFile = path.resolve(args.target ?? process.env.CONFORMANCE_TARGET ?? process.env[ENV.profile] ?? DEFAULT_PROFILE);
  const env: NodeJS.ProcessEnv = { ...process.env, [ENV.profile]: profileFile };
  if (args['compare-recording'] && !readRecording(args['compare-recording'])) cannotRun(`--compare-recording ${args['compare-recording']}: no behaviour recording there (a report folder of a run with --record-behaviour)`);
  // A comparison's sides record in their own processes (scripts/compare-targets.ts); this run records when asked.
  if (args['record-behaviour']) env[ENV.behaviour] = '1';
  if (args.compare && args['compare-recording']) cannotRun('--compare and --compare-recording: give one baseline');
  if (args['compare-secondary'] && !args.compare) cannotRun('--compare-secondary goes with --compare (the second baseline deployment)');
  if (args['fail-on-diff'] !== undefined && !args.compare && !args['compare-recording']) cannotRun('--fail-on-diff goes with --compare or --compare-recording');
  if ((args.compare || args['compare-recording']) && (args.shard || args.replay)) cannotRun(`${args.compare ? '--compare' : '--compare-recording'} runs the whole of each side: it does not go with ${args.shard ? '--shard' : '--replay'}`);
  let profile: Profile;
  try {
    const ask = args.readings?.length ? parseReadings(CATALOGUES, args.readings) : undefined;
    const narrowed = args.interfaces?.split(',').map((s) => s.trim()).filter(Boolean);
    if (args.unstated && !ask) throw new Error('--unstated goes with --readings');
    profile = loadProfile(profileFile, ask && ((data) => applyReadings(CATALOGUES, data, ask, narrowed, { unstated: args.unstated })));
  } catch (e) {
    cannotRun((e as Error).message);
  }
  // The runner and its workers take the profile as checked here (with its defaults) instead of checking it again each.
  env[RESOLVED_PROFILE_ENV] = JSON.stringify(profile);
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
  if (args.shard !== undefined) {
    try {
      parseShard(args.shard);
    } catch (e) {
      cannotRun(`--shard ${(e as Error).message}`);
    }
    // Every shard must generate the same cases as the others, or the merged run would not be one run.
    if (args.seed === undefined) cannotRun('--shard needs --seed: every shard of a run must generate the same cases (in CI, e.g. --seed $GITHUB_RUN_ID)');
    env[ENV.shard] = args.shard;
  }
  if (args.replay) {
    if (!/^[A-Za-z0-9_.-]+(![A-Z0-9,-]+)?=[0-9:]+$/.test(args.replay)) cannotRun(`--replay ${args.replay}: not a replay token (copy it from a failure's replay command)`);
    env[ENV.replay] = args.replay;
  }
  if (args.grep) env[ENV.grep] = args.grep;
  if (args.checks) env[ENV.checks] = args.checks;
  if (args.workers) env.HARNESS_WORKERS = args.workers;
  if (args.quiet) env.HARNESS_QUIET = '1';
  for (const one of args.fault ?? []) {
    const [name, fault] = one.split(':');
    if (!scope.includes(name as InterfaceName)) cannotRun(`--fault ${one}: ${name} is not an interface of this run (${scope.join(', ')})`);
    if (profile.interfaces[name as InterfaceName]?.baseUrl) cannotRun(`--fault ${one}: faults exist only in the embedded reference, and ${name} is a live target here`);
    const known = descriptorOf(name as InterfaceName).reference.faults;
    if (!known.some((f) => f.name === fault)) cannotRun(`--fault ${one}: no such fault; known: ${known.map((f) => f.name).join(', ')}`);
  }
  if (args.fault?.length) env[ENV.fault] = args.fault.join(',');

  if (args.list) {
    list();
    return 0;
  }

  const missing = missingCredentials(profile, scope);
  if (missing.length) cannotRun(missing.join('; '));
  const diffGate = args['fail-on-diff'] !== undefined ? diffGateOptions(args['fail-on-diff'], args.waivers, scope, profile.name, cannotRun) : undefined;
  if (args.compare || args['compare-recording']) {
    return compareWithBaseline({ argv, tokens: parsed.tokens ?? [], args, profile, scope, ...(diffGate ? { gate: diffGate } : {}), cannotRun });
  }
  const afterRun = await prepareAfterRun(args, profile, profileFile, cannotRun);
  if (afterRun.setAside.length) env[ENV.setAside] = afterRun.setAside.join(',');

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
  rmSync(path.join(runDir, 'blob'), { recursive: true, force: true });
  // Each test's duration in the last run of this profile and depth: the console announces a long test with it.
  const plan = writePlannedTests(runDir, { profileName: profile.name, depth: depthAsked || 'default', history: afterRun.history, latest: LATEST });
  if (plan) env[PLANNED_TESTS_ENV] = plan;
  return { env, grep: args.grep, scope, workers, shardWeights: weightsOfShards, finish, groupable: !args.shard && !args.replay && !args.checks };

  function finish(code: number): number {
    if (!existsSync(summaryFile)) cannotRun(`the run ended (playwright exit ${code}) without writing ${path.relative(process.cwd(), summaryFile)}`);
    if (!explicitDir) linkLatest(runDir);
    let summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary;
    if (args.replay) {
      const property = args.replay.split(/[!=]/)[0];
      if (!summary.properties.some((p) => p.property === property)) {
        cannotRun(`--replay ${args.replay}: no test of this run has the property ${property} (does --grep select the test the replay command names?)`);
      }
    }
    summary = finishRun(runDir, summary, afterRun);
    for (const block of failureBlocks(summary)) console.log(block);
    console.log(finalLine(summary, runDir));
    return summary.exitCode;
  }

  /**
   * A shard's weights: the test counts that give each shard an equal share of the planned work (harness/shard-weights.ts),
   * from the listing of the whole run, which every shard makes alike. Without a shard, none.
   */
  async function weightsOfShards(): Promise<number[] | undefined> {
    const shard = env[ENV.shard] ? parseShard(env[ENV.shard]!) : undefined;
    if (!shard || shard.total < 2) return undefined;
    let listed;
    try {
      listed = await listTests({ ...process.env, ...env }, args.grep);
    } catch (e) {
      cannotRun((e as Error).message);
    }
    if (listed.length < shard.total) return undefined;
    return shardWeights(listed, (name) => (isInterfaceName(name) ? plannedMsOf(name) : 0), shard.total);
  }

  /** An interface's planned work in this run (its suite's plannedMs): 0 for one the profile leaves out. */
  function plannedMsOf(name: InterfaceName): number {
    const entry = profile.interfaces[name];
    return entry ? descriptorOf(name).plannedMs({ profile, settings: entry.settings, baseUrl: entry.baseUrl, depth, live: Boolean(entry.baseUrl), workers }) : 0;
  }

  /** The planned work of the run against the time the profile or --max-minutes allows, before anything is sent. */
  function checkPlannedWork(): void {
    const ms = scope.reduce((sum, name) => sum + plannedMsOf(name), 0);
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
    // Every target is probed, so that one run names every cause at once.
    const problems: string[] = [];
    for (const name of scope) {
      const entry = profile.interfaces[name]!;
      if (!entry.baseUrl) continue;
      const descriptor = descriptorOf(name);
      const problem = await probeTarget({ profile, name, probe: descriptor.probe, authenticate: descriptor.authenticate });
      if (problem) problems.push(`target ${name} at ${entry.baseUrl} is not the API, or not ready: ${problem}`);
    }
    await closeAgents();
    if (problems.length) cannotRun(problems.join('\n'));
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
      for (const n of spec.notShown) console.log(`  ${n.id.padEnd(30)} ${'open'.padEnd(8)} ${n.text}  (${openPointTreatment(n, isStated(profile, name, n.setting ?? ''))})`);
      const writes = spec.operations.filter((op) => op.write);
      console.log(`  requests this run may send that could change state (the report lists each one sent, accepted or refused):`);
      if (writes.length === 0) console.log('    none');
      for (const op of writes) {
        const sends = reasons.operations[op.key]
          ? `not as a write: ${reasons.operations[op.key]}`
          : !profile.writes
            ? 'only requests the document says must be refused (no credential, a bad body); one accepted is flagged'
            : 'writes, a few per run, each undone where the interface allows, and requests that must be refused';
        console.log(`    ${op.key}: ${op.write}: ${sends}`);
      }
    }
  }
}
