/**
 * The self-test's judgement of one run, as pure functions (unit-tested in test/unit/selftest-judge.test.ts): what makes
 * a valid configuration pass, what makes a seeded fault count as detected, and which checks no fault proves.
 */
import type { Fault } from '../harness/reference.ts';
import type { RunSummary } from '../harness/reporter/summary.ts';

/** One check's claim on one requirement: a test (by its check name) and a requirement id it is tagged with. */
export interface Pair {
  interfaceName: string;
  check: string;
  requirement: string;
}

export const pairKey = (p: Pair) => `${p.interfaceName} › ${p.check} › ${p.requirement}`;

/** Parts of one check (a property split over tests for time, "… (part a)") share its name. */
export function checkName(title: string): string {
  return title.replace(/\s*\(part [a-z0-9]+\)$/, '');
}

const failedIds = (s: RunSummary) => s.interfaces.flatMap((i) => i.requirements.filter((r) => r.status === 'failed').map((r) => r.id));

/** What makes any run's files trustworthy: the summary and the per-requirement JUnit file agree with the exit code. */
export function consistency(code: number, s: RunSummary, junitFailures: number | undefined, schemaProblems: string[]): string | undefined {
  if (schemaProblems.length) return `summary.json does not fit schemas/summary.schema.json: ${schemaProblems.slice(0, 3).join('; ')}`;
  if (s.exitCode !== code) return `the command exited ${code} but summary.json says ${s.exitCode}`;
  if (junitFailures !== s.failedCounted.length) return `junit-requirements.xml counts ${junitFailures} failures, the exit code ${s.failedCounted.length}`;
  return undefined;
}

/** A valid configuration: a clean pass, nothing broken or undecided (its advisories are judged across the runs, scripts/selftest.ts). */
export function judgeValid(code: number, s: RunSummary | undefined): string | undefined {
  if (!s) return `no summary (exit ${code})`;
  const failed = failedIds(s);
  const inconclusive = s.interfaces.flatMap((i) => i.requirements.filter((r) => r.status === 'inconclusive').map((r) => r.id));
  if (code !== 0 || failed.length || inconclusive.length || s.brokenTests.length) {
    return `expected a clean pass, got exit ${code} (${s.exitReason}); failed: ${failed.join(', ') || 'none'}; inconclusive: ${inconclusive.join(', ') || 'none'}${s.brokenTests.length ? `; broken: ${s.brokenTests.map((b) => `${b.test}: ${b.error.split('\n')[0]}`).join('; ')}` : ''}`;
  }
  return undefined;
}

/** The advisories of `claimed` that none of the valid runs' summaries shows flagged. */
export function neverFlagged(claimed: readonly string[], valid: readonly RunSummary[]): string[] {
  const flagged = new Set(valid.flatMap((s) => s.interfaces.flatMap((i) => i.requirements.filter((r) => r.status === 'flagged').map((r) => r.id))));
  return [...new Set(claimed)].filter((id) => !flagged.has(id));
}

/**
 * A deployment whose choices the profile does not state (--readings other --unstated): what the harness cannot know it
 * may leave untested, never fail. No requirement failed and no check broke; undecided ones are allowed but named.
 */
export function judgeUnstated(code: number, s: RunSummary | undefined): string | undefined {
  if (!s) return `no summary (exit ${code})`;
  const failed = s.interfaces.flatMap((i) => i.requirements.filter((r) => r.status === 'failed').map((r) => `${r.id} (${(r.message ?? '').split('\n')[0].slice(0, 160)})`));
  if (failed.length || s.brokenTests.length || code === 1) {
    return `a reading the profile does not state was failed: ${failed.join('; ') || 'none'}${s.brokenTests.length ? `; broken: ${s.brokenTests.map((b) => `${b.test}: ${b.error.split('\n')[0]}`).join('; ')}` : ''} (exit ${code})`;
  }
  return undefined;
}

/**
 * A seeded fault is detected when every requirement it names fails, no check broke or was left undecided (a crash is
 * not detection), and nothing outside its catalogue entry fails (a check that blames the wrong requirement is a
 * defect too). The (check, requirement) pairs whose failure it shows are what it proves.
 */
export function judgeFault(fault: Fault, code: number, s: RunSummary | undefined): { problem?: string; proves: Pair[] } {
  if (!s) return { problem: `no summary (exit ${code})`, proves: [] };
  const failed = new Set(failedIds(s));
  const proves: Pair[] = s.interfaces.flatMap((i) =>
    i.requirements.flatMap((r) => r.failures.map((f) => ({ interfaceName: i.name, check: checkName(f.test), requirement: r.id }))),
  );
  if (s.brokenTests.length) return { problem: `checks broke instead of judging (not a detection): ${s.brokenTests.map((b) => `${b.test}: ${b.error.split('\n')[0]}`).join('; ')}`, proves: [] };
  // A fault that refuses a refusal check's control must leave that check undecided: a pass there was not earned.
  const undecided = new Set(fault.undecided ?? []);
  const earned = s.interfaces.flatMap((i) => i.requirements.filter((r) => undecided.has(r.id) && (r.status === 'passed' || r.status === 'flagged')).map((r) => r.id));
  if (earned.length) return { problem: `passed although the fault refuses their controls too: ${earned.join(', ')}`, proves: [] };
  const inconclusive = s.interfaces.flatMap((i) => i.requirements.filter((r) => r.status === 'inconclusive' && !undecided.has(r.id)).map((r) => `${r.id} (${(r.message ?? '').split('\n')[0]})`));
  if (inconclusive.length) return { problem: `requirements left inconclusive: ${inconclusive.join('; ')}`, proves: [] };
  if (fault.violates.length === 0) {
    const blamed = [...failed].filter((id) => !(fault.collateral ?? []).includes(id));
    return blamed.length ? { problem: `blames requirements although the fault breaks none: ${blamed.join(', ')}`, proves } : { proves };
  }
  const missed = fault.violates.filter((id) => !failed.has(id));
  if (missed.length) return { problem: `survived: ${missed.join(', ')} did not fail (failed: ${[...failed].join(', ') || 'none'}; exit ${code})`, proves };
  if (code !== 1) return { problem: `the run should exit 1, exited ${code}`, proves };
  const expected = new Set([...fault.violates, ...(fault.collateral ?? [])]);
  const extra = [...failed].filter((id) => !expected.has(id));
  if (extra.length) return { problem: `blames requirements its catalogue entry does not name: ${extra.join(', ')}`, proves };
  return { proves };
}

/**
 * A fault run shared by several interfaces, each with its own fault: each is judged on its own requirements and broken
 * tests, and its proofs stand or fall on its own detection, whatever became of the others' faults.
 */
export function judgeSharedFaultRun(faults: Array<{ interfaceName: string; fault: Fault }>, code: number, s: RunSummary | undefined): { problem?: string; proves: Pair[] } {
  const verdicts = perInterface(faults).map((f) => ({ f, v: judgeFault(f.fault, code, s && seenFrom(s, f.interfaceName)) }));
  const problems = verdicts.filter((x) => x.v.problem).map((x) => `${x.f.interfaceName}:${x.f.fault.name}: ${x.v.problem}`);
  return { problem: problems.length ? problems.join('\n     ') : undefined, proves: verdicts.flatMap((x) => x.v.proves) };
}

/**
 * One fault per interface: faults of one reference (of different parts, meeting different checks) are judged as one
 * whose requirements are all of theirs - each must fail what it names, and none may blame what none names.
 */
function perInterface(faults: Array<{ interfaceName: string; fault: Fault }>): Array<{ interfaceName: string; fault: Fault }> {
  const out = new Map<string, { interfaceName: string; fault: Fault }>();
  for (const f of faults) {
    const had = out.get(f.interfaceName)?.fault;
    const union = (k: 'violates' | 'undecided' | 'collateral') => [...new Set([...(had?.[k] ?? []), ...(f.fault[k] ?? [])])];
    out.set(f.interfaceName, { interfaceName: f.interfaceName, fault: had ? { ...f.fault, name: `${had.name}+${f.fault.name}`, violates: union('violates'), undecided: union('undecided'), collateral: union('collateral') } : f.fault });
  }
  return [...out.values()];
}

/** A run's summary seen from one interface: its requirements and its broken tests only. */
function seenFrom(s: RunSummary, interfaceName: string): RunSummary {
  return { ...s, interfaces: s.interfaces.filter((i) => i.name === interfaceName), brokenTests: s.brokenTests.filter((b) => b.test.startsWith(`${interfaceName} ›`)) };
}

/** Claimed (check, requirement) pairs that no fault made fail. */
export function unproven(claimed: Pair[], proven: Pair[]): Pair[] {
  const seen = new Set(proven.map(pairKey));
  return claimed.filter((p) => !seen.has(pairKey(p)));
}

/** Where a merged sharded run's verdicts differ from the unsplit run's, requirement by requirement (empty: none). */
export function verdictDifferences(unsplit: RunSummary, merged: RunSummary): string[] {
  const verdicts = (s: RunSummary) => new Map(s.interfaces.flatMap((i) => i.requirements.map((r) => [`${i.name} ${r.id}`, r.status] as const)));
  const a = verdicts(unsplit);
  const b = verdicts(merged);
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).map((k) => `${k}: ${a.get(k) ?? 'absent'} unsplit, ${b.get(k) ?? 'absent'} merged`);
}

/** A run's verdicts by requirement (`<interface> <id>`: status, and whether it counts), and its exit code. */
function verdictMap(s: RunSummary): Map<string, string> {
  const out = new Map(s.interfaces.flatMap((i) => i.requirements.map((r) => [`${i.name} ${r.id}`, r.counted ? `${r.status} (counted)` : r.status] as const)));
  out.set('exit code', String(s.exitCode));
  return out;
}

/**
 * A run made grouped, against the same run made alone twice (--both-ways): `differ`, the verdicts where the grouped
 * run disagrees with the two alone runs, which agree with each other (what the grouping changed, if anything); `noise`,
 * those that moved between the two alone runs themselves (a window-timed check whose generated cases reach its
 * condition or not with the clock), which no comparison of one grouped run with one alone run can decide on.
 */
export function waysCompared(grouped: RunSummary, alone: RunSummary, again: RunSummary): { compared: number; differ: string[]; noise: string[] } {
  const [g, a, b] = [grouped, alone, again].map(verdictMap);
  const differ: string[] = [];
  const noise: string[] = [];
  const keys = new Set([...g.keys(), ...a.keys(), ...b.keys()]);
  for (const k of keys) {
    const [x, y, z] = [g, a, b].map((m) => m.get(k) ?? 'absent');
    if (y !== z) noise.push(`${k}: ${y} alone, ${z} alone again (${x} grouped)`);
    else if (x !== y) differ.push(`${k}: ${x} grouped, ${y} alone twice`);
  }
  return { compared: keys.size, differ, noise };
}

/**
 * Open points a check met while judging none of the requirements the spec lists for the point: "<point> met by
 * <interface> › <test>". The test's requirements are those whose verdicts name it.
 */
export function readingsOutsideTheirRequirements(s: RunSummary): string[] {
  const out: string[] = [];
  for (const i of s.interfaces) {
    for (const p of i.notShown) {
      for (const seen of p.seen ?? []) {
        for (const test of seen.tests) {
          const judges = i.requirements.filter((r) => r.tests.includes(test)).map((r) => r.id);
          if (!judges.some((id) => p.requirements?.includes(id))) out.push(`${p.id} met by ${i.name} › ${test} (it judges ${judges.join(', ') || 'nothing'})`);
        }
      }
    }
  }
  return out;
}
