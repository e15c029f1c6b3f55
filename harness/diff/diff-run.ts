/**
 * A run's behaviour diff against a recording (--compare-recording, issue 25): this run's recording and the other's,
 * compared case by case (compare.ts), each difference named by the open points it falls on (attribute.ts). Written
 * as `diff.json` in the report folder; a difference is never a conformance verdict and never changes the exit code.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OpenPoint } from '../spec/types.ts';
import { attributeBySpec } from './attribute.ts';
import { caseKey, compare, summarise, type DiffSummaryRow } from './compare.ts';
import { readRecording } from './recording.ts';

export const DIFF_SCHEMA_VERSION = 1;

export interface DiffReport {
  schemaVersion: typeof DIFF_SCHEMA_VERSION;
  /** The run's report folder and the recording it was compared with. */
  run: string;
  against: string;
  seeds: { run?: number; against?: number };
  cases: { compared: number; differing: number };
  differences: DiffSummaryRow[];
}

/** Compares the run's recording (in `runDir`) with the one in `against`; writes diff.json and returns it. */
export function behaviourDiff(runDir: string, against: string, openPoints: ReadonlyMap<string, readonly OpenPoint[]>): DiffReport {
  const mine = readRecording(runDir);
  const theirs = readRecording(against);
  if (!mine) throw new Error(`the run wrote no behaviour recording into ${runDir}`);
  if (!theirs) throw new Error(`${against} holds no behaviour recording (a behaviour/ folder, written by a run with --record-behaviour)`);
  // The recording is the first side: what differs is how this run behaves against it.
  const differences = compare(theirs.observations, mine.observations, { attribute: attributeBySpec(openPoints, { a: theirs.readings, b: mine.readings }) });
  const differing = new Set(differences.map(caseKey)).size;
  const report: DiffReport = {
    schemaVersion: DIFF_SCHEMA_VERSION,
    run: runDir,
    against: path.resolve(against),
    seeds: { run: mine.seed, against: theirs.seed },
    cases: { compared: Math.max(mine.observations.length, theirs.observations.length), differing },
    differences: summarise(differences),
  };
  writeFileSync(path.join(runDir, 'diff.json'), JSON.stringify(report, null, 2));
  return report;
}

/** One line for the console. */
export function diffLine(r: DiffReport): string {
  if (r.differences.length === 0) return `behaviour diff against ${r.against}: no difference in ${r.cases.compared} cases (diff.json)`;
  const byKind = new Map<string, number>();
  for (const d of r.differences) byKind.set(d.kind, (byKind.get(d.kind) ?? 0) + d.count);
  const points = [...new Set(r.differences.flatMap((d) => d.openPoints))];
  return `behaviour diff against ${r.against}: ${r.cases.differing} of ${r.cases.compared} cases differ (${[...byKind].map(([k, n]) => `${n} ${k}`).join(', ')})${points.length ? `, on ${points.join(', ')}` : ''} (diff.json)`;
}
