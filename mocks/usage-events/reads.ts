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
//
// Each of these is an open point of specs/usage-events.yaml, and the reference takes its other readings when started
// with them (`reading('D-NS-...')`; the readings' texts are in the spec): D-NS-LIST-PAGING, D-NS-PAGE-SIZE,
// D-NS-LIST-ORDER, D-NS-BOUNDS, D-NS-REVERSED-RANGE, D-NS-REPEATED-FILTERS, D-NS-UNKNOWN-METER,
// D-NS-UNKNOWN-PARAMETERS, D-NS-ORGANIZATION, D-NS-ORGANIZATION-SCOPE, D-NS-EVENT-FIELDS, D-NS-EVENT-ID-FORMAT,
// D-NS-ABSENT-MEMBERS, D-NS-EVENT-ENVELOPE, D-NS-TIMESTAMP-ECHO, D-NS-UNKNOWN-ID, the filter points (filters.ts) and
// the statistics points (D-NS-REQUIRED-PARAMETERS, D-NS-STATS-SHAPE, D-NS-EMPTY-INTERVALS, D-NS-WEEK-START,
// D-NS-INTERVAL-ALIGNMENT, D-NS-STATS-TIME-ZONE, D-NS-STATS-CUT, D-NS-STATS-ROW-LIMIT, D-NS-AGGREGATED-VALUES,
// D-NS-STATS-CHECK-ORDER).
import type { UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';
import type { UsageEventsFault } from './faults.js';
import { matches, parseFilter, DEFAULT_FILTER_RULES, OPERATORS, type Filter, type FilterRules, type MatchRules } from './filters.js';
import {
  INTERVALS,
  ONE_HOUR,
  compareInstants,
  formatInstantAs,
  intervalStart,
  nextIntervalStart,
  parseInstant,
  utcDay,
  type Calendar,
  type InstantStyle,
  type Interval,
} from './instants.js';
import type { UsageReadings } from './readings.js';
import { notFound, invalid, ok, refusal, type Problem, type Reply } from './replies.js';
import type { EventStore, StoredEvent } from './store.js';

type Meter = UsageEventsSettings['meters'][number];
type Aggregation = Meter['aggregation']['func'];
const AGGREGATIONS: readonly Aggregation[] = ['count', 'sum', 'avg', 'min', 'max'];

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;
/** D-NS-PAGE-SIZE clamped-at-50 and refused-above-50: the smaller page of such a deployment. */
const SMALL_MAX_LIMIT = 50;
/** More rows than this in one statistics answer is refused (an hourly series of more than a year). */
const MAX_ROWS = 10_000;
/** D-NS-STATS-ROW-LIMIT rows-up-to-500. */
const SMALL_MAX_ROWS = 500;
/** D-NS-STATS-TIME-ZONE fixed-offset: the organization's zone, UTC+01:00 all year. */
const ZONE_OFFSET_MINUTES = 60;

/** The shape of each D-NS-EVENT-ID-FORMAT reading's ids (D-NS-UNKNOWN-ID: an id of another shape is malformed). */
const ID_SHAPES = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  prefixed: /^evt_[0-9a-f]{24}$/,
  integer: /^[1-9][0-9]{0,15}$/,
} as const;

/** A meter parameter: not given, a meter of the profile, or an id no meter has. */
type MeterParam = { kind: 'none' } | { kind: 'meter'; meter: Meter } | { kind: 'unknown'; id: string };

export class Reads {
  private readonly filterRules: FilterRules;
  private readonly matchRules: MatchRules;
  /** The status of a request that does not validate (D-NS-VALIDATION-STATUS). */
  private readonly invalidStatus: number;
  private readonly stampStyle: InstantStyle;

  constructor(
    private readonly settings: UsageEventsSettings,
    private readonly store: EventStore,
    private readonly on: (name: UsageEventsFault) => boolean,
    private readonly reading: UsageReadings,
  ) {
    this.filterRules = {
      nested: reading('D-NS-METERS') !== 'flat-filters',
      operators: reading('D-NS-FILTER-OPERATORS') === 'comparisons-only' ? OPERATORS.filter((o) => o !== 'like' && o !== 'not_like') : DEFAULT_FILTER_RULES.operators,
      emptyRefused: reading('D-NS-EMPTY-CLAUSES') === 'refused',
    };
    this.matchRules = {
      like: reading('D-NS-LIKE-SEMANTICS'),
      negationsMatchMissing: reading('D-NS-MISSING-PROPERTY') === 'negations-match',
      coerced: reading('D-NS-CLAUSE-TYPES') === 'coerced',
      emptyMatchesAll: reading('D-NS-EMPTY-CLAUSES') === 'matches-all',
    };
    this.invalidStatus = reading('D-NS-VALIDATION-STATUS') === 'bad-request-400' ? 400 : 422;
    this.stampStyle = reading('D-NS-TIMESTAMP-ECHO');
  }

  private invalid(problems: Problem[]): Reply {
    return invalid(problems, this.invalidStatus);
  }

  /** An instant as this deployment writes it back (D-NS-TIMESTAMP-ECHO). */
  private stamp(micros: bigint, offsetMinutes = 0): string {
    return formatInstantAs(micros, this.stampStyle, offsetMinutes);
  }

  /** A stored event as the interface shows it. */
  present(e: StoredEvent): Record<string, unknown> {
    const reading = this.reading;
    const shown: Record<string, unknown> = {
      [this.settings.eventId]: reading('D-NS-EVENT-ID-FORMAT') === 'integer' ? Number(e.id) : e.id,
      name: this.on('name-lowercased') ? e.name.toLowerCase() : e.name,
      customer_id: e.customer_id,
      external_customer_id: e.external_customer_id,
      timestamp: this.stamp(e.timestamp),
      properties: e.properties,
      source: e.source,
      organization_id: e.organization_id,
    };
    if (reading('D-NS-EVENT-FIELDS') === 'more-members') {
      shown.idempotency_key = e.idempotency_key;
      shown.ingested_at = this.stamp(e.ingestedAt);
      shown.customer = null;
      shown.meter_ids = this.settings.meters.filter((m) => matches(e, m.filter as Filter, undefined, this.matchRules)).map((m) => m.id);
    }
    if (reading('D-NS-ABSENT-MEMBERS') === 'omitted') for (const [k, v] of Object.entries(shown)) if (v === null) delete shown[k];
    return shown;
  }

  one(id: string, query: URLSearchParams): Reply {
    const problems: Problem[] = [];
    this.unknownParameters(query, ['organization_id'], problems);
    const organization = this.organizationScope(query, problems);
    if (problems.length) return this.invalid(problems);
    if (organization) return organization;
    const event = this.store.get(id);
    if (event) {
      // The faults: the serializer of one event fails on what the list's serializer handles; a scope the token lacks.
      if (this.on('event-by-id-500')) throw new Error(`cannot serialize event ${id}`);
      if (this.on('event-by-id-forbidden')) return refusal(403, 'NotPermitted', 'Reading single events needs the events:read scope.');
      const shown = this.present(event);
      return ok(this.reading('D-NS-EVENT-ENVELOPE') === 'data-envelope' ? { data: shown } : shown);
    }
    if (this.on('unknown-id-200')) return ok({});
    const unknownId = this.reading('D-NS-UNKNOWN-ID');
    if (unknownId !== 'not-found-404' && !ID_SHAPES[this.reading('D-NS-EVENT-ID-FORMAT')].test(id)) {
      return invalid([{ loc: ['path', 'id'], msg: 'Input is not a valid event id', type: 'value_error' }], unknownId === 'malformed-400' ? 400 : 422);
    }
    return notFound('Event not found.');
  }

  list(query: URLSearchParams): Reply {
    const on = this.on;
    const reading = this.reading;
    const problems: Problem[] = [];
    const { paging: names, query: queryNames } = this.settings;
    this.unknownParameters(
      query,
      ['customer_id', 'external_customer_id', 'start_timestamp', 'end_timestamp', queryNames.filter, queryNames.meter, names.page, names.limit, 'cursor', 'offset', 'organization_id'],
      problems,
    );
    const organization = this.organizationScope(query, problems);
    const customerIds = this.repeated(query, 'customer_id');
    const externalIds = this.repeated(query, 'external_customer_id');
    const start = this.instantParam(query, 'start_timestamp', problems);
    const end = this.instantParam(query, 'end_timestamp', problems);
    if (reading('D-NS-REVERSED-RANGE') === 'refused' && start !== undefined && end !== undefined && start > end) {
      problems.push({ loc: ['query', 'end_timestamp'], msg: 'end_timestamp must not be before start_timestamp', type: 'value_error' });
    }
    const filter = this.filterParam(query, problems);
    const meter = this.meterParam(query, problems, false);
    const paging = this.paging(query, problems);
    if (problems.length) return this.invalid(problems);
    if (organization) return organization;
    if (meter.kind === 'unknown' && reading('D-NS-UNKNOWN-METER') === 'not-found-404') return notFound('Meter not found.');

    // Each filter given is one test; the time window is one test of its two bounds.
    const tests: Array<(e: StoredEvent) => boolean> = [];
    if (customerIds.length && !on('customer-filter-ignored')) tests.push((e) => e.customer_id !== null && customerIds.includes(e.customer_id));
    if (externalIds.length && !on('external-filter-ignored')) tests.push((e) => e.external_customer_id !== null && externalIds.includes(e.external_customer_id));
    if (start !== undefined || end !== undefined) {
      tests.push((e) => {
        if (start !== undefined && !this.afterStart(e.timestamp, start)) return false;
        if (end === undefined) return true;
        // The fault compares calendar days, so the rest of the end's day passes.
        return on('end-inclusive-after') ? utcDay(e.timestamp) <= utcDay(end) : this.beforeEnd(e.timestamp, end);
      });
    }
    if (filter) tests.push((e) => matches(e, filter, on('conjunction-ignored') ? 'and' : undefined, this.matchRules));
    if (meter.kind === 'meter' && !on('meter-filter-ignored')) tests.push((e) => matches(e, meter.meter.filter as Filter, undefined, this.matchRules));
    if (meter.kind === 'unknown') tests.push(() => false);

    const join = on('filters-or') ? 'some' : 'every';
    const order = this.order();
    const found = this.store
      .visible()
      .filter((e) => tests.length === 0 || tests[join]((t) => t(e)))
      .sort(order);
    return this.page(found, paging, order);
  }

  statistics(query: URLSearchParams): Reply {
    const on = this.on;
    const reading = this.reading;
    const problems: Problem[] = [];
    const propertyName = this.settings.query.aggregatedProperty;
    const organizationId = query.get('organization_id');
    if (reading('D-NS-STATS-CHECK-ORDER') === 'organization-first' && organizationId !== null && organizationId !== '') {
      const refused = this.organizationRefusal(organizationId);
      if (refused) return refused;
    }
    this.unknownParameters(query, ['organization_id', 'start_timestamp', 'end_timestamp', 'interval', 'aggregation', this.settings.query.meter, propertyName], problems);
    if (organizationId === null || organizationId === '') problems.push({ loc: ['query', 'organization_id'], msg: 'Field required', type: 'missing' });
    const start = this.instantParam(query, 'start_timestamp', problems, true);
    const end = this.instantParam(query, 'end_timestamp', problems, true);
    const interval = query.get('interval');
    if (interval === null) problems.push({ loc: ['query', 'interval'], msg: 'Field required', type: 'missing' });
    else if (!INTERVALS.includes(interval as Interval)) problems.push({ loc: ['query', 'interval'], msg: `Input should be ${INTERVALS.join(', ')}`, type: 'enum' });
    const required = reading('D-NS-REQUIRED-PARAMETERS');
    const meter = this.meterParam(query, problems, required !== 'meter-optional');
    const aggregationParam = query.get('aggregation');
    if (aggregationParam !== null && !AGGREGATIONS.includes(aggregationParam as Aggregation)) {
      problems.push({ loc: ['query', 'aggregation'], msg: `Input should be ${AGGREGATIONS.join(', ')}`, type: 'enum' });
    }
    if (aggregationParam === null && required === 'aggregation-and-property-required') problems.push({ loc: ['query', 'aggregation'], msg: 'Field required', type: 'missing' });
    const reversed = start !== undefined && end !== undefined && start > end;
    if (reversed && reading('D-NS-REVERSED-RANGE') !== 'stats-empty') problems.push({ loc: ['query', 'end_timestamp'], msg: 'end_timestamp must not be before start_timestamp', type: 'value_error' });
    if (problems.length || (meter.kind === 'none' && required !== 'meter-optional') || start === undefined || end === undefined) return this.invalid(problems);
    if (meter.kind === 'unknown' && reading('D-NS-UNKNOWN-METER') === 'not-found-404') return notFound('Meter not found.');

    const ofMeter = meter.kind === 'meter' ? meter.meter : undefined;
    const func = (aggregationParam ?? ofMeter?.aggregation.func ?? 'count') as Aggregation;
    const property = query.get(propertyName) ?? (required === 'aggregation-and-property-required' ? undefined : ofMeter?.aggregation.property);
    if (func !== 'count' && !property) {
      return this.invalid([{ loc: ['query', propertyName], msg: `aggregation ${func} needs a property (the meter has none)`, type: 'missing' }]);
    }
    const refused = this.organizationRefusal(organizationId!);
    if (refused) return refused;
    if (reversed) return ok(this.statisticsAnswer([], meter, interval!, func));

    const unit = interval as Interval;
    const calendar: Calendar = {
      weekStartsOn: reading('D-NS-WEEK-START'),
      offsetMinutes: reading('D-NS-STATS-TIME-ZONE') === 'fixed-offset' ? ZONE_OFFSET_MINUTES : 0,
    };
    const fromStart = reading('D-NS-INTERVAL-ALIGNMENT') === 'from-start';
    const first = fromStart ? start : intervalStart(start, unit, calendar);
    const last = fromStart ? end : intervalStart(end, unit, calendar);
    const maxRows = reading('D-NS-STATS-ROW-LIMIT') === 'rows-up-to-500' ? SMALL_MAX_ROWS : MAX_ROWS;
    const starts: bigint[] = [];
    for (let s = first; !fromStart && on('last-interval-dropped') ? s < last : s <= last; s = nextIntervalStart(s, unit, calendar)) {
      starts.push(s);
      if (starts.length > maxRows) return this.invalid([{ loc: ['query', 'interval'], msg: `more than ${maxRows} intervals between the bounds`, type: 'value_error' }]);
    }
    // The fault stops before the last interval; from start_timestamp, the last is the one that starts at or before the end.
    if (fromStart && on('last-interval-dropped')) starts.pop();

    const cut = reading('D-NS-STATS-CUT') === 'cut-at-bounds';
    const meterEvents = this.store
      .visible(Date.now(), 'statistics')
      .filter((e) => on('stats-ignore-meter-filter') || (meter.kind === 'meter' ? matches(e, meter.meter.filter as Filter, undefined, this.matchRules) : meter.kind === 'none'))
      .filter((e) => !cut || (this.afterStart(e.timestamp, start) && this.beforeEnd(e.timestamp, end)));
    const buckets = new Map<bigint, StoredEvent[]>(starts.map((s) => [s, []]));
    for (const e of meterEvents) {
      const bucket = fromStart ? bucketFromStart(starts, e.timestamp, unit, calendar) : intervalStart(e.timestamp, unit, calendar);
      if (bucket !== undefined) buckets.get(bucket)?.push(e);
    }

    const emptyIntervals = reading('D-NS-EMPTY-INTERVALS');
    const numericStrings = reading('D-NS-AGGREGATED-VALUES') === 'numeric-strings';
    const extras = reading('D-NS-STATS-SHAPE') === 'rows-with-extras';
    const rows: Array<Record<string, unknown>> = [];
    for (const s of starts) {
      const events = buckets.get(s)!.sort((a, b) => compareInstants(a.timestamp, b.timestamp));
      if (events.length === 0 && emptyIntervals === 'omitted') continue;
      let value = aggregate(func, events, property ?? '', unit, s, on, numericStrings);
      if (value === null && emptyIntervals === 'all-zero') value = 0;
      // The fault prints the start as a UTC+1 server's wall clock, still marked Z.
      const label = this.stamp(on('buckets-local-time') ? s + ONE_HOUR : s, calendar.offsetMinutes);
      const row: Record<string, unknown> = { timestamp: label, value: on('stats-value-string') && value !== null ? String(value) : value };
      if (extras) Object.assign(row, { end_timestamp: this.stamp(nextIntervalStart(s, unit, calendar), calendar.offsetMinutes), event_count: events.length });
      rows.push(row);
    }
    return ok(this.statisticsAnswer(rows, meter, unit, func));
  }

  /** The statistics answer around its rows (D-NS-STATS-SHAPE). */
  private statisticsAnswer(rows: Array<Record<string, unknown>>, meter: MeterParam, interval: string, func: Aggregation): unknown {
    if (this.reading('D-NS-STATS-SHAPE') !== 'periods-envelope') return rows;
    return { meter_id: meter.kind === 'none' ? null : meter.kind === 'meter' ? meter.meter.id : meter.id, interval, aggregation: func, periods: rows };
  }

  /** Is the instant inside the start bound (D-NS-BOUNDS)? */
  private afterStart(t: bigint, start: bigint): boolean {
    return this.reading('D-NS-BOUNDS') === 'exclusive' ? t > start : t >= start;
  }

  /** Is the instant inside the end bound (D-NS-BOUNDS)? */
  private beforeEnd(t: bigint, end: bigint): boolean {
    return this.reading('D-NS-BOUNDS') === 'inclusive' ? t <= end : t < end;
  }

  /** The list's order (D-NS-LIST-ORDER): a total order, ids breaking ties. */
  private order(): (a: StoredEvent, b: StoredEvent) => number {
    const ascending = (a: StoredEvent, b: StoredEvent) => compareInstants(a.timestamp, b.timestamp) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    switch (this.reading('D-NS-LIST-ORDER')) {
      case 'timestamp-descending':
        return (a, b) => ascending(b, a);
      case 'ingested-descending':
        return (a, b) => b.seq - a.seq;
      default:
        return ascending;
    }
  }

  /** The page of the list the paging parameters ask for, in the answer's shape (D-NS-LIST-PAGING). */
  private page(found: StoredEvent[], paging: Paging, order: (a: StoredEvent, b: StoredEvent) => number): Reply {
    const present = (events: StoredEvent[]) => events.map((e) => this.present(e));
    switch (this.reading('D-NS-LIST-PAGING')) {
      case 'bare-array':
        return ok(present(found));
      case 'offset-limit':
        return ok({ items: present(found.slice(paging.offset, paging.offset + paging.limit)), total: found.length });
      case 'cursor': {
        const after = paging.after;
        const rest = after ? found.filter((e) => order(e, after) > 0) : found;
        const items = rest.slice(0, paging.limit);
        const next = rest.length > paging.limit ? Buffer.from(items.at(-1)!.id).toString('base64url') : null;
        return ok({ data: present(items), next_cursor: next });
      }
      default: {
        const { page, limit } = paging;
        const items = present(found.slice((page - 1) * limit, page * limit));
        return ok(this.envelope(items, { total_count: found.length, max_page: Math.ceil(found.length / limit) }));
      }
    }
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

  /** The values of a filter that may be repeated (D-NS-REPEATED-FILTERS): all of them, the last or the first. */
  private repeated(query: URLSearchParams, name: string): string[] {
    const all = query.getAll(name);
    switch (this.reading('D-NS-REPEATED-FILTERS')) {
      case 'last-value':
        return all.slice(-1);
      case 'first-value':
        return all.slice(0, 1);
      default:
        return all;
    }
  }

  /** D-NS-UNKNOWN-PARAMETERS refused: a query parameter the operation does not know is a problem. */
  private unknownParameters(query: URLSearchParams, known: readonly string[], problems: Problem[]): void {
    if (this.reading('D-NS-UNKNOWN-PARAMETERS') !== 'refused') return;
    for (const name of new Set(query.keys())) if (!known.includes(name)) problems.push({ loc: ['query', name], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' });
  }

  /**
   * D-NS-ORGANIZATION-SCOPE query-on-reads: the list and the event's read need organization_id (a problem when it is
   * missing), and refuse another organization as the statistics do.
   */
  private organizationScope(query: URLSearchParams, problems: Problem[]): Reply | undefined {
    if (this.reading('D-NS-ORGANIZATION-SCOPE') !== 'query-on-reads') return undefined;
    const id = query.get('organization_id');
    if (id === null || id === '') {
      problems.push({ loc: ['query', 'organization_id'], msg: 'Field required', type: 'missing' });
      return undefined;
    }
    return this.organizationRefusal(id);
  }

  /** The answer to an organization other than the deployment's (D-NS-ORGANIZATION), or undefined to go on. */
  organizationRefusal(id: string): Reply | undefined {
    if (id === this.store.organizationId) return undefined;
    switch (this.reading('D-NS-ORGANIZATION')) {
      case 'ignored':
        return undefined;
      case 'forbidden-403':
        return refusal(403, 'NotPermitted', 'You do not have access to this organization.');
      default:
        return notFound('Organization not found.');
    }
  }

  private filterParam(query: URLSearchParams, problems: Problem[]): Filter | undefined {
    const name = this.settings.query.filter;
    const text = query.get(name);
    if (text === null) return undefined;
    const parsed = parseFilter(text, 0, this.filterRules);
    if (typeof parsed === 'string') {
      problems.push({ loc: ['query', name], msg: `the filter ${parsed}`, type: 'value_error' });
      return undefined;
    }
    return parsed;
  }

  /** The meter asked for; an unknown one is a problem unless D-NS-UNKNOWN-METER says otherwise. */
  private meterParam(query: URLSearchParams, problems: Problem[], required: boolean): MeterParam {
    const name = this.settings.query.meter;
    const id = query.get(name);
    if (id === null) {
      if (required) problems.push({ loc: ['query', name], msg: 'Field required', type: 'missing' });
      return { kind: 'none' };
    }
    const meter = this.settings.meters.find((m) => m.id === id);
    if (meter) return { kind: 'meter', meter };
    if (this.reading('D-NS-UNKNOWN-METER') === 'unprocessable-422') problems.push({ loc: ['query', name], msg: `no meter ${JSON.stringify(id)}`, type: 'value_error' });
    return { kind: 'unknown', id };
  }

  private paging(query: URLSearchParams, problems: Problem[]): Paging {
    const integer = (name: string, fallback: number, min: number, max: number): number => {
      const text = query.get(name);
      if (text === null) return fallback;
      const n = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
      if (!(n >= min && n <= max)) {
        problems.push({ loc: ['query', name], msg: `Input should be an integer from ${min}${max < Infinity ? ` to ${max}` : ''}`, type: 'value_error' });
        return fallback;
      }
      return n;
    };
    const size = this.reading('D-NS-PAGE-SIZE');
    const maxLimit = size === 'up-to-100' ? MAX_LIMIT : size === 'refused-above-50' ? SMALL_MAX_LIMIT : Infinity;
    const limit = Math.min(integer(this.settings.paging.limit, DEFAULT_LIMIT, 1, maxLimit), size === 'clamped-at-50' ? SMALL_MAX_LIMIT : Infinity);
    const style = this.reading('D-NS-LIST-PAGING');
    const page = style === 'page-limit' ? integer(this.settings.paging.page, 1, 1, Number.MAX_SAFE_INTEGER) : 1;
    const offset = style === 'offset-limit' ? integer('offset', 0, 0, Number.MAX_SAFE_INTEGER) : 0;
    let after: StoredEvent | undefined;
    const cursor = style === 'cursor' ? query.get('cursor') : null;
    if (cursor !== null && cursor !== '') {
      after = this.store.anyById(Buffer.from(cursor, 'base64url').toString('utf8'));
      if (!after) problems.push({ loc: ['query', 'cursor'], msg: 'Invalid cursor', type: 'value_error' });
    }
    return { page, limit, offset, after };
  }

  private instantParam(query: URLSearchParams, name: string, problems: Problem[], required = false): bigint | undefined {
    let text = query.get(name);
    if (text === null || text === '') {
      if (required) problems.push({ loc: ['query', name], msg: 'Field required', type: 'missing' });
      return undefined;
    }
    // A "+hh:mm" offset sent unencoded arrives as " hh:mm" (a form-encoded plus is a space).
    text = text.replace(/^(.*[Tt ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?) (\d{2}(?::?\d{2})?)$/, '$1+$2');
    const instant = parseInstant(text, this.reading('D-NS-TIMESTAMP-FORMS') === 'offset-required');
    if (instant === undefined) problems.push({ loc: ['query', name], msg: 'Input should be an ISO 8601 date-time', type: 'datetime_parsing' });
    return instant;
  }
}

interface Paging {
  page: number;
  limit: number;
  offset: number;
  /** The event the cursor names: the page starts after it. */
  after?: StoredEvent;
}

/** D-NS-INTERVAL-ALIGNMENT from-start: the start of the interval (of those starting at start_timestamp) that holds t. */
function bucketFromStart(starts: readonly bigint[], t: bigint, unit: Interval, calendar: Calendar): bigint | undefined {
  let lo = 0;
  let hi = starts.length - 1;
  if (hi < 0 || t < starts[0]!) return undefined;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  const s = starts[lo]!;
  return t < nextIntervalStart(s, unit, calendar) ? s : undefined;
}

function aggregate(
  func: Aggregation,
  events: StoredEvent[],
  property: string,
  unit: Interval,
  start: bigint,
  on: (name: UsageEventsFault) => boolean,
  numericStrings: boolean,
): number | null {
  if (func === 'count') {
    if (events.length === 0) return 0;
    // The fault: the interval's slice of the sorted events is counted from its first and last index, without the + 1.
    return on('count-off-by-one') ? events.length - 1 : events.length;
  }
  const values = numbersOf(events, property, numericStrings);
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

/** D-NS-AGGREGATED-VALUES numeric-strings: a string holding a decimal number counts as that number. */
const NUMERIC_STRING = /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

const numbersOf = (events: StoredEvent[], property: string, numericStrings = false): number[] =>
  events
    .map((e) => e.properties[property])
    .map((v) => (numericStrings && typeof v === 'string' && NUMERIC_STRING.test(v) ? Number(v) : v))
    .filter((v): v is number => typeof v === 'number');

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
