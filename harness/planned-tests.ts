/**
 * How long each test is planned to take, for the console's line when a long test starts (harness/reporter/console.ts):
 * measured, as the last run of the same profile at the same depth took it (its summary's timing), from the nightly
 * history (--history) or the previous run's report (reports/latest). A suite's own plan is per interface, not per
 * test, and a guess per test would be wrong where it matters (a window of the profile's); a test no earlier run timed
 * gets no planned figure, and the heartbeat speaks for it after 30 s.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunSummary } from './reporter/summary.ts';

/** Where the console finds the plan: a JSON file of test key -> milliseconds, written by the conformance command. */
export const PLANNED_TESTS_ENV = 'HARNESS_PLANNED_TESTS';

/** The key of a test: its interface and title, as the plan, the summary's timing, the console and the behaviour diff name it. */
export const testKey = (interfaceName: string, title: string) => `${interfaceName} › ${title}`;

/** The durations of the last earlier run of this profile and depth among these summaries (newest last). */
export function plannedFrom(summaries: readonly RunSummary[], profileName: string, depth: string): Record<string, number> {
  const last = [...summaries].reverse().find((s) => s.profile?.name === profileName && s.depth === depth && Array.isArray(s.timing) && !s.shard);
  return Object.fromEntries((last?.timing ?? []).map((t) => [testKey(t.interfaceName, t.test), t.durationMs]));
}

/**
 * Reads the earlier runs (the history folder's, else the previous report's) and writes the plan into the run's folder
 * (created if missing). A plan is a courtesy: what cannot be read or written leaves the run without one, never stops it.
 */
export function writePlannedTests(runDir: string, o: { profileName: string; depth: string; history?: string; latest: string }): string | undefined {
  try {
    return writePlan(runDir, o);
  } catch {
    return undefined;
  }
}

function writePlan(runDir: string, o: { profileName: string; depth: string; history?: string; latest: string }): string {
  // The history's files are named by time: read newest first, and only until one matches (a nightly history grows).
  const candidates = o.history && existsSync(o.history) ? readdirSync(o.history).filter((f) => f.endsWith('.json')).sort().reverse().map((f) => path.join(o.history!, f)) : [];
  candidates.push(path.join(o.latest, 'summary.json'));
  let plan: Record<string, number> = {};
  for (const candidate of candidates) {
    const summary = readSummary(candidate);
    plan = summary ? plannedFrom([summary], o.profileName, o.depth) : {};
    if (Object.keys(plan).length) break;
  }
  mkdirSync(runDir, { recursive: true });
  const file = path.join(runDir, 'planned-tests.json');
  writeFileSync(file, JSON.stringify(plan));
  return file;
}

/** A summary file, or undefined when it is missing or not one (cut short by an interrupted run). */
function readSummary(file: string): RunSummary | undefined {
  try {
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunSummary) : undefined;
  } catch {
    return undefined;
  }
}

/** The plan the conformance command wrote for this run, or none. */
export function readPlannedTests(file = process.env[PLANNED_TESTS_ENV]): Record<string, number> {
  if (!file) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}
