/**
 * The executable model of Interface D the suite holds a target to, restricted to what every reading of the document
 * agrees on: which events of a batch must fail, which events a list filter selects, and what a statistics row holds.
 * Small enough to check by eye against the document; the suite generates only events and queries inside the region
 * where the readings agree (see events.ts), and the model says nothing outside it.
 */

import { statusKind } from '../../harness/answers.ts';

export type Scalar = string | number | boolean;

/** An event the harness sends (valid), as the model keeps it: `at` is its instant in epoch milliseconds. */
export interface ModelEvent {
  /** The harness's own marker, sent as the property `seq`: finds the event again among what the target lists. */
  seq: string;
  name: string;
  customer_id?: string;
  external_customer_id?: string;
  at: number;
  properties: Record<string, Scalar>;
  idempotency_key?: string;
}

/** The event as sent on the wire: timestamp as ISO 8601 UTC, the seq among the properties. */
export function wire(e: ModelEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { name: e.name, timestamp: new Date(e.at).toISOString(), properties: { ...e.properties, seq: e.seq } };
  if (e.customer_id !== undefined) out.customer_id = e.customer_id;
  if (e.external_customer_id !== undefined) out.external_customer_id = e.external_customer_id;
  if (e.idempotency_key !== undefined) out.idempotency_key = e.idempotency_key;
  return out;
}

// ---- ingestion ------------------------------------------------------------------------------------------------------

/** The ways an event can break the document's field table, each with the requirement it breaks. */
export const INVALID_KINDS = ['name', 'customer', 'timestamp', 'properties'] as const;
export type InvalidKind = (typeof INVALID_KINDS)[number];
export const RULE_OF: Record<InvalidKind, string> = {
  name: 'D-INGEST-NAME',
  customer: 'D-INGEST-CUSTOMER',
  timestamp: 'D-INGEST-TIMESTAMP',
  properties: 'D-INGEST-PROPERTIES',
};

export interface Finding {
  requirements: string[];
  message: string;
  expected: string;
}

/**
 * The ingest answer against the batch: "the number of events ingested and an array of errors for failed events".
 * `invalid`: index -> kind of each invalid event. A missing invalid event blames its own rule only when every error
 * the answer gives is one the batch deserved (otherwise the indexes are wrong, and which event slipped through is
 * unknowable): an off-by-one index is an errors problem, not a name problem. An event may have an entry per problem
 * (D-NS-ERROR-ENTRIES), so a position named twice is no fault. A batch whose every event is invalid may be refused
 * with the same answer (D-NS-PARTIAL-STATUS): its entries are judged all the same. Where an entry's position cannot be
 * read and the profile does not state the member that gives it (`positionsStated`), only the count and whether there
 * are errors at all are judged.
 */
export function judgeIngestAnswer(
  size: number,
  invalid: ReadonlyMap<number, InvalidKind>,
  answer: { ok: boolean; inserted: unknown; indexes: unknown[] | undefined; status: number; positionsStated: boolean },
): Finding | undefined {
  const x = [...invalid.keys()].sort((a, b) => a - b);
  const whole = x.length === 0 ? 'D-INGEST-ACCEPTED' : 'D-INGEST-ERRORS-EXACT';
  const expected = `${size - x.length} ingested; errors for exactly ${x.length ? `the events at ${x.join(', ')}` : 'no event'}`;
  const allFailedRefusal = size > 0 && x.length === size && statusKind(answer.status) === 'refused';
  if (!answer.ok && !allFailedRefusal) return { requirements: [whole], message: `the batch of ${size} events (${x.length} invalid) was answered ${answer.status}`, expected };
  if (answer.indexes === undefined) return { requirements: [whole], message: 'the answer has no array of errors', expected };
  const count = () => (answer.inserted !== size - x.length ? { requirements: [whole], message: `the count of ingested events is ${JSON.stringify(answer.inserted)}, not ${size - x.length}`, expected } : undefined);
  const bad = answer.indexes.filter((i) => !Number.isInteger(i));
  if (bad.length && !answer.positionsStated) {
    if ((answer.indexes.length > 0) !== (x.length > 0)) return { requirements: [whole], message: `the answer gives ${answer.indexes.length} error entries`, expected };
    return count();
  }
  if (bad.length) return { requirements: [whole], message: `error entries without a whole-number index: ${JSON.stringify(bad.slice(0, 3))}`, expected };
  const y = [...new Set(answer.indexes as number[])].sort((a, b) => a - b);
  const got = `errors for ${y.length ? `the events at ${y.join(', ')}` : 'no event'}; ${JSON.stringify(answer.inserted)} ingested`;
  if (y.length === x.length && y.every((v, i) => v === x[i])) return count();
  const deserved = y.every((i) => invalid.has(i));
  if (deserved && y.length < x.length) {
    const missed = x.filter((i) => !y.includes(i));
    const rules = [...new Set(missed.map((i) => RULE_OF[invalid.get(i)!]))];
    return { requirements: rules, message: `invalid events got no error: ${missed.map((i) => `${i} (${invalid.get(i)})`).join(', ')}; the answer gave ${got}`, expected };
  }
  return { requirements: [whole], message: `the answer gave ${got}`, expected };
}

// ---- filter clauses -------------------------------------------------------------------------------------------------

export const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like'] as const;
export type Operator = (typeof OPERATORS)[number];
export interface Clause {
  property: string;
  operator: Operator;
  value: Scalar;
}
export interface FilterClause {
  conjunction: 'and' | 'or';
  clauses: Array<Clause | FilterClause>;
}

/**
 * Does the event match the clause? "The same format as meter filters": a conjunction of clauses on the event's own
 * fields (name, customer_id, external_customer_id, timestamp) or its properties. Where readings could differ the suite
 * never goes: values are compared with values of their own type; every generated event carries every property a
 * generated clause names; like patterns have % at both ends, so an anchored and an unanchored LIKE agree.
 */
export function holds(e: ModelEvent, f: FilterClause): boolean {
  const one = (c: Clause | FilterClause) => ('conjunction' in c ? holds(e, c) : clauseHolds(e, c));
  return f.conjunction === 'and' ? f.clauses.every(one) : f.clauses.some(one);
}

function fieldOf(e: ModelEvent, property: string): Scalar | undefined {
  if (property === 'name' || property === 'customer_id' || property === 'external_customer_id') return e[property];
  if (property === 'timestamp') return e.at;
  if (property === 'seq') return e.seq;
  return e.properties[property];
}

function clauseHolds(e: ModelEvent, c: Clause): boolean {
  let actual = fieldOf(e, c.property);
  let value = c.value;
  if (actual === undefined) return false;
  if (c.property === 'timestamp') {
    const bound = typeof value === 'string' ? Date.parse(value) : typeof value === 'number' ? value * 1000 : NaN;
    if (Number.isNaN(bound) || c.operator === 'like' || c.operator === 'not_like') return false;
    value = bound;
  }
  if (c.operator === 'like' || c.operator === 'not_like') {
    const m = likeRegExp(String(value)).test(String(actual));
    return c.operator === 'like' ? m : !m;
  }
  if (typeof actual !== typeof value) return false;
  const sign = actual < value ? -1 : actual > value ? 1 : 0;
  switch (c.operator) {
    case 'eq':
      return sign === 0;
    case 'ne':
      return sign !== 0;
    case 'gt':
      return sign > 0;
    case 'gte':
      return sign >= 0;
    case 'lt':
      return sign < 0;
    case 'lte':
      return sign <= 0;
  }
}

/** SQL LIKE over the whole text: % any run, _ one character, \ escapes. */
function likeRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length) source += escape(pattern[++i]!);
    else if (ch === '%') source += '[\\s\\S]*';
    else if (ch === '_') source += '[\\s\\S]';
    else source += escape(ch);
  }
  return new RegExp(`^${source}$`, 'u');
}
const escape = (ch: string) => ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

// ---- list filters ---------------------------------------------------------------------------------------------------

export interface ListQuery {
  customer_id?: string;
  external_customer_id?: string;
  /** Bounds in epoch ms; no event is ever placed on one, so whether they are inclusive never matters. */
  start?: number;
  end?: number;
  clause?: FilterClause;
  meter?: { id: string; filter: FilterClause };
}

/** "Events after a start time and before an end time", and every other filter given: all of them hold. */
export function selects(q: ListQuery, e: ModelEvent): boolean {
  if (q.customer_id !== undefined && e.customer_id !== q.customer_id) return false;
  if (q.external_customer_id !== undefined && e.external_customer_id !== q.external_customer_id) return false;
  if (q.start !== undefined && !(e.at > q.start)) return false;
  if (q.end !== undefined && !(e.at < q.end)) return false;
  if (q.clause && !holds(e, q.clause)) return false;
  if (q.meter && !holds(e, q.meter.filter)) return false;
  return true;
}

// ---- statistics -----------------------------------------------------------------------------------------------------

export const INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];
export const AGGREGATIONS = ['count', 'sum', 'avg', 'min', 'max'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
const RULE_OF_AGGREGATION: Record<Aggregation, string> = { count: 'D-STATS-COUNT', sum: 'D-STATS-SUM', avg: 'D-STATS-AVG', min: 'D-STATS-MIN', max: 'D-STATS-MAX' };

/**
 * The start of the interval holding `ms`, in a zone `offsetMs` ahead of UTC (0: UTC). A week starts on `weekStart`
 * (0 Sunday .. 6 Saturday): the document does not say which day, so the suite learns it from the target's own rows.
 */
export function intervalStart(ms: number, interval: Interval, weekStart = 1, offsetMs = 0): number {
  const local = ms + offsetMs;
  const d = new Date(local);
  switch (interval) {
    case 'hour':
      return Math.floor(local / HOUR) * HOUR - offsetMs;
    case 'day':
      return Math.floor(local / DAY) * DAY - offsetMs;
    case 'week': {
      const day = Math.floor(local / DAY) * DAY;
      return day - ((new Date(day).getUTCDay() - weekStart + 7) % 7) * DAY - offsetMs;
    }
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - offsetMs;
  }
}

/** The start of the interval after the one that starts at `start` (a month later on the zone's wall clock). */
export function nextStart(start: number, interval: Interval, offsetMs = 0): number {
  if (interval === 'month') {
    const d = new Date(start + offsetMs);
    d.setUTCMonth(d.getUTCMonth() + 1);
    return d.getTime() - offsetMs;
  }
  return start + (interval === 'hour' ? HOUR : interval === 'day' ? DAY : 7 * DAY);
}

export function aggregate(func: Aggregation, values: number[]): number | null {
  if (func === 'count') return values.length;
  if (func === 'sum') return values.reduce((a, b) => a + b, 0);
  if (values.length === 0) return null;
  if (func === 'avg') return values.reduce((a, b) => a + b, 0) / values.length;
  return func === 'min' ? Math.min(...values) : Math.max(...values);
}

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

export interface StatsCase {
  interval: Interval;
  aggregation: Aggregation;
  /** The aggregated property (a number on every generated event). */
  property: string;
  start: number;
  end: number;
  meter: { id: string; filter: FilterClause };
  /** The case's events; nothing else of the run lies within an interval of the range (events.ts keeps them apart). */
  events: ModelEvent[];
}

/** What a case saw of each requirement: a passed requirement needs its condition seen at least once. */
export type Saw = (id: string) => void;

/** A reading of an open point a target was seen to take, for the report. */
export interface SeenReading {
  point: string;
  reading: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The offset from UTC an ISO 8601 text is written with, in ms (Z: 0). */
export function writtenOffsetMs(text: string): number {
  const m = /([+-])(\d{2}):?(\d{2})$/.exec(text);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
}

/** Where a target's intervals start: each instant's interval start, and the start after one. */
interface Grid {
  startOf(ms: number): number | undefined;
  next(start: number): number;
  /** "day intervals in UTC+01:00", for messages. */
  name: string;
  readings: SeenReading[];
}

const zoneName = (offsetMs: number) => (offsetMs === 0 ? 'UTC' : `UTC${offsetMs < 0 ? '-' : '+'}${new Date(Math.abs(offsetMs)).toISOString().slice(11, 16)}`);

/** Calendar intervals (whole hours, days, weeks, months) of a zone. */
function calendarGrid(interval: Interval, weekStart: number, offsetMs: number): Grid {
  const zone: SeenReading = { point: 'D-NS-STATS-TIME-ZONE', reading: offsetMs === 0 ? 'utc' : 'fixed-offset' };
  return {
    startOf: (ms) => intervalStart(ms, interval, weekStart, offsetMs),
    next: (start) => nextStart(start, interval, offsetMs),
    name: `${interval} intervals${interval === 'week' ? ` starting on ${WEEKDAYS[weekStart]}` : ''} in ${zoneName(offsetMs)}`,
    readings: [
      zone,
      { point: 'D-NS-INTERVAL-ALIGNMENT', reading: 'calendar' },
      ...(interval === 'week' && weekStart <= 1 ? [{ point: 'D-NS-WEEK-START', reading: weekStart === 0 ? 'sunday' : 'monday' }] : []),
    ],
  };
}

/** Intervals that start at start_timestamp itself and follow one another (months on the zone's wall clock). */
function fromStartGrid(origin: number, interval: Interval, offsetMs: number): Grid {
  return {
    startOf: (ms) => {
      if (ms < origin) return undefined;
      let s = origin;
      for (let next = nextStart(s, interval, offsetMs); next <= ms; next = nextStart(s, interval, offsetMs)) s = next;
      return s;
    },
    next: (start) => nextStart(start, interval, offsetMs),
    name: `${interval} intervals from start_timestamp`,
    readings: [{ point: 'D-NS-INTERVAL-ALIGNMENT', reading: 'from-start' }],
  };
}

export interface RowsJudgement {
  finding?: Finding;
  /** The readings the rows showed (their zone, where their intervals start). */
  readings: SeenReading[];
}

/**
 * The rows against the model. "One row per interval between start and end" (every interval that holds events of
 * the meter has one; an empty one may have a row of 0 or null, or none), "timestamp ... start of the interval", and
 * the value of the aggregation. Where intervals start is the target's (D-NS-STATS-TIME-ZONE, D-NS-INTERVAL-ALIGNMENT,
 * D-NS-WEEK-START): calendar intervals of the zone the rows are written in (an ISO 8601 time states its offset), or
 * intervals that start at start_timestamp itself; the rows are held to one of them throughout. A value that is the
 * aggregate of all the case's events, the meter's filter ignored, blames D-STATS-METER rather than the aggregation.
 * `rows` is what the answer holds as its rows (answers.ts), undefined when it holds none.
 */
export function judgeRows(rows: unknown[] | undefined, c: StatsCase, saw: Saw): RowsJudgement {
  const judged = (finding?: Finding, readings: SeenReading[] = []): RowsJudgement => ({ ...(finding ? { finding } : {}), readings });
  if (!rows) return judged({ requirements: ['D-STATS-ROWS'], message: 'the answer holds no array of rows', expected: 'an array of rows' });
  for (const r of rows) {
    const row = r as { timestamp?: unknown; value?: unknown };
    const shapeOk = typeof r === 'object' && r !== null && typeof row.timestamp === 'string' && ISO.test(row.timestamp) && (typeof row.value === 'number' || row.value === null);
    if (!shapeOk) return judged({ requirements: ['D-STATS-ROWS'], message: `a row is not {timestamp: ISO 8601, value: number}: ${JSON.stringify(r)?.slice(0, 200)}`, expected: 'rows of timestamp (ISO 8601) and value (a number)' });
  }
  if (rows.length) saw('D-STATS-ROWS');
  const parsed = (rows as Array<{ timestamp: string; value: number | null }>).map((r) => ({ at: Date.parse(r.timestamp), value: r.value, text: r.timestamp })).sort((a, b) => a.at - b.at);
  const inMeter = c.events.filter((e) => holds(e, c.meter.filter));
  const offsetMs = parsed.length ? writtenOffsetMs(parsed[0]!.text) : 0;
  // The day weeks start on is the target's: read from its first row in its zone (any day is a reading of the document).
  const weekStart = c.interval === 'week' && parsed.length ? new Date(parsed[0]!.at + offsetMs).getUTCDay() : 1;
  const calendar = calendarGrid(c.interval, weekStart, offsetMs);
  const fromStart = fromStartGrid(c.start, c.interval, offsetMs);
  const onGrid = (g: Grid) => parsed.every((r) => g.startOf(r.at) === r.at);
  const grid = onGrid(calendar) || !onGrid(fromStart) ? calendar : fromStart;
  const first = grid.startOf(c.start)!;
  const last = grid.startOf(c.end)!;
  const intervals = `${grid.name} from ${iso(first)} to ${iso(last)}`;
  const seen = new Set<number>();
  for (const r of parsed) {
    const wrong =
      grid.startOf(r.at) !== r.at
        ? `${r.text} is not the start of one of the ${grid.name}`
        : r.at < first || r.at > last
          ? `${r.text} is outside the range (${intervals})`
          : seen.has(r.at)
            ? `${r.text} has two rows`
            : undefined;
    if (wrong) return judged({ requirements: ['D-STATS-INTERVALS'], message: wrong, expected: `one row per interval start: ${intervals}` });
    seen.add(r.at);
  }
  const busy = [...new Set(inMeter.map((e) => grid.startOf(e.at)!))].sort((a, b) => a - b);
  const missing = busy.filter((t) => !seen.has(t));
  if (missing.length) return judged({ requirements: ['D-STATS-INTERVALS'], message: `no row for ${missing.map(iso).join(', ')}, which hold${missing.length > 1 ? '' : 's'} events of the meter; rows: ${parsed.map((r) => r.text).join(', ') || 'none'}`, expected: `one row per interval start: ${intervals}` });
  if (busy.length) saw('D-STATS-INTERVALS');
  for (const r of parsed) {
    const within = (e: ModelEvent) => e.at >= r.at && e.at < grid.next(r.at);
    const values = (events: ModelEvent[]) => events.filter(within).map((e) => e.properties[c.property] as number);
    const mine = values(inMeter);
    const all = values(c.events);
    const want = aggregate(c.aggregation, mine);
    const unfiltered = aggregate(c.aggregation, all);
    const empty = mine.length === 0;
    const fits = empty ? r.value === null || r.value === 0 : r.value !== null && want !== null && near(r.value, want);
    if (fits) {
      if (!empty) saw(RULE_OF_AGGREGATION[c.aggregation]);
      if (all.length > mine.length) saw('D-STATS-METER');
      continue;
    }
    const meterIgnored = all.length > mine.length && r.value !== null && unfiltered !== null && near(r.value, unfiltered);
    return judged({
      requirements: [meterIgnored ? 'D-STATS-METER' : RULE_OF_AGGREGATION[c.aggregation]],
      message: `${c.aggregation} of ${c.property} for the ${c.interval} at ${r.text} is ${JSON.stringify(r.value)}${meterIgnored ? `, the ${c.aggregation} of all ${all.length} events there, the ${all.length - mine.length} outside meter ${c.meter.id} included` : ''}`,
      expected: empty ? `0 or null (no event of meter ${c.meter.id} in the interval), or no row` : `${want} (over the ${mine.length} events of meter ${c.meter.id} in the interval: ${mine.join(', ')})`,
    });
  }
  // Only what the rows could tell: a zone needs a row, and where intervals start shows only where the two differ.
  if (!parsed.length) return judged();
  return judged(undefined, onGrid(calendar) && onGrid(fromStart) ? calendar.readings.filter((r) => r.point === 'D-NS-STATS-TIME-ZONE') : grid.readings);
}

export const iso = (ms: number) => new Date(ms).toISOString();
