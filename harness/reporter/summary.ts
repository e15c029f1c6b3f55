import type { Level, Requirement } from '../spec/types.ts';
import type { Verdict } from '../verdicts.ts';
import type { InterfaceResult, RequirementResult, RequirementStatus, RunSummary } from './summary-types.ts';

// The summary's types and its published schema are one declaration (./summary-types.ts); the rules that fill it are here.
export { SUMMARY_SCHEMA_VERSION } from './summary-types.ts';
export type { Cause, GateResult, InterfaceResult, OpenPointResult, OperationCoverage, RequirementResult, RequirementStatus, RunSummary, Waiver } from './summary-types.ts';

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
  /** The run's --grep: a run of some tests only says it judged part of what the interfaces require. */
  grep?: string;
}

/**
 * 1 when a counted requirement failed; otherwise 2 when a check broke or the run could not start (whatever level the
 * broken check claims: a crash decides nothing), when a counted requirement is inconclusive, or when nothing at all
 * was judged (a --grep that matches no test, say); otherwise 0.
 */
export function exitCodeOf(interfaces: InterfaceResult[], strict: boolean, context: ExitContext = {}): { code: 0 | 1 | 2; reason: string } {
  const { interrupted = false, setAside, broken = [], grep } = context;
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
  const all = interfaces.flatMap((i) => i.requirements);
  const judged = all.filter((r) => r.status === 'passed' || r.status === 'flagged' || r.status === 'failed');
  if (judged.length === 0) return { code: 2, reason: nothingJudged(all, grep) };
  const counted = judged.filter((r) => decides(r, strict));
  const passed = counted.length ? `every counted requirement that was judged passed (${strict ? 'musts and shoulds, --strict' : 'musts'})` : `no counted requirement was judged, only ${judged.length} not counted (shoulds or advisories: --strict counts the shoulds)`;
  // A --grep run judges part of what the interfaces require: it says so, with how much, and how to judge the rest.
  const applicable = all.filter((r) => r.status !== 'not-applicable' && r.observable !== false);
  if (grep && judged.length < applicable.length) return { code: 0, reason: `${passed}; partial: --grep ${JSON.stringify(grep)} judged ${judged.length} of the ${applicable.length} requirements that apply; drop --grep to judge the rest` };
  return { code: 0, reason: passed };
}

/** Why nothing got a verdict, in the words of what did happen: every check undecided or untested, a --grep that matches no test. */
function nothingJudged(all: Array<Pick<RequirementResult, 'id' | 'status' | 'message'>>, grep: string | undefined): string {
  const undecided = all.find((r) => r.status === 'inconclusive');
  if (undecided) return `nothing could be judged; first cause: ${firstLine(undecided.message ?? 'unknown')}`;
  if (all.length === 0 || grep) return `nothing was tested: no requirement got a verdict${grep ? ` (does --grep ${JSON.stringify(grep)} match any test?)` : ''}`;
  const untested = all.find((r) => r.status === 'not-tested');
  return `nothing was tested: no requirement got a verdict${untested ? `; first: ${untested.id}: ${firstLine(untested.message ?? '')}` : ''}`;
}

/** The test name under which errors that stopped the run before any test (a suite that does not load, a failed global set-up) are listed among brokenTests. */
export const RUN_START = 'the run › start';

/** A message's first line that says anything, trimmed and cut to 300 characters: for one-line mentions of it. */
export const firstLine = (text: string) => text.split('\n').find((l) => l.trim())?.trim().slice(0, 300) ?? '';

export function totalsOf(reqs: Array<Pick<Requirement, 'id'> & { status: RequirementStatus }>): Record<RequirementStatus, number> {
  const totals: Record<RequirementStatus, number> = { passed: 0, failed: 0, inconclusive: 0, 'not-tested': 0, 'not-applicable': 0, flagged: 0 };
  for (const r of reqs) totals[r.status]++;
  return totals;
}
