// The events of the reference's one organization, and their ingestion. Each event of a batch is validated on its own
// (the document: "an array of errors for failed events"); the valid ones are ingested even when others fail. An event
// whose idempotency key was ingested before, in an earlier batch or earlier in the same one, is skipped: not an error,
// and counted apart. A batch is checked and recorded in one synchronous step, so batches that arrive together cannot
// both ingest a key. Ingestion is asynchronous ("ingested events become queryable within a few seconds"): an event
// is visible to the reads `queryableAfterMs` after its batch was answered.
//
// Open points read here (specs/usage-events.yaml, x-not-shown; each reading's text is there): D-NS-NAME-CHARACTERS,
// D-NS-CUSTOMER-IDS, D-NS-REQUIRED-MEMBERS, D-NS-UNKNOWN-MEMBERS, D-NS-PROPERTY-TYPES, D-NS-TIMESTAMP-FORMS,
// D-NS-TIMESTAMP-RANGE, D-NS-TIMESTAMP-PRECISION, D-NS-IDEMPOTENCY-SCOPE, D-NS-DUPLICATES, D-NS-EVENT-ID-FORMAT,
// D-NS-FEW-SECONDS (staggered) and D-NS-READ-CONSISTENCY.
import { randomBytes, randomUUID } from 'node:crypto';
import type { UsageEventsFault } from './faults.js';
import { fromMs, parseInstant } from './instants.js';
import type { UsageReadings } from './readings.js';

/** A property value: string, number or boolean (the D-NS-PROPERTY-TYPES reading any-json stores any JSON value). */
export type PropertyValue = string | number | boolean | null | readonly unknown[] | { readonly [key: string]: unknown };
type PropertyType = 'string' | 'number' | 'boolean';

export interface StoredEvent {
  id: string;
  name: string;
  customer_id: string | null;
  external_customer_id: string | null;
  /** Microseconds since the epoch. */
  timestamp: bigint;
  properties: Record<string, PropertyValue>;
  source: 'user';
  organization_id: string;
  /** The idempotency key as sent (shown by the D-NS-EVENT-FIELDS reading more-members). */
  idempotency_key: string | null;
  /** When it was ingested (microseconds since the epoch). */
  ingestedAt: bigint;
  /** Its place in the order of ingestion. */
  seq: number;
  /** When the list and the event's own read may see it (ms since the epoch; Infinity: never). */
  visibleAt: number;
  /** When the statistics may count it (later than visibleAt under D-NS-READ-CONSISTENCY statistics-later). */
  statisticsVisibleAt: number;
}

/** One problem of a failed event: the member it is about ("" for the event as a whole) and what is wrong. */
export interface EventProblem {
  field: string;
  message: string;
}

export interface IngestOutcome {
  inserted: number;
  duplicates: number;
  /** The positions of the events skipped for their idempotency key. */
  duplicateIndexes: number[];
  /** `message` is every problem in one text; `problems` one by one. */
  errors: Array<{ index: number; message: string; problems: EventProblem[] }>;
}

/** The members of an event the document names (D-NS-UNKNOWN-MEMBERS refused: any other fails the event). */
const EVENT_MEMBERS = new Set(['name', 'customer_id', 'external_customer_id', 'timestamp', 'properties', 'idempotency_key']);

/** "name: alphanumeric characters, underscores and dots". */
const NAME = /^[A-Za-z0-9_.]+$/;
const NAME_WITH_HYPHEN = /^[A-Za-z0-9_.-]+$/;
/** D-NS-NAME-CHARACTERS unicode: letters and digits of any script. */
const UNICODE_NAME = /^[\p{L}\p{N}_.]+$/u;
const UNICODE_NAME_WITH_HYPHEN = /^[\p{L}\p{N}_.-]+$/u;
/** D-NS-TIMESTAMP-RANGE unix-epoch: what a 32-bit unsigned epoch-seconds column holds (1970 to 2106-02-07T06:28:15Z). */
const EPOCH_START = 0n;
const EPOCH_END = 4_294_967_296n * 1_000_000n;
/** D-NS-TIMESTAMP-RANGE past-only: how far ahead of the server's clock an event may be (clock skew). */
const FUTURE_SLACK_MS = 5 * 60_000;
/** D-NS-READ-CONSISTENCY statistics-later: how long the statistics' roll-up lags the list. */
export const STATISTICS_LAG_MS = 700;
/** How long the 'idempotency-race' fault's store round-trip takes: long enough for concurrent batches to overlap. */
const RACE_DELAY_MS = 75;

interface Candidate {
  event: Omit<StoredEvent, 'id' | 'visibleAt' | 'statisticsVisibleAt' | 'seq' | 'ingestedAt'>;
  key?: string;
}

/** The 'batch-tail-dropped' fault's write chunk. */
const TAIL_CHUNK = 64;

export class EventStore {
  /** Every ingested event, in the order of ingestion. */
  private readonly events: StoredEvent[] = [];
  private readonly byId = new Map<string, StoredEvent>();
  /** Idempotency keys ingested so far. */
  private readonly keys = new Set<string>();
  /** "Use one type consistently per property name": the type each name was first ingested with. */
  private readonly propertyTypes = new Map<string, PropertyType>();
  /** The last integer id given (D-NS-EVENT-ID-FORMAT integer). */
  private lastNumber = 0;

  constructor(
    readonly organizationId: string,
    private readonly queryableAfterMs: number,
    private readonly on: (name: UsageEventsFault) => boolean,
    private readonly reading: UsageReadings,
    /** The customers that exist (D-NS-CUSTOMER-IDS customer-must-exist). */
    private readonly knownCustomers: readonly string[] = [],
  ) {}

  /** The key an idempotency key is looked up by: the organization's (default), or the customer's (per-customer). */
  private scopedKey(key: string, event: Candidate['event']): string {
    return this.reading('D-NS-IDEMPOTENCY-SCOPE') === 'per-customer' ? JSON.stringify([event.customer_id, event.external_customer_id, key]) : key;
  }

  private newId(): string {
    switch (this.reading('D-NS-EVENT-ID-FORMAT')) {
      case 'prefixed':
        return `evt_${randomBytes(12).toString('hex')}`;
      case 'integer':
        return String(++this.lastNumber);
      default:
        return randomUUID();
    }
  }

  /** Ingests a batch (its size already checked). */
  async ingest(batch: readonly unknown[]): Promise<IngestOutcome> {
    const on = this.on;
    const now = Date.now();
    const accepted: Candidate[] = [];
    const errors: IngestOutcome['errors'] = [];
    const duplicateIndexes: number[] = [];
    let duplicates = 0;
    // What the events before this one in the batch establish, ahead of recording them.
    const batchKeys = new Set<string>();
    const batchTypes = new Map<string, PropertyType>();

    for (const [i, raw] of batch.entries()) {
      const checked = this.check(raw, now, (name) => batchTypes.get(name) ?? this.propertyTypes.get(name));
      if (Array.isArray(checked)) {
        errors.push({ index: on('error-index-off-by-one') ? i + 1 : i, message: checked.map((p) => p.message).join('; '), problems: checked });
        continue;
      }
      const key = checked.key === undefined ? undefined : this.scopedKey(checked.key, checked.event);
      if (key !== undefined && !on('idempotency-ignored')) {
        const seen = this.keys.has(key) || (!on('idempotency-within-batch') && batchKeys.has(key));
        if (seen) {
          duplicates++;
          duplicateIndexes.push(i);
          continue;
        }
      }
      if (key !== undefined) batchKeys.add(key);
      for (const [name, value] of Object.entries(checked.event.properties)) if (!batchTypes.has(name) && typeOf(value)) batchTypes.set(name, typeOf(value)!);
      accepted.push({ ...checked, key });
    }

    if (on('one-bad-fails-batch') && errors.length > 0) {
      const failed = new Map(errors.map((e) => [e.index, e]));
      const first = errors[0]!.index;
      return {
        inserted: 0,
        duplicates: 0,
        duplicateIndexes: [],
        errors: batch.map((_, index) => failed.get(index) ?? { index, message: `batch rejected: event ${first} is invalid`, problems: [{ field: '', message: `batch rejected: event ${first} is invalid` }] }),
      };
    }

    // The fault: the keys were looked up above; a round-trip to the store before they are recorded lets a batch that
    // arrives meanwhile look them up too.
    if (on('idempotency-race')) await new Promise((resolve) => setTimeout(resolve, RACE_DELAY_MS));

    const answeredAt = Date.now();
    const visibleAt = on('never-queryable') ? Infinity : answeredAt + this.queryableAfterMs;
    const ingestedAt = fromMs(answeredAt);
    // The fault: events are written in chunks, and the last chunk of a long batch is never flushed.
    const written = on('batch-tail-dropped') && accepted.length > TAIL_CHUNK ? accepted.slice(0, accepted.length - (accepted.length % TAIL_CHUNK || TAIL_CHUNK)) : accepted;
    for (const [i, { event, key }] of written.entries()) {
      if (key !== undefined) this.keys.add(key);
      for (const [name, value] of Object.entries(event.properties)) if (!this.propertyTypes.has(name) && typeOf(value)) this.propertyTypes.set(name, typeOf(value)!);
      // D-NS-FEW-SECONDS staggered: a pipeline of four partitions, each drained at its own pace (1x to 4x the delay).
      const eventVisibleAt = this.reading('D-NS-FEW-SECONDS') === 'staggered' && visibleAt !== Infinity ? answeredAt + this.queryableAfterMs * (1 + (i % 4)) : visibleAt;
      // D-NS-READ-CONSISTENCY statistics-later: the statistics read a roll-up that catches up a little later.
      const statisticsVisibleAt = this.reading('D-NS-READ-CONSISTENCY') === 'statistics-later' ? eventVisibleAt + STATISTICS_LAG_MS : eventVisibleAt;
      const stored: StoredEvent = { id: this.newId(), ...event, ingestedAt, seq: this.events.length, visibleAt: eventVisibleAt, statisticsVisibleAt };
      this.events.push(stored);
      this.byId.set(stored.id, stored);
    }
    return { inserted: accepted.length, duplicates, duplicateIndexes, errors };
  }

  /** The events the reads may see now; `statistics`: those the statistics may count. */
  visible(now = Date.now(), read: 'list' | 'statistics' = 'list'): StoredEvent[] {
    return this.events.filter((e) => (read === 'statistics' ? e.statisticsVisibleAt : e.visibleAt) <= now);
  }

  /** An event by id whether or not the reads may see it yet (a list cursor names it). */
  anyById(id: string): StoredEvent | undefined {
    return this.byId.get(id);
  }

  /** One event the reads may see, by id. */
  get(id: string, now = Date.now()): StoredEvent | undefined {
    const event = this.byId.get(id);
    return event && event.visibleAt <= now && event.organization_id === this.organizationId ? event : undefined;
  }

  /** One event checked: what it would store, or why it fails (every problem it has, one by one). */
  private check(raw: unknown, now: number, typeBefore: (name: string) => PropertyType | undefined): Candidate | EventProblem[] {
    const on = this.on;
    const reading = this.reading;
    if (!isRecord(raw)) return [{ field: '', message: 'an event must be a JSON object' }];
    const problems: EventProblem[] = [];
    const problem = (field: string, message: string) => problems.push({ field, message });

    const { name } = raw;
    const unicode = reading('D-NS-NAME-CHARACTERS') === 'unicode';
    const namePattern = on('hyphen-name-accepted') ? (unicode ? UNICODE_NAME_WITH_HYPHEN : NAME_WITH_HYPHEN) : unicode ? UNICODE_NAME : NAME;
    if (typeof name !== 'string' || !namePattern.test(name)) {
      problem('name', 'name must be a non-empty string of letters, digits, underscores and dots');
    }

    const customer = (member: 'customer_id' | 'external_customer_id'): string | null => {
      const value = raw[member];
      if (value === undefined || value === null) return null;
      if (typeof value !== 'string' || value === '') problem(member, `${member} must be a non-empty string`);
      return typeof value === 'string' ? value : null;
    };
    const customerId = customer('customer_id');
    const externalCustomerId = customer('external_customer_id');
    if (raw.customer_id == null && raw.external_customer_id == null && !on('customer-optional')) {
      problem('customer_id', 'customer_id or external_customer_id is required');
    }
    if (reading('D-NS-CUSTOMER-IDS') === 'both-refused' && raw.customer_id != null && raw.external_customer_id != null) {
      problem('customer_id', 'give customer_id or external_customer_id, not both');
    }
    if (reading('D-NS-CUSTOMER-IDS') === 'customer-must-exist' && customerId !== null && customerId !== '' && !this.knownCustomers.includes(customerId)) {
      problem('customer_id', `customer ${JSON.stringify(customerId)} does not exist`);
    }

    const requireAll = reading('D-NS-REQUIRED-MEMBERS') === 'all-required';
    // Absent: the time of ingestion (the real product's default). Present: an ISO 8601 date-time.
    let timestamp: bigint | undefined;
    if (raw.timestamp === undefined && requireAll) problem('timestamp', 'timestamp is required');
    else {
      timestamp = raw.timestamp === undefined ? fromMs(now) : parseInstant(raw.timestamp, reading('D-NS-TIMESTAMP-FORMS') === 'offset-required');
      if (timestamp === undefined) {
        if (on('timestamp-unchecked')) timestamp = fromMs(now);
        else problem('timestamp', 'timestamp must be an ISO 8601 date-time, such as 2025-01-31T12:00:00Z');
      }
    }
    if (timestamp !== undefined) {
      const range = reading('D-NS-TIMESTAMP-RANGE');
      if (range === 'unix-epoch' && (timestamp < EPOCH_START || timestamp >= EPOCH_END)) problem('timestamp', 'timestamp must be between 1970-01-01T00:00:00Z and 2106-02-07T06:28:15Z');
      if (range === 'past-only' && timestamp > fromMs(now + FUTURE_SLACK_MS)) problem('timestamp', 'timestamp must not be in the future');
      const precision = reading('D-NS-TIMESTAMP-PRECISION');
      const unit = precision === 'milliseconds' ? 1000n : precision === 'seconds' ? 1_000_000n : 1n;
      timestamp -= ((timestamp % unit) + unit) % unit;
    }

    const properties: Record<string, PropertyValue> = {};
    const types = reading('D-NS-PROPERTY-TYPES');
    if (raw.properties === undefined) {
      if (requireAll) problem('properties', 'properties is required');
    } else if (!isRecord(raw.properties)) {
      if (!on('properties-unchecked')) problem('properties', 'properties must be an object');
    } else {
      // Only the default reading keeps one type per name; the fault coerces to the first type under every reading.
      const tracked = types === 'scalars-one-type-per-name';
      for (const [key, value] of Object.entries(raw.properties)) {
        if (!(typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))) {
          if (types === 'any-json') properties[key] = value as PropertyValue;
          else problem(`properties.${key}`, `properties.${key} must be a string, a number or a boolean`);
          continue;
        }
        const before = tracked || on('mixed-types-coerced') || on('mixed-types-500') ? typeBefore(key) : undefined;
        // The fault: a typed column rejects the value in the database, and the error escapes as a 500.
        if (before !== undefined && before !== typeOf(value) && on('mixed-types-500')) throw new Error(`column ${key} is of type ${before}`);
        if (before === undefined || before === typeOf(value)) properties[key] = value;
        else if (before === 'string' && on('mixed-types-coerced')) properties[key] = String(value);
        else if (tracked) problem(`properties.${key}`, `properties.${key} is a ${typeOf(value)} but earlier events gave it ${before} values (one type per property name)`);
        else properties[key] = value;
      }
    }

    let key: string | undefined;
    if (raw.idempotency_key !== undefined && raw.idempotency_key !== null) {
      if (typeof raw.idempotency_key === 'string' && raw.idempotency_key !== '') key = raw.idempotency_key;
      else problem('idempotency_key', 'idempotency_key must be a non-empty string');
    }

    if (reading('D-NS-UNKNOWN-MEMBERS') === 'refused') {
      for (const member of Object.keys(raw)) if (!EVENT_MEMBERS.has(member)) problem(member, `${member} is not a member of a usage event`);
    }

    if (problems.length > 0) return problems;
    return {
      event: {
        name: name as string,
        customer_id: customerId,
        external_customer_id: externalCustomerId,
        timestamp: timestamp!,
        properties,
        source: 'user',
        organization_id: this.organizationId,
        idempotency_key: key ?? null,
      },
      key,
    };
  }
}

/** The type a property name keeps ("one type per property name"); none for values only any-json stores. */
const typeOf = (value: PropertyValue): PropertyType | undefined =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? (typeof value as PropertyType) : undefined;

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
