/**
 * npm run selftest: proves the checks against the embedded reference (the judgement itself: scripts/selftest-judge.ts).
 *  - every valid configuration (each targets/reference*.yaml) must pass cleanly, shoulds included (--strict);
 *  - so must the generated profile template, only its base URLs changed, against the references started as live
 *    targets in their default readings; in their other readings it is never failed (scripts/selftest-template.ts);
 *  - every seeded fault must fail the requirements it names, break no check, and blame nothing its entry does not name;
 *  - every (check, requirement) pair the suites claim must be made to fail by at least one fault;
 *  - every run's summary fits the published schema and its per-requirement JUnit counts what the exit code counts;
 *  - no report, cassette, trace or log holds a credential of any interface, in any letter case or cut short.
 *  - every suite passes its reference in the "other readings" configuration (every open point in its first other
 *    reading) and in each later reading, up to 24 of one interface to a run, and each fault whose requirements meet
 *    an open point is caught in the other readings too (scripts/selftest-readings.ts);
 * Ends with the browser check of one fault run's conformance report.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import YAML from 'yaml';
import type { Fault } from '../harness/reference.ts';
import { ROOT, TARGETS_DIR, interfaceOfTestFile, scriptArgs } from '../harness/paths.ts';
import { CATALOGUES, REGISTRY, isInterfaceName, type InterfaceName } from './interfaces.ts';
import { summaryProblems } from '../harness/reporter/summary-schema.ts';
import { firstLine, type RunSummary } from '../harness/reporter/summary.ts';
import { loadSpec } from '../harness/spec/load.ts';
import { checkName, consistency, judgeSharedFaultRun, judgeUnstated, judgeValid, neverFlagged, pairKey, readingsOutsideTheirRequirements, unproven, verdictDifferences, waysCompared, type Pair } from './selftest-judge.ts';
import { firstOtherReadings, readingsLeavingLittle } from '../harness/readings.ts';
import { faultsMeetingOpenPoints, readingLanes, tagsOf } from './selftest-readings.ts';
import { deployTemplate, type TemplateDeployment } from './selftest-template.ts';
import { BatchSlot } from './selftest-batches.ts';
import { WorkerBudget } from './worker-budget.ts';
import { readingsDiffProblem } from './selftest-diff.ts';
import { deployBehindTrouble, environmentRuns, judgeEnvironment, probeOperations, type EnvironmentRun } from './selftest-environment.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' }, // a substring of run names, to iterate on a few
    interface: { type: 'string' }, // one interface's runs alone: its valid configurations, readings and faults
    seed: { type: 'string', default: '20261123' },
    // Runs mostly wait (fault runs use one worker and shrink through polls that wait out a settle time, chat's sit out
    // windows, usage's wait out a pipeline's lag): a fault run of four interfaces took 33 s for 8 s of CPU. On 2
    // cores, 4 runs at once took 1093 s and 6 took 808 s; with 215 runs, 10 at once took 784 s (1.7 cores busy), where
    // the previous CI took 896 s at 6 for 213. No run's verdict changed.
    // Counted in Playwright workers since runs were grouped (a group of runs takes its --group-workers). Grouped, the
    // self-test used 837 CPU-s in 886 s at 16 (one core busy on two); at 24, chat's window-timed checks missed faults.
    jobs: { type: 'string', default: String(8 * os.availableParallelism()) },
    'no-browser': { type: 'boolean' },
    list: { type: 'boolean' }, // the runs' names, to see what a change to the catalogues or the pairing costs
    // Each run's CPU time (user + system, its processes together) beside its wall time: the self-test is bound by
    // the machine's cores, so CPU time is what a change to the runs costs. Through GNU time (/usr/bin/time).
    cpu: { type: 'boolean' },
    // Each run's wall and CPU seconds and the (check, requirement) pairs it proved, as JSON (npm run bench -- --selftest).
    costs: { type: 'string' },
    // The environment runs (scripts/selftest-environment.ts): 'sample' rotates the one-operation runs by seed, 'all'
    // troubles every operation in turn, 'none' leaves them out.
    environment: { type: 'string', default: 'sample' },
    // Runs on one worker (faults, reading lanes) are made in groups, one Playwright invocation each (scripts/conformance-group.ts).
    'one-run-each': { type: 'boolean' },
    // A group's workers each start once (about 2 CPU-s of Playwright and the harness's modules): 8 runs on 2 workers
    // pay a quarter of a start each, where 5 on 4 paid almost one, as a run of its own does. Long runs go 4 to a group.
    'group-size': { type: 'string', default: '8' },
    'group-workers': { type: 'string', default: '2' },
    'both-ways': { type: 'boolean' },
    // A run that failed its judge is made once more, alone, after the others: see "made again" below.
    'no-retry': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`npm run selftest -- [options]

Runs every suite against the embedded references: each valid configuration must pass, each seeded fault must fail
the requirements it names and no others, every reading of every open point must pass, and each (check, requirement)
pair a suite claims must be made to fail by some fault.

  --interface NAME   one interface's runs alone (reports in reports/selftest/NAME)
  --only TEXT        the runs whose name contains TEXT (e.g. "fault chat:", "reading B-NS-CHECK-ORDER")
  --seed N           the seed every run uses (default ${values.seed})
  --jobs N           Playwright workers at once, a run's or a group's (default ${values.jobs}: they mostly wait)
  --no-browser       skip the browser check of the HTML report
  --list             print the runs it would make, and make none
  --cpu              measure each run's CPU time, each run in a process of its own (needs /usr/bin/time); without
                     it, a run's CPU time is its batch process's (Linux), its environment deployment's left out
  --costs FILE       write each run's wall and CPU seconds and the pairs it proved to FILE (JSON)
  --environment E    the runs behind environment trouble (a throttle, a 503, resets, a slow body): sample (default:
                     every kind whole-target, one operation per interface chosen by seed), all (every operation), none
  --one-run-each     make every run in a Playwright invocation of its own (to debug one fault alone); by default the
                     runs of one worker (the fault runs, the reading lanes) are made in groups, one invocation each,
                     every run still judged alone on its own report
  --group-size N     runs per group (default ${values['group-size']}; long runs half as many)
  --group-workers N  Playwright workers per group (default ${values['group-workers']})
  --both-ways        make each groupable run grouped, then alone twice, on the same seed, and compare every (run,
                     requirement) verdict and exit code: a grouped verdict that differs where the two alone runs
                     agree fails the self-test; one that moved between the two alone runs is listed as noise
  --no-retry         a run that fails its judge fails the self-test at once; by default it is made once more, alone,
                     after the others, and one that then passes is listed as flaky (named in the last lines)
  -h, --help         this text`);
  process.exit(0);
}
/** GNU time, which --cpu runs each run under: its user and system seconds cover every process of the run. */
const GNU_TIME = '/usr/bin/time';
if (values.cpu && !existsSync(GNU_TIME)) {
  console.error(`self-test: --cpu needs GNU time at ${GNU_TIME} (Debian's package time); run without --cpu, or install it`);
  process.exit(2);
}
// One interface's self-test (--interface) keeps to a folder of its own: several can run side by side.
const SELFTEST_DIR = path.join(ROOT, 'reports', 'selftest', ...(values.interface ? [values.interface] : []));

type ProfileDoc = { interfaces?: Record<string, { credentials?: Record<string, string> }> };
const referenceProfiles = readdirSync(TARGETS_DIR)
  .filter((f) => /^reference.*\.ya?ml$/.test(f))
  .sort()
  .map((file) => ({ file, doc: YAML.parse(readFileSync(path.join(TARGETS_DIR, file), 'utf8')) as ProfileDoc }));
/** The profile an interface's faults run against by default: reference.yaml, or the first valid configuration that has it. */
const homeProfile = (name: string) => (referenceProfiles.find((p) => p.file === 'reference.yaml' && p.doc.interfaces?.[name]) ?? referenceProfiles.find((p) => p.doc.interfaces?.[name]))?.file ?? 'reference.yaml';

// Every credential variable any reference profile names gets a value known to the self-test, so that it can look for
// each, in any letter case or cut short, in everything the runs wrote.
/** The environment variables a profile's entry names, through its definition where its credentials are more than a flat map (a pool, keys per role). */
const variablesOf = (name: string, credentials: unknown): string[] => {
  if (!credentials) return [];
  const flat = REGISTRY.find((d) => d.name === name)?.credentialVariables?.(credentials) ?? (credentials as Record<string, string>);
  return Object.values(flat).filter((v): v is string => typeof v === 'string');
};
const credentialVars = [...new Set(referenceProfiles.flatMap((p) => Object.entries(p.doc.interfaces ?? {}).flatMap(([name, e]) => variablesOf(name, e.credentials))))];
const SECRETS = Object.fromEntries(credentialVars.map((v) => [v, `SelfTest-${v}-${randomBytes(9).toString('base64url')}`]));
/** Credentials made for runs outside the profiles (the template's deployments), searched for too. */
const made = new Set<string>();

interface Run {
  name: string;
  args: string[];
  /** Runs that last long or mostly wait (the other readings' slower timings and more pages, the reading lanes, the template's deployments): started first, so that none is left to run alone at the end. */
  long?: boolean;
  /** The seeded faults of the run (one per interface), or none for a valid configuration. */
  faults: Array<{ interfaceName: string; fault: Fault }>;
  judge: (code: number, summary: RunSummary | undefined, output: string) => { problem?: string; proves?: Pair[] };
  /** Starts what the run targets outside the harness (a live-style deployment): its profile goes first in the args. */
  prepare?: (dir: string) => Promise<TemplateDeployment>;
  /** With --both-ways: the grouped run this one repeats alone, for the comparison of their verdicts (`again`: the second time). */
  aloneTwinOf?: Run;
  again?: boolean;
  /** A run against a reference behind environment trouble (scripts/selftest-environment.ts). */
  environment?: boolean;
}

if (values.interface && !isInterfaceName(values.interface)) {
  console.error(`self-test: --interface ${values.interface}: not an interface (${REGISTRY.map((d) => d.name).join(', ')})`);
  process.exit(2);
}
/** The interfaces whose runs this self-test makes (--interface narrows it to one). */
const covered = REGISTRY.filter((d) => !values.interface || d.name === values.interface);
/** With --interface, every run is narrowed to it. */
const narrow = values.interface ? ['--interfaces', values.interface] : [];

const claimed = claimedPairs();
const advisories = new Set(REGISTRY.flatMap((d) => loadSpec(d.name).requirements.filter((r) => r.level === 'advisory').map((r) => r.id)));
// Advisories never fail: the default configuration must show them flagged instead.
const mustProve = claimed.filter((p) => !advisories.has(p.requirement));

const runs: Run[] = [];
/**
 * The profile the readings are run from: reference.yaml, or with --interface the interface's home profile (one added
 * from the template has a profile of its own, and reference.yaml does not name it).
 */
const READINGS_PROFILE = values.interface ? homeProfile(values.interface) : 'reference.yaml';
for (const { file, doc } of referenceProfiles) {
  if (values.interface && !doc.interfaces?.[values.interface]) continue;
  // The readings' profile records its behaviour, for the diff against the other readings below.
  const record = file === READINGS_PROFILE ? ['--record-behaviour'] : [];
  runs.push({ name: `valid ${file}`, args: ['--target', path.join('targets', file), '--strict', ...record, ...narrow], faults: [], judge: (code, s) => ({ problem: judgeValid(code, s) }) });
}
// A sharded run, merged, must give the verdicts of the unsplit run with the same seed (the valid reference.yaml run),
// for the interfaces it shards: those whose identities each shard takes apart (chat's client addresses, usage-events'
// stretches of time). The merge is the same code for every interface; sharding all six repeated the whole valid run.
// Queued before the fault runs: a shard that sits out chat's windows must not be the last run left.
const SHARDS = 3;
const SHARDED: string[] = covered.map((d) => d.name).filter((name) => name === 'chat' || name === 'usage-events');
const shardRuns: Run[] = Array.from({ length: SHARDS }, (_, i) => ({
  name: `shard ${i + 1} of ${SHARDS} of reference.yaml`,
  args: ['--target', path.join('targets', 'reference.yaml'), '--interfaces', SHARDED.join(','), '--strict', '--shard', `${i + 1}/${SHARDS}`],
  faults: [],
  judge: (_code, s) => ({ problem: s ? undefined : 'no summary.json' }),
}));
if (!values.interface && SHARDED.length) runs.push(...shardRuns);
// Every correct deployment passes: the references in other readings of their open points, all at once (default depth,
// every check), then each later reading in runs of up to 24 per interface (quick depth, the tests of the requirements
// their points meet).
const OTHER_READINGS = `valid ${READINGS_PROFILE} in other readings`;
// A point whose first other reading leaves most checks nothing to judge (unified-exchange's unfunded accounts) keeps
// its default here, and that reading runs in a lane with the later ones.
const leavingLittle = covered.flatMap((d) => readingsLeavingLittle(CATALOGUES, d.name).map((r) => r.point));
const otherReadings = leavingLittle.length ? covered.flatMap((d) => firstOtherReadings(CATALOGUES, d.name)).filter((r) => !leavingLittle.includes(r.point)).map((r) => `${r.point}=${r.reading}`).join(',') : 'other';
runs.push({ name: OTHER_READINGS, long: true, args: ['--target', path.join('targets', READINGS_PROFILE), '--readings', otherReadings, '--strict', '--record-behaviour', ...narrow], faults: [], judge: (code, s) => ({ problem: judgeValid(code, s) }) });
// The same deployments with a profile that does not state what their testers would: never a failure (a default the
// harness guessed is not the target's fault), at most untested.
runs.push({ name: `${OTHER_READINGS}, unstated`, args: ['--target', path.join('targets', READINGS_PROFILE), '--readings', 'other', '--unstated', '--strict', '--depth', 'quick', ...narrow], faults: [], judge: (code, s) => ({ problem: judgeUnstated(code, s) }) });
// The generated profile template, only its base URLs changed, against the references started as live targets with
// the settings it leaves them: a guess it stated would fail a correct deployment (scripts/selftest-template.ts).
for (const other of [false, true]) {
  runs.push({
    name: `valid generated template, only baseUrl changed${other ? ', in other readings' : ''}`,
    long: true,
    args: ['--strict', '--depth', 'quick', ...narrow],
    faults: [],
    prepare: (dir) => deployTemplate(covered.map((d) => d.name as InterfaceName), path.join(dir, 'deployment'), other),
    // In other readings the template states none of them: never failed, at most untested.
    judge: (code, s) => ({ problem: other ? judgeUnstated(code, s) : judgeValid(code, s) }),
  });
}
for (const lane of readingLanes(covered.map((d) => d.name), (name, id) => claimed.some((p) => p.interfaceName === name && p.requirement === id))) {
  runs.push({
    name: `reading ${lane.readings.map((r) => `${r.point}=${r.reading}`).join(' + ')}`,
    // A lane mostly waits (a slow pipeline, a countdown's sweep, a window), one interface after another in its one
    // worker: started with the long runs, so that no lane is left waiting alone at the end (one that met three such
    // readings took 256 s, and was the last run of the self-test).
    long: true,
    args: ['--target', path.join('targets', READINGS_PROFILE), '--interfaces', lane.interfaces.join(','), '--grep', lane.grep, '--strict', '--workers', '1', '--depth', 'quick', ...lane.readings.flatMap((r) => ['--readings', `${r.point}=${r.reading}`])],
    faults: [],
    judge: (code, s) => ({ problem: judgeValid(code, s) }),
  });
}
runs.push(...faultRuns());
// Each correct reference behind trouble of its environment: no verdict taken from the trouble (scripts/selftest-environment.ts).
if (!['sample', 'all', 'none'].includes(values.environment!)) {
  console.error(`self-test: --environment ${values.environment}: sample, all or none`);
  process.exit(2);
}
if (values.environment !== 'none') {
  const names = covered.map((d) => d.name as InterfaceName);
  for (const e of environmentRuns(names, Number(values.seed), values.environment === 'all', (name) => probeOperations(name, homeProfile(name)))) {
    runs.push({
      name: e.name,
      environment: true,
      args: ['--strict', '--depth', 'quick', '--workers', '1', ...(e.shape === 'one-operation' ? ['--grep', operationTags(e)] : [])],
      faults: [],
      prepare: (dir) => deployBehindTrouble(names, e, path.join(dir, 'deployment'), homeProfile),
      judge: (code, s, output) => ({ problem: judgeEnvironment(e, names, code, s, output) }),
    });
  }
}

/** The tests a one-operation run needs: those of the requirements of each troubled operation, generic ones included. */
function operationTags(e: EnvironmentRun): string {
  return tagsOf(Object.entries(e.operations).flatMap(([name, op]) => loadSpec(name as InterfaceName).requirements.filter((r) => !r.operations || r.operations.includes(op!)).map((r) => r.id)));
}
// A fault whose requirements meet an open point must be caught in the other readings too (but for the points its
// catalogue entry keeps at their default: a fault a reading makes unobservable, say).
const meets = faultsMeetingOpenPoints();
runs.push(...faultRuns(meets, true).map((r) => ({ ...r, long: true, name: `${r.name} in other readings`, args: [...r.args, ...readingsArgs(r.faults)] })));

/** --readings for a fault run in the other readings: `other`, or every first other reading but those a fault keeps at their default. */
function readingsArgs(faults: Run['faults']): string[] {
  const kept = new Set(faults.flatMap((f) => Object.keys(f.fault.keepsDefault ?? {})));
  if (kept.size === 0) return ['--readings', 'other'];
  const pairs = faults.flatMap((f) => firstOtherReadings(CATALOGUES, f.interfaceName)).filter((r) => !kept.has(r.point));
  return pairs.length ? ['--readings', pairs.map((r) => `${r.point}=${r.reading}`).join(',')] : [];
}

/**
 * One run per fault, except that faults needing the same profile share a run: faults of different interfaces (each
 * reference carries its own and is judged on its own requirements), and faults of one reference that change different
 * parts of it and meet different checks (pairable), one per part. A run's start-up, the costliest part of a fault
 * run, is paid once for all of them.
 */
function faultRuns(only?: (interfaceName: string, fault: Fault) => boolean, inOtherReadings = false): Run[] {
  const byProfile = new Map<string, Map<string, Fault[][]>>();
  for (const d of covered) {
    for (const fault of d.reference.faults) {
      if (only && !only(d.name, fault)) continue;
      const profile = fault.profile ?? homeProfile(d.name);
      const slotsOf = byProfile.get(profile) ?? new Map<string, Fault[][]>();
      const slots = slotsOf.get(d.name) ?? [];
      const partner = slots.find((slot) => slot.every((other) => pairable(d.name, other, fault, inOtherReadings)));
      if (partner) partner.push(fault);
      else slots.push([fault]);
      slotsOf.set(d.name, slots);
      byProfile.set(profile, slotsOf);
    }
  }
  const out: Run[] = [];
  for (const [profile, slotsOf] of byProfile) {
    const inProfile = referenceProfiles.find((p) => p.file === profile)?.doc.interfaces ?? {};
    const longest = Math.max(...[...slotsOf.values()].map((l) => l.length));
    for (let i = 0; i < longest; i++) {
      const at = [...slotsOf].flatMap(([interfaceName, slots]) => (slots[i] ?? []).map((fault) => ({ interfaceName, fault })));
      // Only interfaces the profile has can share its run.
      const faults = at.filter((f) => inProfile[f.interfaceName]);
      for (const lone of at.filter((f) => !inProfile[f.interfaceName])) out.push(faultRun(profile, [lone]));
      if (faults.length) out.push(faultRun(profile, faults));
    }
  }
  return out;
}

/** The checks that judge a fault's requirements (those it must fail, keep undecided or may fail). */
function checksOf(interfaceName: string, fault: Fault): Set<string> {
  const ids = new Set([...fault.violates, ...(fault.undecided ?? []), ...(fault.collateral ?? [])]);
  return new Set(claimed.filter((p) => p.interfaceName === interfaceName && ids.has(p.requirement)).map((p) => p.check));
}

/**
 * Two faults of one reference may share a run when each changes its own part of it (Fault.part), no check judges
 * requirements of both (a property stops at its first failure, which could hide the other's), and the run treats both
 * alike: the same depth, and in the other readings no point kept at its default for one that the other's requirements
 * meet (it would be spared the very reading it must be caught in).
 */
function pairable(interfaceName: string, a: Fault, b: Fault, inOtherReadings: boolean): boolean {
  if (!a.part || !b.part || overlap(a.part, b.part)) return false;
  if (Boolean(a.needsDefaultDepth) !== Boolean(b.needsDefaultDepth)) return false;
  if (inOtherReadings && (sparedBy(interfaceName, a, b) || sparedBy(interfaceName, b, a))) return false;
  const checksOfA = checksOf(interfaceName, a);
  return ![...checksOf(interfaceName, b)].some((c) => checksOfA.has(c));
}

/** Parts nest ('trading' holds 'trading/cancels'): two parts overlap when one is the other or holds it. */
function overlap(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** Whether a point `keeper` keeps at its default meets a requirement of `f`. */
function sparedBy(interfaceName: string, f: Fault, keeper: Fault): boolean {
  const points = loadSpec(interfaceName).notShown.filter((p) => keeper.keepsDefault?.[p.id] !== undefined);
  return points.some((p) => (p.requirements ?? []).some((id) => f.violates.includes(id)));
}

function faultRun(profile: string, faults: Array<{ interfaceName: string; fault: Fault }>): Run {
  // The checks a fault must leave undecided run too: a fault whose refusal checks never ran would prove no control.
  const tags = tagsOf(faults.flatMap((f) => [...f.fault.violates, ...(f.fault.undecided ?? [])]));
  // Quick depth: a seeded fault shows within a quarter of the default cases (the pairs proof below fails if one does
  // not), unless its entry says it needs more; the valid configurations keep the default depth, where a false alarm
  // would show.
  const depth = faults.some((f) => f.fault.needsDefaultDepth) ? 'default' : 'quick';
  const args = ['--target', path.join('targets', profile), '--interfaces', faults.map((f) => f.interfaceName).join(','), '--grep', tags, '--strict', '--workers', '1', '--depth', depth];
  for (const f of faults) args.push('--fault', `${f.interfaceName}:${f.fault.name}`);
  return {
    name: `fault ${faults.map((f) => `${f.interfaceName}:${f.fault.name}`).join(' + ')}`,
    ...(faults.some((f) => f.fault.slow) ? { long: true } : {}),
    args,
    faults,
    judge: (code, s) => judgeSharedFaultRun(faults, code, s),
  };
}

/** The (check, requirement) pairs of every test the suites define, from Playwright's listing under each interface's home profile. */
function claimedPairs(): Pair[] {
  const pairs = new Map<string, Pair>();
  type Listed = { file: string; specs?: Array<{ title: string; tags?: string[] }>; suites?: Listed[] };
  // A test belongs to the spec file whose suite holds it (shared checks are declared by code outside suites/); the
  // listing names that file relative to suites/, the config's test directory.
  const walk = (suite: Listed, specFile = suite.file) => {
    for (const spec of suite.specs ?? []) {
      const interfaceName = interfaceOfTestFile(specFile);
      if (!isInterfaceName(interfaceName)) continue;
      for (const t of spec.tags ?? []) {
        const p = { interfaceName, check: checkName(spec.title), requirement: t.replace(/^@/, '') };
        pairs.set(pairKey(p), p);
      }
    }
    for (const child of suite.suites ?? []) walk(child, specFile);
  };
  for (const profile of new Set(REGISTRY.map((d) => homeProfile(d.name)))) {
    const out = execFileSync(process.execPath, [path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--list', '--reporter=json', '-c', path.join(ROOT, 'playwright.config.ts')], {
      cwd: ROOT,
      env: { ...process.env, HARNESS_PROFILE: path.join(TARGETS_DIR, profile), HARNESS_INTERFACES: '' },
      maxBuffer: 64 * 1024 * 1024,
    }).toString();
    for (const suite of (JSON.parse(out) as Listed).suites ?? []) walk(suite);
  }
  return [...pairs.values()];
}

const chosen = runs.filter((r) => !values.only || r.name.includes(values.only));
if (chosen.length === 0) {
  console.error(`self-test: no run matches --only ${values.only} (of ${runs.length} runs)`);
  process.exit(2);
}
const GROUPED = !values['one-run-each'] && !values.cpu;
const GROUP_SIZE = Number(values['group-size']);
const GROUP_WORKERS = Number(values['group-workers']);
if (!(GROUP_SIZE >= 1) || !(GROUP_WORKERS >= 1)) {
  console.error('self-test: --group-size and --group-workers take a whole number of at least 1');
  process.exit(2);
}
if (values['both-ways'] && !GROUPED) {
  console.error('self-test: --both-ways compares grouped runs with the same runs made alone: it does not go with --one-run-each or --cpu');
  process.exit(2);
}
/** With --both-ways, each groupable run is made alone too, under a name (and folder) of its own. */
const twins = (again: boolean) => chosen.filter(groupable).map((r): Run => ({ ...r, name: `${r.name} (alone${again ? ', again' : ''})`, aloneTwinOf: r, ...(again ? { again } : {}) }));
/** With --both-ways, each groupable run is made alone twice too, under names (and folders) of their own. */
const selected = values['both-ways'] ? [...chosen, ...twins(false), ...twins(true)] : chosen;
if (values.list) {
  for (const r of selected) console.log(`${r.name}${GROUPED && groupable(r) && !r.aloneTwinOf ? ' [grouped]' : ''}`);
  console.log(`${selected.length} runs`);
  process.exit(0);
}

/**
 * Whether a run can share one Playwright invocation with others (scripts/conformance-group.ts): a run of the embedded
 * references on one worker (the fault runs and the reading lanes, which mostly wait, so that their cost is mostly the
 * start of their processes), with nothing outside the harness to deploy, unsharded, every check declared.
 */
function groupable(run: Run): boolean {
  const workers = run.args.indexOf('--workers');
  if (run.faults.some((f) => f.fault.alone)) return false;
  return !run.prepare && !run.aloneTwinOf && workers >= 0 && run.args[workers + 1] === '1' && !run.args.includes('--shard') && !run.args.includes('--checks');
}

/**
 * The order the runs start in: the long ones first, so that none is left to run alone at the end (a run of its own
 * before a group, which spreads over its workers); groupable runs in groups of --group-size (long with long, half as
 * many), unless
 * --one-run-each; the environment runs, which wait out throttles and slow bodies, before the short groups.
 */
function queued(list: Run[]): Array<Run | Run[]> {
  const groups = (these: Run[], size: number) => {
    const grouped = GROUPED ? these.filter(groupable) : [];
    const out: Run[][] = [];
    for (let i = 0; i < grouped.length; i += size) out.push(grouped.slice(i, i + size));
    return { grouped: out, alone: these.filter((r) => !grouped.includes(r)) };
  };
  const long = groups(list.filter((r) => r.long), Math.ceil(GROUP_SIZE / 2));
  const short = groups(list.filter((r) => !r.long), GROUP_SIZE);
  const environment = short.alone.filter((r) => r.environment);
  return [...long.alone, ...long.grouped, ...environment, ...short.grouped, ...short.alone.filter((r) => !r.environment)];
}
rmSync(SELFTEST_DIR, { recursive: true, force: true });
mkdirSync(SELFTEST_DIR, { recursive: true });

/** A run's folder: its name, cut short (a file name holds 255 bytes; a run of ten readings names them all) with a hash of the whole. */
function dirOf(run: Run): string {
  const slug = run.name.replace(/[^A-Za-z0-9.-]+/g, '_');
  return path.join(SELFTEST_DIR, slug.length <= 120 ? slug : `${slug.slice(0, 110)}-${createHash('sha256').update(run.name).digest('hex').slice(0, 8)}`);
}

/** The user and system seconds GNU time wrote for a run, and the file removed. */
function cpuSeconds(file: string): number | undefined {
  try {
    const [user, system] = readFileSync(file, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
    rmSync(file, { force: true });
    return Number.isFinite(user) && Number.isFinite(system) ? user + system : undefined;
  } catch {
    return undefined;
  }
}

type Result = { run: Run; problem?: string; proves: Pair[]; ms: number; cpu: number | undefined; output: string; group?: number };

/** A run ready to make: its command's arguments and environment, its report folder, and its deployment to stop after it. */
interface Launch {
  run: Run;
  reportDir: string;
  args: string[];
  env: Record<string, string>;
  started: number;
  deployment?: TemplateDeployment;
}

/** Starts what a run targets outside the harness, if anything, and settles its arguments; a result where that failed. */
async function launch(run: Run, reportDir = dirOf(run)): Promise<Launch | Result> {
  const started = Date.now();
  let deployment: TemplateDeployment | undefined;
  try {
    deployment = await run.prepare?.(path.join(os.tmpdir(), `selftest-${path.basename(reportDir)}-${process.pid}`));
  } catch (e) {
    return { run, problem: `its deployment did not start: ${(e as Error).message}`, proves: [], ms: Date.now() - started, cpu: undefined, output: '' };
  }
  for (const v of Object.values(deployment?.env ?? {})) made.add(v);
  const args = [...(deployment ? ['--target', deployment.file] : []), ...run.args, '--seed', values.seed!, '--quiet'];
  const env = { HARNESS_REPORT_DIR: reportDir, CI: '', HARNESS_SELFTEST: '1', ...SECRETS, ...deployment?.env };
  return { run, reportDir, args, env, started, ...(deployment ? { deployment } : {}) };
}

/**
 * Makes one run and judges it: in the job's batch process (scripts/selftest-batch.ts), or, with --cpu, in a process of
 * its own, whose CPU time is the run's alone.
 */
async function execute(run: Run, slot: BatchSlot | undefined, reportDir = dirOf(run)): Promise<Result> {
  const l = await launch(run, reportDir);
  if (!('args' in l)) return l;
  let output = '';
  let code: number;
  const cpuFile = slot ? undefined : path.join(os.tmpdir(), `selftest-cpu-${process.pid}-${createHash('sha256').update(run.name).digest('hex').slice(0, 12)}`);
  let batchCpu: number | undefined;
  if (slot) {
    ({ code, output, cpu: batchCpu } = await slot.run(l.args, l.env));
  } else {
    code = await new Promise<number>((resolve) => {
      const child = spawn(GNU_TIME, ['-f', '%U %S', '-o', cpuFile!, process.execPath, ...scriptArgs('conformance'), ...l.args], { cwd: ROOT, env: { ...process.env, ...l.env }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('exit', (c) => resolve(c ?? 2));
      // A command that cannot start emits no exit: without this the run, and the self-test, would wait for ever.
      child.on('error', (e) => {
        output += `${GNU_TIME} did not start: ${e.message}\n`;
        resolve(2);
      });
    });
  }
  await l.deployment?.stop();
  return judged(l, code, output, cpuFile ? cpuSeconds(cpuFile) : batchCpu, Date.now() - l.started);
}

/**
 * Makes several runs as one group (scripts/conformance-group.ts: one Playwright invocation, each run its own
 * references, reports and verdicts) and judges each as if it had run alone. A run's share of the group's CPU time is
 * its share of the group's test time; its wall time is the group's.
 */
async function executeGroup(group: Run[], slot: BatchSlot, index: number): Promise<Result[]> {
  const launched = await Promise.all(group.map((r) => launch(r)));
  const ready = launched.filter((l): l is Launch => 'args' in l);
  const out: Result[] = launched.filter((l): l is Result => !('args' in l));
  if (ready.length === 0) return out;
  const started = Date.now();
  const { replies, cpu } = await slot.runGroup(ready.map((l) => ({ args: l.args, env: l.env })), GROUP_WORKERS);
  const ms = Date.now() - started;
  const testMs = ready.map((l) => testTimeOf(l.reportDir));
  const total = testMs.reduce((a, b) => a + b, 0);
  for (const [i, l] of ready.entries()) {
    const share = cpu === undefined ? undefined : total > 0 ? (cpu * testMs[i]) / total : cpu / ready.length;
    out.push({ ...judged(l, replies[i].code, replies[i].output, share, ms), group: index });
  }
  return out;
}

/** The sum of a run's tests' durations (ms), from its summary: 0 without one. */
function testTimeOf(reportDir: string): number {
  const file = path.join(reportDir, 'summary.json');
  if (!existsSync(file)) return 0;
  return (JSON.parse(readFileSync(file, 'utf8')) as RunSummary).timing.reduce((sum, t) => sum + t.durationMs, 0);
}

/** A made run judged by its own judge, and its files held to its exit code. */
function judged(l: Launch, code: number, output: string, cpu: number | undefined, ms: number): Result {
  const { run, reportDir } = l;
  const file = path.join(reportDir, 'summary.json');
  const summary = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunSummary) : undefined;
  const verdict = run.judge(code, summary, output);
  let problem = verdict.problem;
  if (summary && !problem) {
    const junit = path.join(reportDir, 'junit-requirements.xml');
    const failures = existsSync(junit) ? (readFileSync(junit, 'utf8').match(/<failure /g) ?? []).length : undefined;
    problem = consistency(code, summary, failures, summaryProblems(summary));
  }
  // A fault run's proofs are judged per interface (one interface's fault going undetected does not unprove another's
  // checks); files that contradict their exit code prove nothing.
  const trusted = !problem || problem === verdict.problem;
  return { run, problem, proves: trusted ? (verdict.proves ?? []) : [], ms, cpu, output };
}

const started = Date.now();
const results: Result[] = [];
// With --both-ways, the runs made alone start once the grouped self-test has ended: each way meets the machine's load
// of a self-test of its own (a window-timed check's verdict moves with the load, as it does between two runs of one way).
const phases = values['both-ways'] ? [queued(chosen), queued(selected.filter((r) => r.aloneTwinOf && !r.again)), queued(selected.filter((r) => r.again))] : [queued(selected)];
let groupsMade = 0;
// The machine's load is its Playwright workers: a run takes as many of the --jobs as it has workers, a group its
// --group-workers. Each item is made in a batch process (scripts/selftest-batch.ts) of the pool, which keeps its
// process between items: a run's process start, the largest part of a short run's CPU time, is paid once for many.
// --cpu measures each run in a process of its own instead.
const workers = new WorkerBudget(Number(values.jobs));
const idle: BatchSlot[] = [];
for (const queue of phases) {
  const making: Promise<void>[] = [];
  for (const item of queue) {
    const weight = Math.min(Number(values.jobs), Array.isArray(item) ? GROUP_WORKERS : workersOf(item));
    await workers.take(weight);
    making.push(
      (async () => {
        const slot = values.cpu ? undefined : (idle.pop() ?? new BatchSlot());
        try {
          const made = Array.isArray(item) ? await executeGroup(item, slot!, ++groupsMade) : [await execute(item, slot)];
          for (const r of made) {
            results.push(r);
            printResult(r);
          }
        } finally {
          if (slot) idle.push(slot);
          workers.give(weight);
        }
      })(),
    );
  }
  await Promise.all(making);
}

// A run that failed its judge is made once more, alone, once every other run has ended. What a window-timed check
// sees moves with the machine's load (sixteen workers on two cores), and a run's verdict is a claim about its
// configuration, not about that load: a run that passes alone is listed as flaky, in the last lines, never hidden; one
// that fails again fails the self-test. --both-ways compares the ways themselves and makes nothing again.
const flaky: string[] = [];
if (!values['no-retry'] && !values['both-ways']) {
  for (const [i, first] of results.entries()) {
    if (!first.problem) continue;
    const slot = values.cpu ? undefined : (idle.pop() ?? new BatchSlot());
    try {
      const again = await execute(first.run, slot);
      printResult(again, ', made again alone');
      if (!again.problem) flaky.push(`${first.run.name}: ${firstLine(first.problem)}`);
      results[i] = { ...again, ...(first.group ? { group: first.group } : {}) };
    } finally {
      if (slot) idle.push(slot);
    }
  }
}
for (const slot of idle) slot.retire();

/** A made run's line: ok or FAIL, its name, what it took and, failed, why (its whole output with SELFTEST_VERBOSE). */
function printResult(r: Result, how = ''): void {
  const took = `${(r.ms / 1000).toFixed(1)} s${r.group ? ` in group ${r.group}` : ''}${r.cpu === undefined ? '' : `, ${r.cpu.toFixed(1)} CPU-s`}`;
  console.log(`${r.problem ? 'FAIL' : 'ok  '} ${r.run.name}${how} (${took})${r.problem ? `\n     ${r.problem}` : ''}`);
  if (r.problem && process.env.SELFTEST_VERBOSE) console.log(r.output);
}

/** A run's Playwright workers: its --workers, else the conformance command's default of 2. */
function workersOf(run: Run): number {
  const i = run.args.indexOf('--workers');
  return i >= 0 ? Number(run.args[i + 1]) || 1 : 2;
}

// --both-ways: each grouped run against the same run made alone twice, verdict by verdict (scripts/selftest-judge.ts).
let bothWaysProblem: string | undefined;
if (values['both-ways']) {
  const summaryOf = (run: Run) => (existsSync(path.join(dirOf(run), 'summary.json')) ? (JSON.parse(readFileSync(path.join(dirOf(run), 'summary.json'), 'utf8')) as RunSummary) : undefined);
  const firsts = results.filter((r) => r.run.aloneTwinOf && !r.run.again);
  let compared = 0;
  const differ: string[] = [];
  const noise: string[] = [];
  for (const r of firsts) {
    const grouped = r.run.aloneTwinOf!;
    const again = results.find((x) => x.run.again && x.run.aloneTwinOf === grouped)?.run;
    const [g, a, b] = [summaryOf(grouped), summaryOf(r.run), again && summaryOf(again)];
    if (!g || !a || !b) {
      differ.push(`${grouped.name}: no summary.json ${!g ? 'grouped' : 'alone'}`);
      continue;
    }
    const ways = waysCompared(g, a, b);
    compared += ways.compared;
    differ.push(...ways.differ.map((d) => `${grouped.name}: ${d}`));
    noise.push(...ways.noise.map((d) => `${grouped.name}: ${d}`));
  }
  bothWaysProblem = differ.length ? `${differ.length} verdicts of the grouped runs differ from the same runs made alone, where the two alone runs agree:\n     ${differ.join('\n     ')}` : undefined;
  const noted = noise.length ? `; ${noise.length} moved between the two alone runs themselves, the grouped run not judged on them:\n     ${noise.join('\n     ')}` : '';
  console.log(`${bothWaysProblem ? 'FAIL' : 'ok  '} ${firsts.length} runs made grouped and alone twice, seed ${values.seed}: ${compared} (run, requirement) verdicts and exit codes compared, ${differ.length} differ${bothWaysProblem ? `\n     ${bothWaysProblem}` : ''}${noted}`);
}

// A check that cannot fail is a defect: each (check, requirement) pair the suites claim is made to fail by a fault.
let pairsProblem: string | undefined;
// With --only, the pairs of the interfaces whose every fault ran.
const complete = REGISTRY.filter((d) => d.reference.faults.every((f) => selected.some((r) => r.faults.some((x) => x.interfaceName === d.name && x.fault.name === f.name)))).map((d) => d.name as string);
const checkPairs = complete.length > 0;
if (checkPairs) {
  const missing = unproven(mustProve.filter((p) => complete.includes(p.interfaceName)), results.flatMap((r) => r.proves));
  pairsProblem = missing.length ? `${missing.length} (check, requirement) pairs no seeded fault makes fail:\n     ${missing.map(pairKey).join('\n     ')}` : undefined;
  const n = mustProve.filter((p) => complete.includes(p.interfaceName)).length;
  console.log(pairsProblem ? `FAIL ${pairsProblem}` : `ok   each of the ${n} (check, requirement) pairs the suites of ${complete.join(', ')} claim is made to fail by a seeded fault (advisories: shown flagged)`);
}

// A check that saw the target take a reading of an open point judges one of the requirements the spec lists for that
// point: otherwise the single-reading runs, which select tests by those requirements, would leave it out.
let readingsProblem: string | undefined;
const otherReadingsRun = results.find((r) => r.run.name === OTHER_READINGS);
if (otherReadingsRun) {
  const summaries = [otherReadingsRun, results.find((r) => r.run.name === `valid ${READINGS_PROFILE}`)].flatMap((r) => (r && existsSync(path.join(dirOf(r.run), 'summary.json')) ? [JSON.parse(readFileSync(path.join(dirOf(r.run), 'summary.json'), 'utf8')) as RunSummary] : []));
  const outside = summaries.flatMap(readingsOutsideTheirRequirements);
  readingsProblem = outside.length ? `${outside.length} open points were met by checks of requirements their spec entry does not list:\n     ${[...new Set(outside)].join('\n     ')}` : undefined;
  console.log(`${readingsProblem ? 'FAIL' : 'ok  '} every check that met an open point judges a requirement its spec entry lists${readingsProblem ? `\n     ${readingsProblem}` : ''}`);
}

// Advisories never fail: each one the suites claim must be shown flagged by a correct deployment - the reference in
// its default or in one of its readings (an advisory names a risky choice a deployment may take, which the reference's
// default need not take: an unchecked timestamp, say).
let advisoriesProblem: string | undefined;
const checkAdvisories = !values.only;
if (checkAdvisories) {
  const valid = results.filter((r) => r.run.faults.length === 0 && existsSync(path.join(dirOf(r.run), 'summary.json'))).map((r) => JSON.parse(readFileSync(path.join(dirOf(r.run), 'summary.json'), 'utf8')) as RunSummary);
  const claimedAdvisories = [...new Set(claimed.filter((p) => advisories.has(p.requirement) && covered.some((d) => d.name === p.interfaceName)).map((p) => p.requirement))];
  const never = neverFlagged(claimedAdvisories, valid);
  advisoriesProblem = never.length ? `advisories no valid configuration or reading of the references shows flagged: ${never.join(', ')}` : undefined;
  console.log(`${advisoriesProblem ? 'FAIL' : 'ok  '} each of the ${claimedAdvisories.length} advisories the suites claim is shown flagged by a valid configuration or reading${advisoriesProblem ? `\n     ${advisoriesProblem}` : ''}`);
}

// The behaviour diff of the default and the other readings: exactly the flipped open points (scripts/selftest-diff.ts).
let diffProblem: string | undefined;
const defaultRun = results.find((r) => r.run.name === `valid ${READINGS_PROFILE}`);
const checkDiff = Boolean(otherReadingsRun && defaultRun);
if (checkDiff) {
  const d = readingsDiffProblem(dirOf(defaultRun!.run), dirOf(otherReadingsRun!.run), covered.map((x) => x.name as InterfaceName));
  diffProblem = d.problem;
  console.log(`${diffProblem ? 'FAIL' : 'ok  '} ${d.line || 'the behaviour diff of reference.yaml and its other readings'}${diffProblem ? `\n     ${diffProblem}` : ''}`);
}

let shardProblem: string | undefined;
const unsplit = results.find((r) => r.run.name === 'valid reference.yaml' && !r.problem);
const checkShards = Boolean(unsplit) && shardRuns.every((r) => results.some((x) => x.run === r));
if (checkShards) {
  shardProblem = await mergedEqualsUnsplit(path.join(dirOf(unsplit!.run), 'summary.json'), shardRuns.map(dirOf));
  console.log(`${shardProblem ? 'FAIL' : 'ok  '} ${SHARDS} shards of reference.yaml (${SHARDED.join(', ')}), merged, give the unsplit run's verdicts, requirement by requirement${shardProblem ? `\n     ${shardProblem}` : ''}`);
}

/** Merges the shards (npm run merge-reports) and compares the merged verdicts with the unsplit run's. */
async function mergedEqualsUnsplit(unsplitSummary: string, shardDirs: string[]): Promise<string | undefined> {
  const out = path.join(SELFTEST_DIR, 'merged-shards');
  let output = '';
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [...scriptArgs('merge-reports'), ...shardDirs, '--out', out], { cwd: ROOT, env: { ...process.env, ...SECRETS }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (c) => resolve(c ?? 2));
  });
  const file = path.join(out, 'summary.json');
  if (!existsSync(file)) return `merge-reports exit ${code} without a summary:\n${output.split('\n').slice(-15).join('\n')}`;
  const merged = JSON.parse(readFileSync(file, 'utf8')) as RunSummary;
  const unsplitRun = JSON.parse(readFileSync(unsplitSummary, 'utf8')) as RunSummary;
  const before = { ...unsplitRun, interfaces: unsplitRun.interfaces.filter((i) => SHARDED.includes(i.name)) };
  const diff = verdictDifferences(before, merged);
  if (diff.length) return `${diff.length} verdicts differ:\n     ${diff.slice(0, 20).join('\n     ')}`;
  if (code !== before.exitCode) return `merge-reports exit ${code}, the unsplit run's ${before.exitCode}`;
  const schema = summaryProblems(merged);
  return schema.length ? `the merged summary.json does not fit its schema: ${schema.join('; ')}` : undefined;
}

let browserProblem: string | undefined;
const sample = results.find((r) => r.run.name.startsWith('fault') && !r.problem);
if (!values['no-browser'] && sample) {
  browserProblem = await browserCheck(path.join(dirOf(sample.run), 'conformance', 'index.html'));
  console.log(`${browserProblem ? 'FAIL' : 'ok  '} browser check of the conformance report (${sample.run.name})${browserProblem ? `\n     ${browserProblem}` : ''}`);
}

/**
 * Secrets no profile names, made during a run (session tokens, keys the harness created on a reference), found by their
 * shape: a JWT, a PEM private key.
 */
const SECRET_SHAPES = [/eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/, /-----BEGIN [A-Z ]*PRIVATE KEY-----/];

function findSecret(dir: string, needles: string[]): string[] {
  const lower = needles.map((n) => n.toLowerCase());
  const hits: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const raw = readFileSync(file).toString('latin1');
    const text = raw.toLowerCase();
    if (lower.some((n) => text.includes(n)) || SECRET_SHAPES.some((re) => re.test(raw))) hits.push(path.relative(ROOT, file));
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

// Each secret and all but its last character (a prefix the checks derive), in any letter case; and the secrets the
// references plant in their own state (a provider's password), which the harness must redact as the target's.
const planted = REGISTRY.flatMap((d) => d.reference.planted ?? []);
const needles = [...[...Object.values(SECRETS), ...made].flatMap((k) => [k, k.slice(0, -1)]), ...planted];
const leaks = findSecret(SELFTEST_DIR, needles).concat(results.filter((r) => needles.some((n) => r.output.toLowerCase().includes(n.toLowerCase()))).map((r) => `output of ${r.run.name}`));
console.log(
  leaks.length
    ? `FAIL a credential appears in: ${leaks.slice(0, 10).join(', ')}`
    : `ok   no report, cassette, trace, journal or log of the runs holds a credential (${credentialVars.join(', ')}), in any letter case or cut short, or a secret the references plant (${planted.length})`,
);

const extra = [
  { ran: checkPairs, problem: pairsProblem },
  { ran: checkShards, problem: shardProblem },
  { ran: checkAdvisories, problem: advisoriesProblem },
  { ran: Boolean(otherReadingsRun), problem: readingsProblem },
  { ran: checkDiff, problem: diffProblem },
  { ran: Boolean(sample && !values['no-browser']), problem: browserProblem },
  { ran: true, problem: leaks.length ? 'leak' : undefined },
  { ran: Boolean(values['both-ways']), problem: bothWaysProblem },
].filter((c) => c.ran);
const failed = results.filter((r) => r.problem).length + extra.filter((c) => c.problem).length;
const passed = results.length + extra.length - failed;
const cpuTotal = results.some((r) => r.cpu !== undefined) ? results.reduce((sum, r) => sum + (r.cpu ?? 0), 0) : undefined;
if (values.costs) {
  const costs = results.map((r) => ({ name: r.run.name, wallS: r.ms / 1000, cpuS: r.cpu, fault: r.run.faults.length > 0, proves: r.proves.map(pairKey), problem: Boolean(r.problem), ...(r.group ? { group: r.group } : {}) }));
  const measuredBy = values.cpu ? 'GNU time, a process per run' : GROUPED ? "the batch process and its workers; a grouped run's wall time is its group's, its CPU time its share of the group's by test time" : 'the batch process and its workers';
  writeFileSync(values.costs, JSON.stringify({ seed: values.seed, measuredBy, wallS: (Date.now() - started) / 1000, cpuS: cpuTotal, runs: costs }, null, 2));
}
console.log(`\nself-test: ${selected.length} runs in ${((Date.now() - started) / 1000).toFixed(0)} s${cpuTotal === undefined ? '' : `, ${cpuTotal.toFixed(0)} CPU-s`}`);
console.log(`${passed} passed, ${failed} failed${flaky.length ? ` (${flaky.length} of the passed flaky: failed once, passed made again alone)` : ''}`);
// CI keeps only the tail of what a run printed: the failures are named again last, each with its first line.
const failures = [
  ...results.filter((r) => r.problem).map((r) => `${r.run.name}: ${firstLine(r.problem!)}`),
  ...extra.filter((c) => c.problem).map((c) => firstLine(c.problem!)),
];
for (const f of failures) console.log(`  failed: ${f}`);
for (const f of flaky) console.log(`  flaky (failed, then passed made again alone): ${f}`);
process.exit(failed ? 1 : 0);
