/**
 * The behaviour diff's comparison (issue 25): the observations of two runs at the same seed, paired case by case (the
 * same test, the same label, the same ordinal), and what differs between each pair, baseline first. What a spec
 * declares to vary (`x-behaviour-noise`) is never compared; what the baseline's own two runs were seen to vary is
 * measured noise (`measureNoise`), reported with its rate and never counted as a difference.
 *
 * Values are never compared (ids, time stamps, tokens and signatures differ on every run), only what a client parses
 * by: statuses, member paths and their types, the media type and the headers the spec names. The elements of a list
 * share one path, so the order of a list never counts; and a list that is empty on one side shows no member of its
 * elements there, so those members are not compared (one side had nothing to show).
 */
import { testKey } from '../planned-tests.ts';
import type { DifferenceKind, DiffRow } from './diff-types.ts';
import type { MemberType, Observation } from './observation.ts';

export type { DifferenceKind } from './diff-types.ts';

export interface Difference {
  kind: DifferenceKind;
  interfaceName: string;
  operation?: string;
  test: string;
  label: string;
  ordinal: number;
  requirements: string[];
  /** What differs, in words, baseline first: "400 against 422", "data.price: string against number". */
  detail: string;
  /** The open points the difference falls on (see `Attribute`): empty where none of the test's requirements meets one. */
  openPoints: string[];
  baseline?: Observation;
  candidate?: Observation;
}

/** The open points a pair of observations falls on, from the requirements its test judges. */
export type Attribute = (a: Observation | undefined, b: Observation | undefined) => string[];

export interface CompareOptions {
  /**
   * Declared noise of an interface: a test of a key (`member:<path>`, `header:<name>`), or of `requirement:<id>` and
   * `operation:<key>`, whose cases vary with the clock (which request of a window is limited, which of concurrent ones
   * wins, whether an update was still pending).
   */
  declared?: (interfaceName: string) => (key: string) => boolean;
  /** What the baseline's own runs varied (measureNoise's `noisyKeys`): never a difference. */
  measured?: NoisyKeys;
  /** Per operation (given one of its cases), how far its median duration may move before it is a timing difference (measured in the run); none: not compared. */
  timingToleranceMs?: (o: Observation) => number | undefined;
  attribute?: Attribute;
  /** The pairs to compare, where not case by case: at two different seeds, the classes of cases (pairClasses). */
  pairs?: ReadonlyArray<readonly [Observation | undefined, Observation | undefined]>;
}

/** A case's name on both sides: its interface, test, label and ordinal (an observation or a difference carries them). */
export const caseKey = (o: Pick<Observation, 'interfaceName' | 'test' | 'label' | 'ordinal'>) => `${o.interfaceName}\u0000${o.test}\u0000${o.label}\u0000${o.ordinal}`;

/**
 * Declared noise patterns as a test of a key. A member pattern is a path in which `*` stands for one segment and `**`
 * for any run of them (`member:**.exp_date`); a header pattern is a lower-case name (`header:x-request-id`).
 */
export function noiseMatcher(patterns: readonly string[]): (key: string) => boolean {
  const res = patterns.map((p) => {
    const body = p
      .split(/(\*\*\.|\*\*|\*)/)
      .map((part) => (part === '**.' ? '(?:.*\\.)?' : part === '**' ? '.*' : part === '*' ? '[^.]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    return new RegExp(`^${body}$`);
  });
  return (key) => res.some((re) => re.test(key));
}

/** The element paths a member path lies in, itself included (`data.list[].fills[].px` -> `data.list[]`, `data.list[].fills[]`). */
function arraysAbove(path: string): string[] {
  const out: string[] = [];
  for (let i = path.indexOf('[]'); i >= 0; i = path.indexOf('[]', i + 2)) out.push(path.slice(0, i + 2));
  return out;
}

/** The keys a pair differs on (`status`, `member:<path>`, `header:<name>`), with the difference in words. */
export function differingKeys(a: Observation, b: Observation, ignored: (key: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  if (a.status !== b.status && !ignored('status')) out.set('status', `${a.status} against ${b.status}`);
  const am = a.members ?? {};
  const bm = b.members ?? {};
  if ((a.members === undefined) !== (b.members === undefined)) out.set('member:$', `${a.members ? 'JSON' : 'not JSON'} against ${b.members ? 'JSON' : 'not JSON'}`);
  else {
    for (const path of new Set([...Object.keys(am), ...Object.keys(bm)])) {
      const ta: MemberType | undefined = am[path];
      const tb: MemberType | undefined = bm[path];
      if (ta === tb || ignored(`member:${path}`)) continue;
      // Absent under a list one side had empty: nothing to compare there.
      if ((ta === undefined || tb === undefined) && arraysAbove(path).some((list) => am[list] === undefined || bm[list] === undefined)) continue;
      out.set(`member:${path}`, `${path}: ${ta ?? 'absent'} against ${tb ?? 'absent'}`);
    }
  }
  for (const name of new Set([...Object.keys(a.headers), ...Object.keys(b.headers)])) {
    const ha = a.headers[name];
    const hb = b.headers[name];
    if (ha === hb || ignored(`header:${name}`)) continue;
    out.set(`header:${name}`, `${name}: ${ha === undefined ? 'absent' : ha === true ? 'present' : ha} against ${hb === undefined ? 'absent' : hb === true ? 'present' : hb}`);
  }
  return out;
}

/**
 * At two different seeds the generated cases differ, so a case's ordinal names different requests on each side. What
 * can be compared is a class of cases (one test, one label) that does not depend on what was generated: one that
 * answered alike every time it was made, at least twice, on each side. Each such class gives one pair (its first case
 * on each side); a class that varied within a side, or was made once, or by one side only, is the seed's.
 */
export function pairClasses(a: readonly Observation[], b: readonly Observation[], o: CompareOptions): Array<[Observation, Observation]> {
  const classes = (side: readonly Observation[]) => {
    const out = new Map<string, Observation[]>();
    for (const x of side) {
      const key = `${x.interfaceName}\u0000${x.test}\u0000${x.label}`;
      out.set(key, [...(out.get(key) ?? []), x]);
    }
    return out;
  };
  const uniform = (xs: Observation[]) =>
    xs.length >= 2 && xs.every((x) => [...differingKeys(xs[0]!, x, o.declared?.(x.interfaceName))].filter(([key]) => !isMeasuredNoise(o.measured, x, key)).length === 0);
  const ca = classes(a);
  const cb = classes(b);
  const out: Array<[Observation, Observation]> = [];
  for (const [key, xs] of ca) {
    const ys = cb.get(key);
    if (ys && uniform(xs) && uniform(ys)) out.push([xs[0]!, ys[0]!]);
  }
  return out;
}

/** Pairs the two sides' observations by case: [a, b], either missing where only one side made the case. */
export function pair(a: readonly Observation[], b: readonly Observation[]): Array<[Observation | undefined, Observation | undefined]> {
  const bs = new Map(b.map((o) => [caseKey(o), o]));
  const out: Array<[Observation | undefined, Observation | undefined]> = [];
  for (const o of a) {
    out.push([o, bs.get(caseKey(o))]);
    bs.delete(caseKey(o));
  }
  for (const o of bs.values()) out.push([undefined, o]);
  return out;
}

export interface NoiseEntry {
  interfaceName: string;
  /** status, member:<path>, header:<name>, or case (a case one of the two runs made and the other did not). */
  key: string;
  /** Pairs that differed on it, and pairs of that interface compared. */
  differed: number;
  compared: number;
}

/**
 * Where a measured noisy key applies. A member or a header the baseline varied anywhere in an interface is noise in
 * all of it (a member that comes and goes shows up in few cases of each operation); a status it varied, or a case it
 * made in one run only, only in that test (a rate limit met sooner or later in one test is no licence for every
 * status of the interface to change; in that test, which request meets it varies from case to case).
 */
export interface NoisyKeys {
  members: ReadonlySet<string>;
  statuses: ReadonlySet<string>;
  /** Tests in which the two runs made a case a different number of times: a poll until a write shows, a retry. */
  cases: ReadonlySet<string>;
}

/** Where a status or a case the two runs varied is noise: its test. */
const testScope = (o: Observation) => testKey(o.interfaceName, o.test);
const keyScope = (interfaceName: string, key: string) => `${interfaceName}\u0000${key}`;

export function isMeasuredNoise(noisy: NoisyKeys | undefined, o: Observation, key: string): boolean {
  if (!noisy) return false;
  return key === 'status' ? noisy.statuses.has(testScope(o)) : noisy.members.has(keyScope(o.interfaceName, key));
}

/**
 * What varies between two runs of the same deployment (the baseline run twice, or a second instance of it): each key
 * with how often it differed, per interface, and the keys a comparison leaves out.
 */
export function measureNoise(
  first: readonly Observation[],
  second: readonly Observation[],
  declared: CompareOptions['declared'] = () => () => false,
): { entries: NoiseEntry[]; noisy: NoisyKeys; timing: Map<string, { medianMs: number; movedMs: number }> } {
  const counts = new Map<string, NoiseEntry>();
  const compared = new Map<string, number>();
  const members = new Set<string>();
  const statuses = new Set<string>();
  const cases = new Set<string>();
  const spans = new Map<string, { a: number[]; b: number[] }>();
  const count = (interfaceName: string, key: string) => {
    const id = keyScope(interfaceName, key);
    const entry = counts.get(id) ?? { interfaceName, key, differed: 0, compared: 0 };
    entry.differed++;
    counts.set(id, entry);
  };
  for (const [a, b] of pair(first, second)) {
    if (declaredRacy(declared, (a ?? b)!) && (!a || !b || a.status !== b.status)) continue;
    if (!a || !b) {
      const o = (a ?? b)!;
      count(o.interfaceName, 'case');
      cases.add(testScope(o));
      continue;
    }
    compared.set(a.interfaceName, (compared.get(a.interfaceName) ?? 0) + 1);
    const span = spans.get(operationOf(a)) ?? { a: [], b: [] };
    span.a.push(a.durationMs);
    span.b.push(b.durationMs);
    spans.set(operationOf(a), span);
    for (const key of differingKeys(a, b, declared(a.interfaceName)).keys()) {
      count(a.interfaceName, key);
      if (key === 'status') statuses.add(testScope(a));
      else members.add(keyScope(a.interfaceName, key));
    }
  }
  const entries = [...counts.values()].map((e) => ({ ...e, compared: compared.get(e.interfaceName) ?? 0 })).sort((x, y) => y.differed - x.differed);
  const timing = new Map([...spans].map(([op, d]) => [op, { medianMs: median(d.a), movedMs: Math.abs(median(d.a) - median(d.b)) }]));
  return { entries, noisy: { members, statuses, cases }, timing };
}

/** A case of a check whose requirement, or of an operation, the spec declares to vary with the clock (`requirement:<id>`, `operation:<key>`). */
const declaredRacy = (declared: CompareOptions['declared'], o: Observation) => {
  const test = declared?.(o.interfaceName);
  return test !== undefined && (o.requirements.some((r) => test(`requirement:${r}`)) || (o.operation !== undefined && test(`operation:${o.operation}`)));
};

/** Every difference between the two sides, case by case, but for declared and measured noise. */
export function compare(baseline: readonly Observation[], candidate: readonly Observation[], o: CompareOptions = {}): Difference[] {
  const out: Difference[] = [];
  const durations = new Map<string, { a: number[]; b: number[]; first: Observation; at: Omit<Difference, 'kind' | 'detail'> }>();
  for (const [x, y] of o.pairs ?? pair(baseline, candidate)) {
    const base = x ?? y!;
    // In a check that varies with the clock, only the cases both sides answered alike are compared (the shape of a
    // 429, its headers): which case was limited, and how many were sent, is the clock's.
    if (declaredRacy(o.declared, base) && (!x || !y || x.status !== y.status)) continue;
    const at = {
      interfaceName: base.interfaceName,
      ...(base.operation ? { operation: base.operation } : {}),
      test: base.test,
      label: base.label,
      ordinal: base.ordinal,
      requirements: [...new Set([...(x?.requirements ?? []), ...(y?.requirements ?? [])])],
      openPoints: o.attribute?.(x, y) ?? [],
      ...(x ? { baseline: x } : {}),
      ...(y ? { candidate: y } : {}),
    };
    if (!x || !y) {
      if (o.measured?.cases.has(testScope(base))) continue;
      out.push({ kind: 'only-one-side', detail: `made by the ${x ? 'baseline' : 'candidate'} only`, ...at });
      continue;
    }
    const keys = [...differingKeys(x, y, o.declared?.(x.interfaceName))].filter(([key]) => !isMeasuredNoise(o.measured, x, key));
    const status = keys.find(([key]) => key === 'status');
    if (status) {
      const refusals = typeof x.status === 'number' && typeof y.status === 'number' && x.status >= 400 && x.status < 500 && y.status >= 400 && y.status < 500;
      out.push({ kind: refusals ? 'refusal-status' : 'status', detail: status[1], ...at });
    }
    const members = keys.filter(([key]) => key.startsWith('member:')).map(([, d]) => d);
    if (members.length) out.push({ kind: 'members', detail: members.join('; '), ...at });
    const headers = keys.filter(([key]) => key.startsWith('header:')).map(([, d]) => d);
    if (headers.length) out.push({ kind: 'headers', detail: headers.join('; '), ...at });
    if (o.timingToleranceMs) {
      const op = operationOf(x);
      const d = durations.get(op) ?? { a: [], b: [], first: x, at };
      d.a.push(x.durationMs);
      d.b.push(y.durationMs);
      durations.set(op, d);
    }
  }
  // Timing per operation: one slow answer is the machine's; a median that moved beyond what the baseline's own runs
  // moved is the deployment's.
  for (const [op, d] of durations) {
    const tolerance = o.timingToleranceMs?.(d.first);
    const [ma, mb] = [median(d.a), median(d.b)];
    if (tolerance !== undefined && Math.abs(ma - mb) > tolerance) out.push({ kind: 'timing', detail: `${op}: median ${ma} ms against ${mb} ms over ${d.a.length} cases (tolerance ${tolerance} ms)`, ...d.at });
  }
  return out;
}

/** An observation's operation, or its label where it names none: what timing is measured per. */
export const operationOf = (o: Observation) => `${o.interfaceName} ${o.operation ?? o.label}`;

export const median = (xs: readonly number[]) => {
  const s = [...xs].sort((p, q) => p - q);
  return s.length === 0 ? 0 : Math.round(s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2);
};

/** Differences counted by kind, interface, operation and open points, with a bounded sample of each (diff.json's rows). */
export function summarise(differences: Iterable<Difference>, samples = 3): DiffRow[] {
  const rows = new Map<string, DiffRow>();
  for (const d of differences) {
    const key = [d.kind, d.interfaceName, d.operation ?? '', d.openPoints.join(',')].join('\u0000');
    const row = rows.get(key) ?? { kind: d.kind, interface: d.interfaceName, ...(d.operation ? { operation: d.operation } : {}), openPoints: d.openPoints, requirements: [], count: 0, samples: [] };
    row.count++;
    for (const r of d.requirements) if (!row.requirements.includes(r)) row.requirements.push(r);
    // The first few, with both sides' observations: a long comparison keeps these, not every difference.
    if (row.samples.length < samples) row.samples.push({ test: d.test, label: d.label, ordinal: d.ordinal, detail: d.detail, ...(d.baseline ? { baseline: d.baseline } : {}), ...(d.candidate ? { candidate: d.candidate } : {}) });
    rows.set(key, row);
  }
  return [...rows.values()].sort((x, y) => y.count - x.count);
}
