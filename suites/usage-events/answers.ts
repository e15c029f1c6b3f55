/**
 * Reading the target's answers where the document leaves their shape open: the ingest answer's members, where they
 * sit and how an error entry gives its event's position (D-NS-INGEST-SHAPE, D-NS-ERROR-ENTRIES), one event read by
 * its id (D-NS-EVENT-ENVELOPE) and the statistics rows (D-NS-STATS-SHAPE). What the profile states is where the
 * reader looks; what it leaves to its default, the reader finds wherever a reading of the document puts it. Each
 * reader says which reading it saw, for the report. Nothing here judges.
 */
import { getAt } from '../../harness/json-pointer.ts';
import type { SeenReading } from './model.ts';
import type { UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';

export type { SeenReading };
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface IngestMembers {
  /** The count of ingested events, as the answer gives it (undefined: the answer has none where it was looked for). */
  inserted: unknown;
  /**
   * The batch position of each error entry (undefined where an entry gives none that can be read); [] when the answer
   * leaves the errors out and nothing failed by its own count; undefined when it has no array of errors at all.
   */
  indexes: unknown[] | undefined;
  readings: SeenReading[];
}

/** What of the ingest answer's names the profile states (settings.ingestResponse). */
export interface IngestNames {
  names: UsageEventsSettings['ingestResponse'];
  /** The profile states the member that gives an error entry's position. */
  indexStated: boolean;
}

/**
 * The count and the error entries of an ingest answer: at its top level, or inside the one member that wraps them
 * ({ data: {...} }). The errors array may be left out when nothing failed (an answer whose count is the batch's
 * size): that is an empty array. An entry's position is its `errorIndex` member, or, unless the profile states that
 * member, the position inside its `loc` path (["body", "events", 3, "name"]).
 */
export function ingestMembers(body: unknown, size: number, { names, indexStated }: IngestNames): IngestMembers {
  const readings: SeenReading[] = [];
  const holds = (o: unknown): o is Json => isObject(o) && (names.inserted in o || names.errors in o);
  let members: Json | undefined;
  if (holds(body)) members = body;
  else if (isObject(body)) {
    const wrapped = Object.entries(body).filter(([, v]) => holds(v));
    if (wrapped.length === 1) {
      members = wrapped[0]![1] as Json;
      if (wrapped[0]![0] === 'data') readings.push({ point: 'D-NS-INGEST-SHAPE', reading: 'data-envelope' });
    }
  }
  if (!members) return { inserted: undefined, indexes: undefined, readings };
  const inserted = members[names.inserted];
  const errors = members[names.errors];
  if (!(names.errors in members) && inserted === size) {
    readings.push({ point: 'D-NS-INGEST-SHAPE', reading: 'errors-omitted-when-empty' });
    return { inserted, indexes: [], readings };
  }
  if (!Array.isArray(errors)) return { inserted, indexes: undefined, readings };
  if (members === body && readings.length === 0) readings.push({ point: 'D-NS-INGEST-SHAPE', reading: 'flat-always-both' });
  const indexes = errors.map((e) => positionOf(e, names.errorIndex, indexStated, readings));
  return { inserted, indexes, readings };
}

function positionOf(entry: unknown, member: string, stated: boolean, readings: SeenReading[]): unknown {
  if (!isObject(entry)) return undefined;
  if (member in entry || stated) return entry[member];
  // A validation library's entry: the position is the element after "events" in its path.
  const loc = entry.loc;
  if (!Array.isArray(loc)) return undefined;
  const at = loc.indexOf('events');
  const position = at >= 0 ? loc[at + 1] : undefined;
  if (Number.isInteger(position)) {
    if (!readings.some((r) => r.reading === 'loc-path')) readings.push({ point: 'D-NS-ERROR-ENTRIES', reading: 'loc-path' });
    return position;
  }
  return undefined;
}

/**
 * The event of GET /v1/events/{id}: the answer itself, or the one member that wraps it ({ data: <the event> }),
 * recognised by the id member (settings.eventId).
 */
export function eventOf(body: unknown, eventId: string): { event: Json | undefined; reading?: SeenReading } {
  if (!isObject(body)) return { event: undefined };
  if (eventId in body) return { event: body, reading: { point: 'D-NS-EVENT-ENVELOPE', reading: 'bare-object' } };
  const wrapped = Object.entries(body).filter(([, v]) => isObject(v) && eventId in v);
  if (wrapped.length !== 1) return { event: body };
  const [name, event] = wrapped[0]!;
  return { event: event as Json, ...(name === 'data' ? { reading: { point: 'D-NS-EVENT-ENVELOPE', reading: 'data-envelope' } } : {}) };
}

/**
 * The statistics rows of an answer: where the profile states (settings.statisticsRows), else the answer itself when
 * it is an array, else the one array an object answer holds ({ periods: [...] }). Undefined when there is none.
 */
export function statisticsRows(json: unknown, pointer: string, stated: boolean): { rows: unknown[] | undefined; reading?: SeenReading } {
  const at = getAt(json, pointer);
  if (Array.isArray(at)) return { rows: at, ...(pointer === '' ? {} : { reading: { point: 'D-NS-STATS-SHAPE', reading: 'periods-envelope' } }) };
  if (stated || !isObject(json)) return { rows: undefined };
  const arrays = Object.values(json).filter(Array.isArray);
  return arrays.length === 1 ? { rows: arrays[0], reading: { point: 'D-NS-STATS-SHAPE', reading: 'periods-envelope' } } : { rows: undefined };
}
