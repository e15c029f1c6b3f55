/**
 * The CI gate's view of a run: waivers (known deviations a release may ship with, each with a reason, an owner and an
 * expiry) and a baseline (an earlier run's summary.json), applied to a finished run's summary. A waived failure no
 * longer decides the exit code and is shown with its reason; an expired waiver fails the run by name; a waiver that
 * matched nothing is listed so that stale ones get removed. With a baseline, `failOn: 'new'` counts only failures the
 * baseline did not have.
 */
export type { GateResult, Waiver } from './reporter/summary.ts';
import type { GateResult, Waiver } from './reporter/summary.ts';
import { readFileSync } from 'node:fs';
import { yaml } from './yaml.ts';
import { describeErrors } from './profile/load.ts';
import { countedFailures, exitCodeOf, isCounted, type RunSummary } from './reporter/summary.ts';
import { summarySchemas } from './reporter/summary-types.ts';
import { makeAjv } from './validation/ajv.ts';
import { builtOnce } from '../interfaces/kit/lazy.ts';
import { typeBox } from '../interfaces/kit/typebox.ts';
import { INTERFACES } from '../interfaces/registry.ts';
import { loadSpec } from './spec/load.ts';
import { diffSchemas, type DifferenceWaiver } from './diff/diff-types.ts';

/**
 * The waivers file (--waivers): `{ waivers: [...] }`, each entry the summary's own waiver schema, so that the file a
 * team writes and the gate's view of it in summary.json cannot disagree. Published as schemas/waivers.schema.json.
 */
export const waiversSchema = builtOnce(() => {
  const Type = typeBox();
  return Type.Object(
    {
      waivers: Type.Optional(Type.Array(summarySchemas().waiver)),
      differences: Type.Optional(Type.Array(diffSchemas().waiver, { description: 'Accepted behaviour differences (--fail-on-diff), by open point, operation or interface.' })),
    },
    {
      additionalProperties: false,
      title: 'Waivers of the CI gate (--waivers)',
      description: 'Known failures a release may ship with, and accepted behaviour differences, each with a reason, who accepted it and the last day it holds. A waived one no longer decides the exit code; an expired waiver fails the run by name.',
    },
  );
});

/** A waivers file as its schema checks it, or an error naming each field that is wrong. */
function readWaiversFile(file: string): { waivers?: Waiver[]; differences?: DifferenceWaiver[] } {
  let data: unknown;
  try {
    data = yaml().parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: cannot read the waivers (${(e as Error).message.split('\n')[0]})`);
  }
  const validate = makeAjv().compile(waiversSchema());
  if (!validate(data)) throw new Error(`${file}: ${describeErrors(validate.errors ?? [])}`);
  return data as { waivers?: Waiver[]; differences?: DifferenceWaiver[] };
}

/** Refuses the entries whose expiry the schema's pattern let through but is no day (2026-02-30). */
function refuseUndated<W extends { expires: string }>(file: string, entries: W[], name: (w: W) => string): W[] {
  const bad = entries.filter((w) => Number.isNaN(Date.parse(`${w.expires}T00:00:00Z`)));
  if (bad.length) throw new Error(`${file}: ${bad.map((w) => `${name(w)}: expires ${w.expires} is not a date`).join('; ')}`);
  return entries;
}

/** The waivers of a file, or an error naming each field that is wrong. */
export function loadWaivers(file: string): Waiver[] {
  return refuseUndated(file, readWaiversFile(file).waivers ?? [], (w) => `waiver for ${w.requirement}`);
}

/** The accepted behaviour differences of a waivers file (its `differences:`), checked like its waivers. */
export function loadDifferenceWaivers(file: string): DifferenceWaiver[] {
  const data = readWaiversFile(file);
  refuseUndated(file, data.waivers ?? [], (w) => `waiver for ${w.requirement}`);
  return refuseUndated(file, data.differences ?? [], (w) => `difference waiver on ${w.on}`);
}

/**
 * Mistakes in the gate's inputs that would otherwise pass quietly. Refused (exit 2): a waiver whose requirement no
 * spec has (a misspelt id would waive nothing, and only show as "unused"). Warned of by name: a waiver for another
 * profile or for an interface this run leaves out, and a baseline of another profile or with no interface in common.
 */
export function gateInputProblems(o: { waivers?: Waiver[]; baseline?: { file: string; summary: RunSummary }; profileName: string; interfaces: readonly string[] }): { refused: string[]; warnings: string[] } {
  const refused: string[] = [];
  const warnings: string[] = [];
  // Every spec's ids, read only where there are waivers to check (every run prepares its gate).
  const owner = new Map(o.waivers?.length ? INTERFACES.flatMap((name) => loadSpec(name).requirements.map((r) => [r.id, name] as const)) : []);
  for (const w of o.waivers ?? []) {
    const name = owner.get(w.requirement);
    if (!name) {
      const near = [...owner.keys()].filter((id) => id.split('-')[0] === w.requirement.split('-')[0] && (id.includes(w.requirement) || w.requirement.includes(id) || editDistance(id, w.requirement) <= 3));
      refused.push(`the waiver for ${w.requirement} names no requirement of any spec${near.length ? ` (did you mean ${near.slice(0, 3).join(', ')}?)` : ''}`);
    } else if (w.target !== undefined && w.target !== o.profileName) warnings.push(`the waiver for ${w.requirement} is for profile ${w.target}, not ${o.profileName}: not applied`);
    else if (!o.interfaces.includes(name)) warnings.push(`the waiver for ${w.requirement} is for ${name}, which this run leaves out`);
  }
  if (o.baseline) {
    const b = o.baseline.summary;
    if (b.profile?.name !== undefined && b.profile.name !== o.profileName) warnings.push(`the baseline ${o.baseline.file} is a run of profile ${b.profile.name}, not ${o.profileName}`);
    const common = b.interfaces.map((i) => i.name).filter((n) => o.interfaces.includes(n));
    if (common.length === 0) warnings.push(`the baseline ${o.baseline.file} has none of this run's interfaces (it has ${b.interfaces.map((i) => i.name).join(', ') || 'none'}): every failure is new to it`);
  }
  return { refused, warnings };
}

/** Levenshtein distance, for "did you mean" (ids are short). */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The waivers for this profile (or for every target), and of those the ones not expired: the gate and the workers alike. */
const applicableWaivers = (waivers: readonly Waiver[] | undefined, profileName: string) => (waivers ?? []).filter((w) => w.target === undefined || w.target === profileName);
const liveWaivers = (waivers: readonly Waiver[] | undefined, profileName: string, today: string) => applicableWaivers(waivers, profileName).filter((w) => w.expires >= today);

/**
 * The requirement ids the gate will set aside, known before the run: those of live waivers for this profile, and with
 * --fail-on new those the baseline failed. The test workers leave them uncounted too (HARNESS_SET_ASIDE).
 */
export function setAsideBeforeRun(o: Pick<GateOptions, 'waivers' | 'baseline' | 'failOn' | 'today'> & { profileName: string }): string[] {
  const waived = liveWaivers(o.waivers, o.profileName, o.today).map((w) => w.requirement);
  const known = o.failOn === 'new' ? (o.baseline?.summary.interfaces ?? []).flatMap((i) => i.requirements.filter((r) => r.status === 'failed').map((r) => r.id)) : [];
  return [...new Set([...waived, ...known])];
}

export interface GateOptions {
  waivers?: Waiver[];
  baseline?: { file: string; summary: RunSummary };
  failOn: 'any' | 'new';
  /** Today, as YYYY-MM-DD (UTC). */
  today: string;
}


const key = (iface: string, id: string) => `${iface}:${id}`;

/** The summary with the gate applied: its exit code, reason, verdict and counted flags follow the gate's rules. */
export function applyGate(s: RunSummary, o: GateOptions): RunSummary & { gate: GateResult } {
  const expired = applicableWaivers(o.waivers, s.profile.name).filter((w) => w.expires < o.today);
  const live = liveWaivers(o.waivers, s.profile.name, o.today);
  const failedNow = new Set(s.interfaces.flatMap((i) => i.requirements.filter((r) => r.status === 'failed').map((r) => key(i.name, r.id))));
  const before = o.baseline?.summary;
  const knownBefore = new Set(before?.interfaces.flatMap((i) => i.requirements.map((r) => key(i.name, r.id))) ?? []);
  const failedBefore = new Set(before?.interfaces.flatMap((i) => i.requirements.filter((r) => r.status === 'failed').map((r) => key(i.name, r.id))) ?? []);
  const passedNow = new Set(s.interfaces.flatMap((i) => i.requirements.filter((r) => r.status === 'passed').map((r) => key(i.name, r.id))));
  const gate: GateResult = {
    failOn: o.failOn,
    baseline: o.baseline?.file,
    newFailures: before ? [...failedNow].filter((k) => !failedBefore.has(k)) : [...failedNow],
    fixed: [...failedBefore].filter((k) => passedNow.has(k)),
    stillFailing: [...failedNow].filter((k) => failedBefore.has(k)),
    newRequirements: before ? s.interfaces.flatMap((i) => i.requirements.map((r) => key(i.name, r.id))).filter((k) => !knownBefore.has(k)) : [],
    waived: [],
    expiredWaivers: expired,
    unusedWaivers: [],
  };
  const used = new Set<Waiver>();
  const interfaces = s.interfaces.map((i) => ({
    ...i,
    requirements: i.requirements.map((r) => {
      if (r.status !== 'failed' || !isCounted(r.level, s.strict)) return r;
      const waiver = live.find((w) => w.requirement === r.id);
      if (waiver) {
        used.add(waiver);
        gate.waived.push({ ...waiver, interface: i.name });
        return { ...r, counted: false, setAside: 'waived' as const, message: `waived until ${waiver.expires} (${waiver.acceptedBy}): ${waiver.reason}. ${r.message ?? ''}`.trim() };
      }
      if (o.failOn === 'new' && !gate.newFailures.includes(key(i.name, r.id))) return { ...r, counted: false, setAside: 'in-baseline' as const, message: `failed in the baseline too (--fail-on new). ${r.message ?? ''}`.trim() };
      return r;
    }),
  }));
  gate.unusedWaivers = live.filter((w) => !used.has(w));
  // The set-aside failures no longer count; the rest decides as it would have without them. An expired waiver fails.
  const setAside = (r: { counted: boolean }) => !r.counted;
  const failedCounted = countedFailures(interfaces, s.strict, setAside);
  let { code: exitCode, reason: exitReason } = s.exitCode === 1 ? exitCodeOf(interfaces, s.strict, { setAside, broken: s.brokenTests }) : { code: s.exitCode, reason: s.exitReason };
  if (exitCode === 1 && o.failOn === 'new') exitReason = `${exitReason} (failures the baseline did not have)`;
  if (exitCode !== 1 && s.exitCode === 1) exitReason = `${exitReason}; ${gate.waived.length} failures waived${o.failOn === 'new' ? `, ${gate.stillFailing.length} failing in the baseline too` : ''}`;
  if (expired.length) {
    exitReason = `${expired.length} waiver${expired.length > 1 ? 's' : ''} expired: ${expired.map((w) => `${w.requirement} (expired ${w.expires}, ${w.acceptedBy})`).join(', ')}${exitCode === 1 ? `; and ${exitReason}` : ''}`;
    exitCode = 1;
  }
  return { ...s, interfaces, failedCounted, exitCode, exitReason, verdict: exitCode === 0 ? 'passed' : exitCode === 1 ? 'failed' : 'inconclusive', gate };
}
