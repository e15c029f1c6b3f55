import type { Level, Requirement } from '../spec/types.ts';
import type { Evidence, Verdict, VerdictStatus } from '../verdicts.ts';

export type RequirementStatus = VerdictStatus | 'not-tested';

export interface RequirementResult {
  id: string;
  level: Level;
  text: string;
  source: string;
  generic: boolean;
  observable: boolean;
  status: RequirementStatus;
  /** Why not applicable, or the first failure's message. */
  message?: string;
  tests: string[];
  failures: Array<{ test: string; message: string; evidence?: Evidence; replay: string; cassette?: string }>;
}

export interface InterfaceResult {
  name: string;
  title: string;
  spec: { file: string; sha256: string; document: string; section: string };
  target?: { baseUrl: string; reference: boolean; fault?: string };
  requirements: RequirementResult[];
  notShown: Array<{ id: string; text: string; source: string }>;
  totals: Record<RequirementStatus, number>;
  /** Share of the document's own requirements (generic ones aside) that got a verdict other than not tested. */
  exercised: { documentRequirements: number; exercised: number; share: number };
}

export interface RunSummary {
  harness: { name: string; version: string; commit?: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  profile: { name: string; file: string; writes: boolean };
  seed: number;
  depth: string;
  strict: boolean;
  fault?: string;
  interfaces: InterfaceResult[];
  notes: string[];
  writes: unknown[];
  /** Failed requirements that decide the exit code: musts, and shoulds too under --strict. */
  failedCounted: string[];
  verdict: 'passed' | 'failed';
  /** Tests that broke without a verdict: a harness defect or a target that made a check crash. */
  brokenTests: Array<{ test: string; error: string }>;
  /** Per test: when it ran and how long it must sit out by design (for the benchmark's window floor). */
  timing: Array<{ interfaceName: string; test: string; startMs: number; durationMs: number; plannedWaitMs: number; workerIndex: number }>;
}

/** Merges the verdicts of all tests for one requirement: a failure anywhere fails it. */
export function mergeStatus(verdicts: Verdict[]): RequirementStatus {
  const has = (s: VerdictStatus) => verdicts.some((v) => v.status === s);
  if (has('failed')) return 'failed';
  if (has('flagged')) return 'flagged';
  if (has('passed')) return 'passed';
  if (has('not-applicable')) return 'not-applicable';
  return 'not-tested';
}

export function countedFailures(interfaces: InterfaceResult[], strict: boolean): string[] {
  return interfaces.flatMap((i) =>
    i.requirements.filter((r) => r.status === 'failed' && (r.level === 'must' || (strict && r.level === 'should'))).map((r) => r.id),
  );
}

export function totalsOf(reqs: Pick<Requirement, 'id'>[] & { status: RequirementStatus }[]): Record<RequirementStatus, number> {
  const totals: Record<RequirementStatus, number> = { passed: 0, failed: 0, 'not-applicable': 0, flagged: 0, 'not-tested': 0 };
  for (const r of reqs) totals[r.status]++;
  return totals;
}
