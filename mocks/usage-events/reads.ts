// The reads: GET /v1/events (filters, paging), GET /v1/events/{id} and GET /v1/events/statistics. Where the document
// says "not shown" (parameter names, paging, the answer's envelope, bound inclusivity, empty intervals) the reference
// takes the real billing product's choice, or the profile's setting where the harness makes it one:
// - start_timestamp and end_timestamp are exclusive bounds: events strictly after the start and strictly before the end;
// - every filter given must hold (AND); customer_id and external_customer_id may be repeated (any of the values);
// - the list is sorted by timestamp ascending, then id; pages are 1-based, `limit` defaults to 10 and is at most 100;
//   the answer is { items, pagination: { total_count, max_page } } (max_page 0 for an empty list);
// - statistics give one row per UTC interval start, from the interval that holds start_timestamp to the one that holds
//   end_timestamp, both included (weeks start on Monday); each row aggregates every event of its whole interval (not
//   cut at the bounds) that the meter's filter matches; an interval without events is 0 for count and sum and null
//   for avg, min and max (they have no value there); sum, avg, min and max read the property's number values only.
import type { UsageEventsSettings } from '../../suites/usage-events/settings.ts';
import type { UsageEventsFault } from './faults.js';
import { matches, parseFilter, type Filter } from './filters.js';
import { INTERVALS, ONE_HOUR, compareInstants, formatInstant, intervalStart, nextIntervalStart, parseInstant, utcDay, type Interval } from './instants.js';
import { notFound, invalid, ok, type Problem, type Reply } from './replies.js';
import type { EventStore, StoredEvent } from './store.js';

type Meter = UsageEventsSettings['meters'][number];
type Aggregation = Meter['aggregation']['func'];
const AGGREGATIONS: readonly Aggregation[] = ['count', 'sum', 'avg', 'min', 'max'];

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;
/** More rows than this in one statistics answer is refused (an hourly series of more than a year). */
const MAX_ROWS = 10_000;

export class Reads {
  constructor(
    private readonly settings: UsageEventsSettings,
    private readonly store: EventStore,
    private readonly on: (name: UsageEventsFault) => boolean,
  ) {}

  /** A stored event as the interface shows it. */
  present(e: StoredEvent): Record<string, unknown> {
    return {
      [this.settings.eventId]: e.id,
      name: this.on('name-lowercased') ? e.name.toLowerCase() : e.name,
      customer_id: e.customer_id,
      external_customer_id: e.external_customer_id,
      timestamp: formatInstant(e.timestamp),
      properties: e.properties,
      source: e.source,
      organization_id: e.organization_id,
    };
  }

  one(id: string): Reply {
    const event = this.store.get(id);
    if (event) return ok(this.present(event));
    return this.on('unknown-id-200') ? ok({}) : notFound('Event not found.');
  }

  list(query: URLSearchParams): Reply {
    const on = this.on;
    const problems: Problem[] = [];
    const customerIds = query.getAll('customer_id');
    const externalIds = query.getAll('external_customer_id');
    const start = instantParam(query, 'start_timestamp', problems);
    const end = instantParam(query, 'end_timestamp', problems);
    const filter = this.filterParam(query, problems);
    const meter = this.meterParam(query, problems, false);
    const { page, limit } = this.paging(query, problems);
    if (problems.length) return invalid(problems);

    // Each filter given is one test; the time window is one test of its two bounds.
    const tests: Array<(e: StoredEvent) => boolean> = [];
    if (customerIds.length && !on('customer-filter-ignored')) tests.push((e) => e.customer_id !== null && customerIds.includes(e.customer_id));
    if (externalIds.length && !on('external-filter-ignored')) tests.push((e) => e.external_customer_id !== null && externalIds.includes(e.external_customer_id));
    if (start !== undefined || end !== undefined) {
      tests.push((e) => {
        if (start !== undefined && !(e.timestamp > start)) return false;
        if (end === undefined) return true;
        // The fault compares calendar days, so the rest of the end's day passes.
        return on('end-inclusive-after') ? utcDay(e.timestamp) <= utcDay(end) : e.timestamp < end;
      });
    }
    if (filter) tests.push((e) => matches(e, filter, on('conjunction-ignored') ? 'and' : undefined));
    if (meter && !on('meter-filter-ignored')) tests.push((e) => matches(e, meter.filter as Filter));

    const join = on('filters-or') ? 'some' : 'every';
    const found = this.store
      .visible()
      .filter((e) => tests.length === 0 || tests[join]((t) => t(e)))
      .sort((a, b) => compareInstants(a.timestamp, b.timestamp) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const items = found.slice((page - 1) * limit, page * limit).map((e) => this.present(e));
    return ok(this.envelope(items, { total_count: found.length, max_page: Math.ceil(found.length / limit) }));
  }

  statistics(query: URLSearchParams): Reply {
    const on = this.on;
    const problems: Problem[] = [];
    const organizationId = query.get('organization_id');
    if (organizationId === null || organizationId === '') problems.push({ loc: ['query', 'organization_id'], msg: 'Field required', type: 'missing' });
    const start = instantParam(query, 'start_timestamp', problems, true);
    const end = instantParam(query, 'end_timestamp', problems, true);
    const interval = query.get('interval');
    if (interval === null) problems.push({ loc: ['query', 'interval'], msg: 'Field required', type: 'missing' });
    else if (!INTERVALS.includes(interval as Interval)) problems.push({ loc: ['query', 'interval'], msg: `Input should be ${INTERVALS.join(', ')}`, type: 'enum' });
    const meter = this.meterParam(query, problems, true);
    const aggregationParam = query.get('aggregation');
    if (aggregationParam !== null && !AGGREGATIONS.includes(aggregationParam as Aggregation)) {
      problems.push({ loc: ['query', 'aggregation'], msg: `Input should be ${AGGREGATIONS.join(', ')}`, type: 'enum' });
    }
    if (start !== undefined && end !== undefined && start > end) problems.push({ loc: ['query', 'end_timestamp'], msg: 'end_timestamp must not be before start_timestamp', type: 'value_error' });
    if (problems.length || !meter || start === undefined || end === undefined) return invalid(problems);

    const func = (aggregationParam ?? meter.aggregation.func) as Aggregation;
    const propertyName = this.settings.query.aggregatedProperty;
    const property = query.get(propertyName) ?? meter.aggregation.property;
    if (func !== 'count' && !property) {
      return invalid([{ loc: ['query', propertyName], msg: `aggregation ${func} needs a property (the meter has none)`, type: 'missing' }]);
    }
    if (organizationId !== this.store.organizationId) return notFound('Organization not found.');

    const unit = interval as Interval;
    const first = intervalStart(start, unit);
    const last = intervalStart(end, unit);
    const starts: bigint[] = [];
    for (let s = first; on('last-interval-dropped') ? s < last : s <= last; s = nextIntervalStart(s, unit)) {
      starts.push(s);
      if (starts.length > MAX_ROWS) return invalid([{ loc: ['query', 'interval'], msg: `more than ${MAX_ROWS} intervals between the bounds`, type: 'value_error' }]);
    }

    const meterEvents = this.store.visible().filter((e) => on('stats-ignore-meter-filter') || matches(e, meter.filter as Filter));
    const buckets = new Map<bigint, StoredEvent[]>(starts.map((s) => [s, []]));
    for (const e of meterEvents) buckets.get(intervalStart(e.timestamp, unit))?.push(e);

    return ok(
      starts.map((s) => {
        const events = buckets.get(s)!.sort((a, b) => compareInstants(a.timestamp, b.timestamp));
        const value = aggregate(func, events, property ?? '', unit, s, on);
        // The fault prints the start as a UTC+1 server's wall clock, still marked Z.
        const label = formatInstant(on('buckets-local-time') ? s + ONE_HOUR : s);
        return { timestamp: label, value: on('stats-value-string') && value !== null ? String(value) : value };
      }),
    );
  }

  /** The list's items where the profile says they are (a JSON pointer; "" for a bare array), with the pagination beside them. */
  private envelope(items: unknown[], pagination: { total_count: number; max_page: number }): unknown {
    const pointer = this.settings.paging.items;
    if (pointer === '' || pointer === '/') return items;
    const path = pointer.replace(/^\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const answer: Record<string, unknown> = {};
    let at = answer;
    for (const part of path.slice(0, -1)) at = at[part] = {} as Record<string, unknown>;
    at[path.at(-1)!] = items;
    if (!('pagination' in answer)) answer.pagination = pagination;
    return answer;
  }

  private filterParam(query: URLSearchParams, problems: Problem[]): Filter | undefined {
    const name = this.settings.query.filter;
    const text = query.get(name);
    if (text === null) return undefined;
    const parsed = parseFilter(text);
    if (typeof parsed === 'string') {
      problems.push({ loc: ['query', name], msg: `the filter ${parsed}`, type: 'value_error' });
      return undefined;
    }
    return parsed;
  }

  private meterParam(query: URLSearchParams, problems: Problem[], required: boolean): Meter | undefined {
    const name = this.settings.query.meter;
    const id = query.get(name);
    if (id === null) {
      if (required) problems.push({ loc: ['query', name], msg: 'Field required', type: 'missing' });
      return undefined;
    }
    const meter = this.settings.meters.find((m) => m.id === id);
    if (!meter) problems.push({ loc: ['query', name], msg: `no meter ${JSON.stringify(id)}`, type: 'value_error' });
    return meter;
  }

  private paging(query: URLSearchParams, problems: Problem[]): { page: number; limit: number } {
    const integer = (name: string, fallback: number, max: number): number => {
      const text = query.get(name);
      if (text === null) return fallback;
      const n = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
      if (!(n >= 1 && n <= max)) {
        problems.push({ loc: ['query', name], msg: `Input should be an integer from 1${max < Infinity ? ` to ${max}` : ''}`, type: 'value_error' });
        return fallback;
      }
      return n;
    };
    return { page: integer(this.settings.paging.page, 1, Number.MAX_SAFE_INTEGER), limit: integer(this.settings.paging.limit, DEFAULT_LIMIT, MAX_LIMIT) };
  }
}

function aggregate(func: Aggregation, events: StoredEvent[], property: string, unit: Interval, start: bigint, on: (name: UsageEventsFault) => boolean): number | null {
  if (func === 'count') {
    if (events.length === 0) return 0;
    // The fault: the interval's slice of the sorted events is counted from its first and last index, without the + 1.
    return on('count-off-by-one') ? events.length - 1 : events.length;
  }
  const values = numbersOf(events, property);
  switch (func) {
    case 'sum':
      return on('sum-as-count') ? values.length : values.reduce((a, b) => a + b, 0);
    case 'avg':
      if (on('avg-over-empty') && unit !== 'hour') return hourlyRollUpAverage(events, property, start, unit);
      return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
    case 'min':
      return values.length ? (on('min-max-swapped') ? Math.max(...values) : Math.min(...values)) : null;
    case 'max':
      return values.length ? (on('min-max-swapped') ? Math.min(...values) : Math.max(...values)) : null;
  }
}

const numbersOf = (events: StoredEvent[], property: string): number[] =>
  events.map((e) => e.properties[property]).filter((v): v is number => typeof v === 'number');

/** The 'avg-over-empty' fault: the mean of the interval's hourly means, an hour without values counting as 0. */
function hourlyRollUpAverage(events: StoredEvent[], property: string, start: bigint, unit: Interval): number {
  const end = nextIntervalStart(start, unit);
  const hours = Number((end - start) / ONE_HOUR);
  const byHour = new Map<bigint, number[]>();
  for (const e of events) {
    const v = e.properties[property];
    if (typeof v !== 'number') continue;
    const hour = intervalStart(e.timestamp, 'hour');
    byHour.set(hour, [...(byHour.get(hour) ?? []), v]);
  }
  let total = 0;
  for (const values of byHour.values()) total += values.reduce((a, b) => a + b, 0) / values.length;
  return total / hours;
}

function instantParam(query: URLSearchParams, name: string, problems: Problem[], required = false): bigint | undefined {
  let text = query.get(name);
  if (text === null || text === '') {
    if (required) problems.push({ loc: ['query', name], msg: 'Field required', type: 'missing' });
    return undefined;
  }
  // A "+hh:mm" offset sent unencoded arrives as " hh:mm" (a form-encoded plus is a space).
  text = text.replace(/^(.*[Tt ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?) (\d{2}(?::?\d{2})?)$/, '$1+$2');
  const instant = parseInstant(text);
  if (instant === undefined) problems.push({ loc: ['query', name], msg: 'Input should be an ISO 8601 date-time', type: 'datetime_parsing' });
  return instant;
}
