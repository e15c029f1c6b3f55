/**
 * A run's behaviour diff (issue 25): the candidate's recording against the baseline's (a second target's run, or a
 * recording of an earlier run), compared case by case (compare.ts), each difference named by the open points it falls
 * on (attribute.ts). The noise is what the spec declares (x-behaviour-noise) and what the baseline varied between
 * its own two runs (a second run of it, or a second baseline deployment). Written as `diff.json` (schemas/
 * diff.schema.json) and as a section of the conformance report. A difference is never a conformance verdict; only
 * --fail-on-diff makes it count, with an exit reason of its own (`gate`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OpenPoint } from '../spec/types.ts';
import { attributeBySpec } from './attribute.ts';
import { caseKey, compare, measureNoise, noiseMatcher, operationOf, pairClasses, summarise, type CompareOptions, type NoisyKeys } from './compare.ts';
import { DIFF_SCHEMA_VERSION, type DiffGate, type DiffReport, type DiffRow, type DifferenceWaiver, type NoiseRow } from './diff-types.ts';
import { renderDiffSection } from './diff-html.ts';
import type { Observation } from './observation.ts';
import { readRecording } from './recording.ts';

export type { DiffReport } from './diff-types.ts';

/** What a spec says of an interface for the diff: its open points, and what it declares to vary. */
export interface SpecForDiff {
  openPoints: readonly OpenPoint[];
  noise: ReadonlyArray<{ key: string; why: string }>;
}

export interface DiffGateOptions {
  /** --fail-on-diff: `all`, or open point ids, operations ("GET /v2/status") and interface names. */
  failOnDiff: string[];
  waivers: DifferenceWaiver[];
  /** The candidate's profile name (a waiver's `target`). */
  profileName: string;
  today: string;
}

export interface DiffInputs {
  candidate: string;
  baseline: { folder: string; kind: 'target' | 'recording' };
  /**
   * The baseline's second run, or a second baseline deployment's: what differs between it and the baseline is noise.
   * Against a recording, which cannot be asked again, the candidate's target run a second time: what differs between
   * it and the candidate.
   */
  noiseFrom?: { folder: string; kind: 'baseline-again' | 'secondary' | 'candidate-again' };
  specs: ReadonlyMap<string, SpecForDiff>;
  gate?: DiffGateOptions;
}

/**
 * How far an operation's median duration may move: three times what it moved between the two runs of one deployment,
 * and at least its median and a second (runs side by side on a shared, loaded machine answer that much slower: a
 * deployment that became slower by more is what this dimension is for).
 */
const toleranceOf = (t: { medianMs: number; movedMs: number }) => Math.max(1000, Math.ceil(3 * t.movedMs), Math.ceil(t.medianMs));

/** Compares the candidate's recording with the baseline's; writes diff.json and the report's section, and returns it. */
export function behaviourDiff(o: DiffInputs): DiffReport {
  const mine = readRecording(o.candidate);
  const theirs = readRecording(o.baseline.folder);
  if (!mine) throw new Error(`the run wrote no behaviour recording into ${o.candidate}`);
  if (!theirs) throw new Error(`${o.baseline.folder} holds no behaviour recording (a behaviour/ folder, written by a run with --record-behaviour)`);
  const declared = new Map([...o.specs].map(([name, s]) => [name, noiseMatcher(s.noise.map((n) => n.key))]));
  const declaredOf = (name: string) => declared.get(name) ?? (() => false);

  let measured: NoiseRow[] = [];
  let noisy: NoisyKeys | undefined;
  let tolerance: Map<string, number> | undefined;
  if (o.noiseFrom) {
    const again = readRecording(o.noiseFrom.folder);
    if (!again) throw new Error(`${o.noiseFrom.folder} holds no behaviour recording: the noise could not be measured`);
    const m = measureNoise(o.noiseFrom.kind === 'candidate-again' ? mine.observations : theirs.observations, again.observations, declaredOf);
    measured = m.entries.map((e) => ({ interface: e.interfaceName, key: e.key, differed: e.differed, compared: e.compared, rate: e.compared ? Number((e.differed / e.compared).toFixed(4)) : 0 }));
    noisy = m.noisy;
    tolerance = new Map([...m.timing].map(([op, t]) => [op, toleranceOf(t)]));
  }

  // At another seed the generated cases differ: only the classes of cases that do not depend on the seed are compared.
  const otherSeed = mine.seed !== undefined && theirs.seed !== undefined && mine.seed !== theirs.seed;
  const options: CompareOptions = {
    declared: declaredOf,
    ...(noisy ? { measured: noisy } : {}),
    // Timing is compared per operation over the same cases: not across seeds.
    ...(tolerance && !otherSeed ? { timingToleranceMs: (x: Observation) => tolerance.get(operationOf(x)) } : {}),
    attribute: attributeBySpec(new Map([...o.specs].map(([name, s]) => [name, s.openPoints])), { a: { seen: theirs.readings, configured: theirs.configured }, b: { seen: mine.readings, configured: mine.configured } }),
  };
  const classes = otherSeed ? pairClasses(theirs.observations, mine.observations, options) : undefined;
  const differences = compare(theirs.observations, mine.observations, { ...options, ...(classes ? { pairs: classes } : {}) });
  const cases = new Set([...mine.observations, ...theirs.observations].map(caseKey)).size;
  const differing = new Set(differences.map(caseKey)).size;
  const report: DiffReport = {
    schemaVersion: DIFF_SCHEMA_VERSION,
    candidate: { folder: o.candidate, ...(mine.profile ? { profile: mine.profile } : {}), ...(mine.seed === undefined ? {} : { seed: mine.seed }) },
    baseline: { folder: path.resolve(o.baseline.folder), kind: o.baseline.kind, ...(theirs.profile ? { profile: theirs.profile } : {}), ...(theirs.seed === undefined ? {} : { seed: theirs.seed }) },
    ...(o.noiseFrom ? { noiseFrom: { folder: path.resolve(o.noiseFrom.folder), kind: o.noiseFrom.kind } } : {}),
    cases: classes ? { compared: classes.length, differing, unpaired: cases - classes.length } : { compared: cases, differing },
    differences: summarise(differences),
    noise: {
      declared: [...o.specs].flatMap(([name, s]) => s.noise.map((n) => ({ interface: name, key: n.key, why: n.why }))),
      measured,
      ...(tolerance ? { timingToleranceMs: Object.fromEntries(tolerance) } : {}),
    },
  };
  if (o.gate) report.gate = applyDiffGate(report.differences, o.gate);
  writeFileSync(path.join(o.candidate, 'diff.json'), JSON.stringify(report, null, 2));
  const html = path.join(o.candidate, 'conformance', 'index.html');
  if (existsSync(html)) writeFileSync(html, readFileSync(html, 'utf8').replace(/<section class="behaviour-diff">[\s\S]*?<\/section><!--diff-->\n?/, '').replace('</body>', `${renderDiffSection(report)}\n</body>`));
  return report;
}

/** Does a waiver or a --fail-on-diff name cover this row? */
const names = (row: DiffRow, on: string) => on === 'all' || row.openPoints.includes(on) || row.operation === on || row.interface === on;

/**
 * --fail-on-diff: the rows it names count, but for those a waiver covers (its `on`, its kind, its target, not
 * expired); an expired waiver that would cover one fails the gate by name, as for conformance failures; unused
 * waivers are listed.
 */
export function applyDiffGate(rows: DiffRow[], g: DiffGateOptions): DiffGate {
  const applies = (w: DifferenceWaiver) => w.target === undefined || w.target === g.profileName;
  const covers = (w: DifferenceWaiver, row: DiffRow) => applies(w) && names(row, w.on) && (w.kind === undefined || w.kind === row.kind);
  const used = new Set<DifferenceWaiver>();
  const expired = new Set<DifferenceWaiver>();
  let counted = 0;
  let waived = 0;
  const counts: string[] = [];
  for (const row of rows) {
    if (!g.failOnDiff.some((on) => names(row, on))) continue;
    const waiver = g.waivers.find((w) => covers(w, row));
    if (waiver) used.add(waiver);
    if (waiver && waiver.expires >= g.today) {
      row.waived = waiver;
      waived += row.count;
      continue;
    }
    if (waiver) expired.add(waiver);
    counted += row.count;
    counts.push(`${row.count} ${row.kind} on ${row.openPoints.length ? row.openPoints.join(', ') : (row.operation ?? row.interface)}`);
  }
  const failed = counted > 0;
  return {
    failOnDiff: g.failOnDiff,
    failed,
    reason: failed ? `the behaviour differs from the baseline where --fail-on-diff looks: ${counts.slice(0, 5).join('; ')}${counts.length > 5 ? `; and ${counts.length - 5} more (diff.json)` : ''}${expired.size ? ` (expired waivers: ${[...expired].map((w) => w.on).join(', ')})` : ''}` : `no difference where --fail-on-diff looks${waived ? ` but ${waived} waived` : ''}`,
    counted,
    waived,
    expiredWaivers: [...expired],
    unusedWaivers: g.waivers.filter((w) => applies(w) && !used.has(w)),
  };
}

/** One line for the console. */
export function diffLine(r: DiffReport): string {
  const against = r.baseline.folder;
  const noise = r.noise.measured.length ? `; noise measured: ${r.noise.measured.slice(0, 3).map((n) => `${n.interface} ${n.key} ${Math.round(n.rate * 100)}%`).join(', ')}${r.noise.measured.length > 3 ? ', ...' : ''}` : '';
  const seeds = r.cases.unpaired !== undefined ? ` (seed ${r.candidate.seed} against ${r.baseline.seed}: ${r.cases.unpaired} cases made by one seed only, not compared)` : '';
  if (r.differences.length === 0) return `behaviour diff against ${against}: no difference in ${r.cases.compared} cases${seeds}${noise} (diff.json)`;
  const byKind = new Map<string, number>();
  for (const d of r.differences) byKind.set(d.kind, (byKind.get(d.kind) ?? 0) + d.count);
  const points = [...new Set(r.differences.flatMap((d) => d.openPoints))];
  return `behaviour diff against ${against}: ${r.cases.differing} of ${r.cases.compared} cases differ (${[...byKind].map(([k, n]) => `${n} ${k}`).join(', ')})${points.length ? `, on ${points.join(', ')}` : ''}${seeds}${noise} (diff.json)`;
}
