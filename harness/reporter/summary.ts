import type { Exchange } from '../http/exchange.ts';
import type { Level, Requirement } from '../spec/types.ts';
import type { Evidence, Verdict, VerdictStatus } from '../verdicts.ts';
import type { WriteRecord } from '../writes.ts';

/** Bumped when a field of summary.json changes meaning or goes away; schemas/summary.schema.json describes it. */
export const SUMMARY_SCHEMA_VERSION = 2;

export type RequirementStatus = VerdictStatus;

export interface RequirementResult {
  id: string;
  level: Level;
  text: string;
  source: string;
  generic: boolean;
  observable: boolean;
  status: RequirementStatus;
  /** Whether this requirement's outcome decides the exit code (musts; shoulds under --strict). */
  counted: boolean;
  /** Why not applicable, not tested or inconclusive, or the first failure's message. */
  message?: string;
  tests: string[];
  /** The causes (by id, see InterfaceResult.causes) whose evidence fails this requirement. */
  causes: string[];
  /** Failed requirements of this run whose failure explains this one: it is their knock-on, not a deviation of its own. */
  knockOnOf?: string[];
  /** Why the CI gate set this failure aside (harness/gate.ts): a waiver covers it, or the baseline failed it too. */
  setAside?: 'waived' | 'in-baseline';
  failures: Array<{ test: string; message: string; evidence?: Evidence; replay: string; cassette?: string; cause: string }>;
}

/** One exchange (or one counterexample) shown once, with every requirement its evidence fails. */
export interface Cause {
  id: string;
  /** The requirement the request was testing. */
  requirement: string;
  touches: string[];
  test: string;
  message: string;
  expected?: string;
  exchanges: Exchange[];
  replay: string;
  cassette?: string;
  /** The command that judges the requirement again against the recorded target: `npm run replay -- <cassette>`. */
  isItFixed?: string;
  /**
   * The exchange that broke the requirement as a curl command, credentials as the environment variables that hold
   * them; `signed`: it carries a value derived from a secret, and `npm run replay -- --resend` sends it again instead.
   */
  curl?: { line: string; signed: boolean };
}

export interface InterfaceResult {
  name: string;
  title: string;
  spec: { file: string; sha256: string; document: string; section: string };
  target?: { baseUrl: string; reference: boolean; fault?: string; readings?: Record<string, string> };
  requirements: RequirementResult[];
  causes: Cause[];
  /** The spec's open points, with the readings the run's checks saw the target take. */
  notShown: OpenPointResult[];
  totals: Record<RequirementStatus, number>;
  /**
   * The requirements (the generic ones derived from the spec included) that the run judged (passed, failed or
   * flagged), out of those the profile leaves applicable and HTTP can observe.
   */
  exercised: { applicable: number; judged: number; share: number };
  /** Operation coverage: per operation of the spec, whether a request of the run reached it and what it was answered. */
  operations?: OperationCoverage[];
}

/** One operation of the spec, as the run's requests exercised it (Specmatic's API coverage is the model). */
export interface OperationCoverage {
  operation: string;
  exercised: boolean;
  /** The statuses its requests got (0: no answer), ascending. */
  statuses: number[];
  /** Statuses the spec documents for it (or "default") that no request of the run got. */
  unseen: string[];
  /** The tests whose requests reached it. */
  tests: string[];
}

/** One open point of the spec and what the run saw of it. */
export interface OpenPointResult {
  id: string;
  text: string;
  source: string;
  readings?: Array<{ id: string; text: string }>;
  requirements?: string[];
  setting?: string;
  observable?: boolean;
  why?: string;
  /** Whether the profile states the reading the target takes (its `setting`); else only what every reading agrees on is asserted. */
  stated?: boolean;
  /** The readings the checks saw the target take, each with the tests that saw it. */
  seen?: Array<{ reading?: string; detail?: string; tests: string[] }>;
}

export interface RunSummary {
  schemaVersion: typeof SUMMARY_SCHEMA_VERSION;
  runId: string;
  harness: { name: string; version: string; commit?: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  profile: { name: string; file: string; writes: boolean };
  seed: number;
  depth: string;
  strict: boolean;
  fault?: string;
  grep?: string;
  /** One part of a sharded run ("2/4"). */
  shard?: string;
  /** The shards' run ids, for the summary npm run merge-reports made of them. */
  mergedFrom?: string[];
  interfaces: InterfaceResult[];
  notes: string[];
  writes: WriteRecord[];
  /** Generated cases each property ran (its reruns after a failure included). */
  properties: Array<{ interfaceName: string; test: string; property: string; runs: number }>;
  /** Failed requirements that decide the exit code: musts, and shoulds too under --strict. */
  failedCounted: string[];
  /** Counted requirements the run could not decide. */
  inconclusiveCounted: string[];
  exitCode: 0 | 1 | 2;
  exitReason: string;
  verdict: 'passed' | 'failed' | 'inconclusive';
  /** Tests that broke without deciding what they claim: a harness defect, a time-out, an outage. */
  brokenTests: Array<{ test: string; error: string }>;
  /** The CI gate's view, when the run was given a baseline or waivers (harness/gate.ts). */
  gate?: GateResult;
  /** Per test: when it ran and how long it must sit out by design (for the benchmark's window floor). */
  timing: Array<{ interfaceName: string; test: string; startMs: number; durationMs: number; plannedWaitMs: number; workerIndex: number }>;
}

/**
 * Merges the verdicts of all tests for one requirement: a failure anywhere fails it; a check that could not decide
 * outweighs a pass elsewhere (it might have found a deviation); a pass needs the condition seen by some test.
 */
export function mergeStatus(verdicts: Verdict[]): RequirementStatus {
  const order: RequirementStatus[] = ['failed', 'inconclusive', 'flagged', 'passed', 'not-tested', 'not-applicable'];
  for (const s of order) if (verdicts.some((v) => v.status === s)) return s;
  return 'not-tested';
}

export function isCounted(level: Level, strict: boolean): boolean {
  return level === 'must' || (strict && level === 'should');
}

/**
 * Whether a requirement's outcome decides the exit code: its level says, unless the CI gate set it aside (a waived
 * failure, or one the baseline has too: harness/gate.ts passes `setAside`).
 */
type SetAside = (r: RequirementResult) => boolean;
const decides = (r: RequirementResult, strict: boolean, setAside?: SetAside) => isCounted(r.level, strict) && !setAside?.(r);
/** A failure that another failure of the run explains (its knock-on) is shown, never counted: its cause is. */
const isKnockOn = (r: RequirementResult) => Boolean(r.knockOnOf?.length);

/**
 * Why a failed requirement does not count, in the words every output uses (the console's last line, JUnit): from the
 * same rules that decide the exit code. Undefined for a failure that counts.
 */
export function notCountedBecause(r: RequirementResult, strict: boolean): string | undefined {
  if (r.status !== 'failed') return undefined;
  if (isKnockOn(r)) return 'knock-ons of other failures';
  if (r.level === 'advisory') return 'advisories';
  if (!isCounted(r.level, strict)) return 'shoulds without --strict';
  if (r.setAside === 'waived') return 'waived';
  if (r.setAside === 'in-baseline') return 'failing in the baseline too (--fail-on new)';
  return r.counted ? undefined : 'set aside';
}

export function countedFailures(interfaces: InterfaceResult[], strict: boolean, setAside?: SetAside): string[] {
  return interfaces.flatMap((i) => i.requirements.filter((r) => r.status === 'failed' && !isKnockOn(r) && decides(r, strict, setAside)).map((r) => r.id));
}

export function countedInconclusive(interfaces: InterfaceResult[], strict: boolean): string[] {
  return interfaces.flatMap((i) => i.requirements.filter((r) => r.status === 'inconclusive' && decides(r, strict)).map((r) => r.id));
}

export interface ExitContext {
  interrupted?: boolean;
  setAside?: SetAside;
  /** Tests that broke, timed out or never started, and errors that stopped the run from starting (brokenTests). */
  broken?: RunSummary['brokenTests'];
}

/**
 * 1 when a counted requirement failed; otherwise 2 when a check broke or the run could not start (whatever level the
 * broken check claims: a crash decides nothing), when a counted requirement is inconclusive, or when nothing at all
 * was judged (a --grep that matches no test, say); otherwise 0.
 */
export function exitCodeOf(interfaces: InterfaceResult[], strict: boolean, context: ExitContext = {}): { code: 0 | 1 | 2; reason: string } {
  const { interrupted = false, setAside, broken = [] } = context;
  const failed = countedFailures(interfaces, strict, setAside);
  const knockOns = interfaces.flatMap((i) => i.requirements).filter((r) => r.status === 'failed' && isKnockOn(r)).map((r) => r.id);
  const alsoKnockOns = knockOns.length ? `; knock-ons of those, not counted: ${knockOns.join(', ')}` : '';
  if (failed.length) return { code: 1, reason: `${failed.length} counted requirement${failed.length > 1 ? 's' : ''} failed: ${failed.join(', ')}${alsoKnockOns}` };
  const startErrors = broken.filter((b) => b.test.startsWith(RUN_START));
  if (startErrors.length) return { code: 2, reason: `the run could not start: ${firstLine(startErrors[0].error)}` };
  if (broken.length) {
    return { code: 2, reason: `${broken.length} check${broken.length > 1 ? 's' : ''} broke instead of judging (the harness's or the environment's trouble, not the target's); first: ${broken[0].test}: ${firstLine(broken[0].error)}` };
  }
  const inconclusive = countedInconclusive(interfaces, strict);
  if (inconclusive.length) {
    const first = interfaces.flatMap((i) => i.requirements).find((r) => r.status === 'inconclusive' && decides(r, strict));
    return { code: 2, reason: `no counted requirement failed, but ${inconclusive.length} could not be decided (${inconclusive.join(', ')}); first cause: ${firstLine(first?.message ?? 'unknown')}` };
  }
  if (interrupted) return { code: 2, reason: 'the run was interrupted' };
  const judged = interfaces.flatMap((i) => i.requirements).filter((r) => r.status === 'passed' || r.status === 'flagged' || r.status === 'failed');
  if (judged.length === 0) return { code: 2, reason: 'nothing was tested: no requirement got a verdict (does --grep match any test?)' };
  return { code: 0, reason: `every counted requirement that was judged passed (${strict ? 'musts and shoulds, --strict' : 'musts'})` };
}

/** The test name under which errors that stopped the run before any test (a suite that does not load, a failed global set-up) are listed among brokenTests. */
export const RUN_START = 'the run › start';

const firstLine = (text: string) => text.split('\n').find((l) => l.trim())?.trim().slice(0, 300) ?? '';

export function totalsOf(reqs: Array<Pick<Requirement, 'id'> & { status: RequirementStatus }>): Record<RequirementStatus, number> {
  const totals: Record<RequirementStatus, number> = { passed: 0, failed: 0, inconclusive: 0, 'not-tested': 0, 'not-applicable': 0, flagged: 0 };
  for (const r of reqs) totals[r.status]++;
  return totals;
}

/** A waiver of the gate (waivers.yaml): a known failure of one requirement, accepted until a day. */
export interface Waiver {
  requirement: string;
  /** The profile name the waiver is for; absent: every target. */
  target?: string;
  reason: string;
  acceptedBy: string;
  /** The last day (UTC, YYYY-MM-DD) the waiver holds. */
  expires: string;
}

/** What the gate made of a run against its baseline and waivers (harness/gate.ts applies it). */
export interface GateResult {
  failOn: 'any' | 'new';
  baseline?: string;
  /** interface:id of requirements failing now and not in the baseline (new to the spec ones included). */
  newFailures: string[];
  fixed: string[];
  stillFailing: string[];
  newRequirements: string[];
  waived: Array<Waiver & { interface: string }>;
  expiredWaivers: Waiver[];
  unusedWaivers: Waiver[];
}
