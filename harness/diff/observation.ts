/**
 * What the behaviour diff (issue 25) keeps of an exchange: not the exchange itself (ids, times and signatures differ
 * on every run), but what a client built against it relies on: the status, the members of a JSON answer by path with
 * their types, the headers the spec names, and how long it took. Two runs at the same seed send the same cases; the
 * observations of the same case on each side are then compared (compare.ts).
 */
import type { Exchange } from '../http/exchange.ts';
import { parseJson } from '../parse-json.ts';
import type { LoadedSpec } from '../spec/types.ts';

export type MemberType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

export interface Observation {
  interfaceName: string;
  /** The check's title and the requirements it judges (its tags): what the case was about. */
  test: string;
  requirements: string[];
  /** The exchange's label with its numbers and ids replaced (`#`): the same case on both sides. */
  label: string;
  /** The how-manieth exchange of that label in the test, from 0. */
  ordinal: number;
  operation?: string;
  /** `error` when no answer came (a time-out, a refused connection). */
  status: number | 'error';
  /** JSON answers: member path (`data.list[].price`) -> type. Absent for an answer that is not JSON. */
  members?: Record<string, MemberType>;
  /** The headers the spec names for the operation's answers, lower-cased, that this answer carries; and its media type. */
  headers: Record<string, string | true>;
  durationMs: number;
}

/**
 * A label's case, not its values: every word with a digit in it (a number, an id, a run's namespace, a version) and
 * every long hex word becomes `#`, so that two runs name the same case alike whatever ids each was given.
 */
export function caseOf(label: string): string {
  return label
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '#')
    .replace(/[A-Za-z0-9_]*\d[A-Za-z0-9_.]*/g, '#')
    .replace(/\b[0-9a-f]{8,}\b/gi, '#')
    .replace(/#(?:[-.]#)+/g, '#');
}

/** Every member path of a JSON value with its type; the elements of an array share one path (`[]`). */
export function membersOf(value: unknown, at = '', out: Record<string, MemberType> = {}): Record<string, MemberType> {
  const type: MemberType = value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as MemberType);
  const path = at || '$';
  // One element of an array may hold a member another lacks: the type seen first is kept, the paths are united.
  out[path] ??= type;
  if (Array.isArray(value)) for (const v of value) membersOf(v, `${at}[]`, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) membersOf(v, at ? `${at}.${k}` : k, out);
  return out;
}

export interface ObserveOptions {
  interfaceName: string;
  test: string;
  requirements: string[];
  /** The header names the spec names for an operation's answers (lower case): their presence is compared. */
  headers?: (operation: string | undefined) => readonly string[];
}

/** The header names a spec documents for each operation's answers, lower-cased (every status's together). */
export function namedHeaders(spec: LoadedSpec): (operation: string | undefined) => readonly string[] {
  const byKey = new Map(spec.operations.map((op) => [op.key, [...new Set(Object.values(op.responses).flatMap((r) => Object.keys(r.headers).map((h) => h.toLowerCase())))]]));
  return (operation) => (operation ? (byKey.get(operation) ?? []) : []);
}

/**
 * Exchanges that are not cases of the interface: the harness's own clean-up (labels `undo:`, `restore:`: whether an
 * order was still there to cancel depends on how far the run got) and the reference's private inspection paths
 * (`/__reference/...`), which no deployment has.
 */
export function isCase(ex: Exchange): boolean {
  return !/^(undo|restore)\b/i.test(ex.label ?? '') && !(ex.requestPath ?? '').startsWith('/__reference');
}

/** A member path's case: a member named with an id (a run's namespace in a property name) is named by `#`. */
const pathCase = (path: string) => path.split('.').map((segment) => (/\d/.test(segment) && /[a-f0-9]{6,}|_\d/i.test(segment) ? caseOf(segment) : segment)).join('.');

/** The observations of one test's exchanges, in the order they were made. */
export function observe(exchanges: readonly Exchange[], o: ObserveOptions): Observation[] {
  const seen = new Map<string, number>();
  return exchanges.filter(isCase).map((ex) => {
    const label = caseOf(ex.label ?? `${ex.request.method} ${ex.requestPath ?? ex.request.url}`);
    const ordinal = seen.get(label) ?? 0;
    seen.set(label, ordinal + 1);
    const r = ex.response;
    const json = r ? parseJson(r.body) : undefined;
    const headers: Record<string, string | true> = {};
    for (const name of o.headers?.(ex.operation) ?? []) if (r?.headers[name] !== undefined) headers[name] = true;
    // The media type a client parses the answer by: its value counts, not only its presence.
    const mediaType = r?.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (mediaType) headers['content-type'] = mediaType;
    return {
      interfaceName: o.interfaceName,
      test: o.test,
      requirements: o.requirements,
      label,
      ordinal,
      ...(ex.operation ? { operation: ex.operation } : {}),
      status: r ? r.status : 'error',
      ...(json === undefined ? {} : { members: Object.fromEntries(Object.entries(membersOf(json)).map(([path, type]) => [pathCase(path), type])) }),
      headers,
      durationMs: ex.durationMs,
    };
  });
}
