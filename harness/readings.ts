/**
 * Starting the embedded references in other readings of their open points (--readings): a profile's reference entries
 * are changed before the profile is checked, as if a tester had written the profile of a deployment that took those
 * readings. Each reading sets the reference's own option (`reference.readings`, plus the options it names) and what a
 * tester of such a deployment would state in the profile (`settings`); see mocks/readings.ts.
 */
import type { OpenPointReadings, Reading } from './reference.ts';

/** One reading asked for: an open point of a spec and the reading the reference takes. */
export interface AskedReading {
  interfaceName: string;
  point: string;
  reading: string;
}

/** What --readings asks: `other` (every point of every reference in scope in its first other reading) or point=reading pairs. */
export type ReadingsAsk = 'other' | AskedReading[];

/**
 * The readings each reference implements, interface name -> its catalogue (mocks/<name>/readings.ts), as a command
 * hands them over (scripts/interfaces.ts): the harness imports no reference.
 */
export type Catalogues = Readonly<Record<string, readonly OpenPointReadings[]>>;

/** Every reading of every point of an interface but its default and its first other reading. */
export function laterReadings(catalogues: Catalogues, interfaceName: string): AskedReading[] {
  return (catalogues[interfaceName] ?? []).flatMap((p) => p.readings.slice(2).map((r) => ({ interfaceName, point: p.point, reading: r.name })));
}

/**
 * The first other readings that leave most checks nothing to judge (Reading.leavesLittleToJudge: accounts without
 * funds): the self-test runs them beside the later readings, and the "other readings" run keeps their points at the
 * default, so that every other point's reading is judged by the checks it meets.
 */
export function readingsLeavingLittle(catalogues: Catalogues, interfaceName: string): AskedReading[] {
  return (catalogues[interfaceName] ?? []).filter((p) => p.readings[1].leavesLittleToJudge).map((p) => ({ interfaceName, point: p.point, reading: p.readings[1].name }));
}

/** The first other reading of every point of an interface: its "other readings" configuration. */
export function firstOtherReadings(catalogues: Catalogues, interfaceName: string): AskedReading[] {
  return (catalogues[interfaceName] ?? []).map((p) => ({ interfaceName, point: p.point, reading: p.readings[1].name }));
}

/** Parses --readings values: `other`, or `<point>=<reading>` (repeated or comma-separated). Throws a one-line reason. */
export function parseReadings(catalogues: Catalogues, values: readonly string[]): ReadingsAsk {
  const parts = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  if (parts.length === 1 && parts[0] === 'other') return 'other';
  return parts.map((part) => {
    const m = /^([A-Z]+-NS-[A-Z0-9-]+)=([a-z0-9][a-z0-9-]*)$/.exec(part);
    if (!m) throw new Error(`--readings ${part}: write other, or <open point>=<reading> (e.g. B-NS-CHECK-ORDER=body-first)`);
    const [, point, reading] = m;
    const owner = Object.entries(catalogues).find(([, points]) => points.some((p) => p.point === point));
    if (!owner) throw new Error(`--readings ${part}: no reference implements readings of ${point}`);
    const [interfaceName, points] = owner;
    const known = points.find((p) => p.point === point)!.readings.map((r) => r.name);
    if (!known.includes(reading)) throw new Error(`--readings ${part}: ${interfaceName} implements ${point} as ${known.join(', ')}`);
    return { interfaceName, point, reading };
  });
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Objects are merged member by member; anything else (arrays included) is replaced. */
export function deepMerge(into: Json, patch: Readonly<Json>): Json {
  const out: Json = { ...into };
  for (const [k, v] of Object.entries(patch)) out[k] = isObject(v) && isObject(out[k]) ? deepMerge(out[k] as Json, v) : structuredClone(v);
  return out;
}

/**
 * Applies the readings asked to a profile as parsed (before it is checked and its defaults filled in), for the
 * interfaces in scope (all of the profile's unless narrowed, as --interfaces does); `unstated` leaves out what a
 * tester would state (the readings' settings), as for a profile that does not know them. A reading of a live target is refused: only the embedded reference can be told what to do.
 */
export function applyReadings(catalogues: Catalogues, data: unknown, ask: ReadingsAsk, narrowed?: readonly string[], o: { unstated?: boolean } = {}): void {
  const interfaces = (isObject(data) && isObject(data.interfaces) ? data.interfaces : {}) as Record<string, Json>;
  const scope = narrowed ?? Object.keys(interfaces);
  const asked = ask === 'other' ? scope.filter((name) => isObject(interfaces[name]?.reference)).flatMap((name) => firstOtherReadings(catalogues, name)) : ask;
  for (const a of asked) {
    const entry = interfaces[a.interfaceName];
    if (!entry || !scope.includes(a.interfaceName)) throw new Error(`--readings ${a.point}=${a.reading}: ${a.interfaceName} is not an interface of this run`);
    if (!isObject(entry.reference)) throw new Error(`--readings ${a.point}=${a.reading}: ${a.interfaceName} is a live target here; only the embedded reference takes readings`);
    const reading = catalogues[a.interfaceName]!.find((p) => p.point === a.point)!.readings.find((r) => r.name === a.reading) as Reading;
    const reference = deepMerge(entry.reference, reading.reference ?? {});
    reference.readings = { ...(isObject(reference.readings) ? reference.readings : {}), [a.point]: a.reading };
    entry.reference = reference;
    // Unstated: the profile of a tester who does not know the reading (it must then never be failed for taking it).
    if (reading.settings && !o.unstated) entry.settings = deepMerge(isObject(entry.settings) ? entry.settings : {}, reading.settings);
    if (reading.credentials) entry.credentials = deepMerge(isObject(entry.credentials) ? entry.credentials : {}, reading.credentials);
  }
}

/** How a run's readings are written on its command line (the self-test's run names, replay commands). */
export function describeReadings(ask: ReadingsAsk): string {
  return ask === 'other' ? 'other' : ask.map((a) => `${a.point}=${a.reading}`).join(',');
}
