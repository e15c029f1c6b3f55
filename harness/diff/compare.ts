/**
 * The behaviour diff's comparison (issue 25): the observations of two runs at the same seed, paired case by case (the
 * same test, the same label, the same ordinal), and what differs between each pair. What a spec declares to vary
 * (ids, times, tokens: `noise`) is never compared; what the baseline's own two runs were seen to vary is measured
 * noise (`measureNoise`), reported with its rate and never counted as a difference.
 */
import type { MemberType, Observation } from './observation.ts';

export type DifferenceKind = 'status' | 'refusal-status' | 'members' | 'headers' | 'timing' | 'only-one-side';

export interface Difference {
  kind: DifferenceKind;
  interfaceName: string;
  operation?: string;
  test: string;
  label: string;
  ordinal: number;
  /** What differs, in words: "400 against 422", "data.price: string against number". */
  detail: string;
  /** The open points the difference falls on (see `Attribute`): empty where none of the test's requirements meets one. */
  openPoints: string[];
  a?: Observation;
  b?: Observation;
}

/** The open points a pair of observations falls on, from the requirements its test judges. */
export type Attribute = (a: Observation | undefined, b: Observation | undefined) => string[];

export interface CompareOptions {
  /** Member paths declared to vary (`*` stands for one path segment, `**` for any run of them), per spec. */
  noise?: readonly string[];
  /** What the baseline's own runs varied (measureNoise): never a difference. */
  measured?: ReadonlySet<string>;
  /** How far the durations of one case may differ before it is a timing difference (measured in the run). */
  timingToleranceMs?: number;
  attribute?: Attribute;
}

/** A case's name on both sides: its interface, test, label and ordinal (an observation or a difference carries them). */
export const caseKey = (o: Pick<Observation, 'interfaceName' | 'test' | 'label' | 'ordinal'>) => `${o.interfaceName}\u0000${o.test}\u0000${o.label}\u0000${o.ordinal}`;

/** A declared noise pattern as a test of a member path. */
export function noiseMatcher(patterns: readonly string[]): (path: string) => boolean {
  const res = patterns.map((p) => new RegExp(`^${p.split(/(\*\*|\*)/).map((part) => (part === '**' ? '.*' : part === '*' ? '[^.]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`));
  return (path) => res.some((re) => re.test(path));
}

/** The keys a pair differs on (`status`, `member:<path>`, `header:<name>`): what noise is measured and named by. */
function differingKeys(a: Observation, b: Observation, ignored: (path: string) => boolean): Map<string, string> {
  const out = new Map<string, string>();
  if (a.status !== b.status) out.set('status', `${a.status} against ${b.status}`);
  const am = a.members ?? {};
  const bm = b.members ?? {};
  if ((a.members === undefined) !== (b.members === undefined)) out.set('member:$', `${a.members ? 'JSON' : 'not JSON'} against ${b.members ? 'JSON' : 'not JSON'}`);
  for (const path of new Set([...Object.keys(am), ...Object.keys(bm)])) {
    if (ignored(path)) continue;
    const ta: MemberType | undefined = am[path];
    const tb: MemberType | undefined = bm[path];
    if (ta !== tb) out.set(`member:${path}`, `${path}: ${ta ?? 'absent'} against ${tb ?? 'absent'}`);
  }
  for (const name of new Set([...Object.keys(a.headers), ...Object.keys(b.headers)])) {
    const ha = a.headers[name];
    const hb = b.headers[name];
    if (ha !== hb) out.set(`header:${name}`, `${name}: ${ha === undefined ? 'absent' : ha === true ? 'present' : ha} against ${hb === undefined ? 'absent' : hb === true ? 'present' : hb}`);
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
  key: string;
  /** Pairs that differed on it, and pairs compared. */
  differed: number;
  compared: number;
}

/**
 * What varies between two runs of the same deployment (the baseline sent every case twice, or to a second instance):
 * each key with how often it differed. A comparison leaves these keys out.
 */
export function measureNoise(first: readonly Observation[], second: readonly Observation[], noise: readonly string[] = []): NoiseEntry[] {
  const ignored = noiseMatcher(noise);
  const counts = new Map<string, number>();
  let compared = 0;
  for (const [a, b] of pair(first, second)) {
    if (!a || !b) continue;
    compared++;
    for (const key of differingKeys(a, b, ignored).keys()) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, differed]) => ({ key, differed, compared })).sort((x, y) => y.differed - x.differed);
}

/** Every difference between the two sides, case by case, but for declared and measured noise. */
export function compare(a: readonly Observation[], b: readonly Observation[], o: CompareOptions = {}): Difference[] {
  const ignored = noiseMatcher(o.noise ?? []);
  const measured = o.measured ?? new Set<string>();
  const out: Difference[] = [];
  for (const [x, y] of pair(a, b)) {
    const base = x ?? y!;
    const at = { interfaceName: base.interfaceName, ...(base.operation ? { operation: base.operation } : {}), test: base.test, label: base.label, ordinal: base.ordinal, openPoints: o.attribute?.(x, y) ?? [], ...(x ? { a: x } : {}), ...(y ? { b: y } : {}) };
    if (!x || !y) {
      out.push({ kind: 'only-one-side', detail: `made by ${x ? 'the first' : 'the second'} side only`, ...at });
      continue;
    }
    const keys = [...differingKeys(x, y, ignored)].filter(([key]) => !measured.has(key));
    const status = keys.find(([key]) => key === 'status');
    if (status) {
      const refusals = typeof x.status === 'number' && typeof y.status === 'number' && x.status >= 400 && x.status < 500 && y.status >= 400 && y.status < 500;
      out.push({ kind: refusals ? 'refusal-status' : 'status', detail: status[1], ...at });
    }
    const members = keys.filter(([key]) => key.startsWith('member:')).map(([, d]) => d);
    if (members.length) out.push({ kind: 'members', detail: members.join('; '), ...at });
    const headers = keys.filter(([key]) => key.startsWith('header:')).map(([, d]) => d);
    if (headers.length) out.push({ kind: 'headers', detail: headers.join('; '), ...at });
    if (o.timingToleranceMs !== undefined && Math.abs(x.durationMs - y.durationMs) > o.timingToleranceMs) {
      out.push({ kind: 'timing', detail: `${x.durationMs} ms against ${y.durationMs} ms (tolerance ${o.timingToleranceMs} ms)`, ...at });
    }
  }
  return out;
}

export interface DiffSummaryRow {
  kind: DifferenceKind;
  interfaceName: string;
  operation?: string;
  openPoints: string[];
  count: number;
  /** The first few, with both exchanges' observations: a long comparison keeps these, not every difference. */
  samples: Difference[];
}

/** Differences counted by kind, operation and open points, with a bounded sample of each. */
export function summarise(differences: Iterable<Difference>, samples = 3): DiffSummaryRow[] {
  const rows = new Map<string, DiffSummaryRow>();
  for (const d of differences) {
    const key = [d.kind, d.interfaceName, d.operation ?? '', d.openPoints.join(',')].join('\u0000');
    const row = rows.get(key) ?? { kind: d.kind, interfaceName: d.interfaceName, ...(d.operation ? { operation: d.operation } : {}), openPoints: d.openPoints, count: 0, samples: [] };
    row.count++;
    if (row.samples.length < samples) row.samples.push(d);
    rows.set(key, row);
  }
  return [...rows.values()].sort((x, y) => y.count - x.count);
}
