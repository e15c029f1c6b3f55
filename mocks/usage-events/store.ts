// The events of the reference's one organization, and their ingestion. Each event of a batch is validated on its own
// (the document: "an array of errors for failed events"); the valid ones are ingested even when others fail. An event
// whose idempotency key was ingested before, in an earlier batch or earlier in the same one, is skipped: not an error,
// and counted apart. A batch is checked and recorded in one synchronous step, so batches that arrive together cannot
// both ingest a key. Ingestion is asynchronous ("ingested events become queryable within a few seconds"): an event
// is visible to the reads `queryableAfterMs` after its batch was answered.
import { randomUUID } from 'node:crypto';
import type { UsageEventsFault } from './faults.js';
import { fromMs, parseInstant } from './instants.js';

export type PropertyValue = string | number | boolean;
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
  /** When the reads may see it (ms since the epoch; Infinity: never). */
  visibleAt: number;
}

export interface IngestOutcome {
  inserted: number;
  duplicates: number;
  errors: Array<{ index: number; message: string }>;
}

/** "name: alphanumeric characters, underscores and dots". */
const NAME = /^[A-Za-z0-9_.]+$/;
const NAME_WITH_HYPHEN = /^[A-Za-z0-9_.-]+$/;
/** How long the 'idempotency-race' fault's store round-trip takes: long enough for concurrent batches to overlap. */
const RACE_DELAY_MS = 75;

interface Candidate {
  event: Omit<StoredEvent, 'id' | 'visibleAt'>;
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

  constructor(
    readonly organizationId: string,
    private readonly queryableAfterMs: number,
    private readonly on: (name: UsageEventsFault) => boolean,
  ) {}

  /** Ingests a batch (its size already checked). */
  async ingest(batch: readonly unknown[]): Promise<IngestOutcome> {
    const on = this.on;
    const now = Date.now();
    const accepted: Candidate[] = [];
    const errors: IngestOutcome['errors'] = [];
    let duplicates = 0;
    // What the events before this one in the batch establish, ahead of recording them.
    const batchKeys = new Set<string>();
    const batchTypes = new Map<string, PropertyType>();

    for (const [i, raw] of batch.entries()) {
      const checked = this.check(raw, now, (name) => batchTypes.get(name) ?? this.propertyTypes.get(name));
      if (typeof checked === 'string') {
        errors.push({ index: on('error-index-off-by-one') ? i + 1 : i, message: checked });
        continue;
      }
      const { key } = checked;
      if (key !== undefined && !on('idempotency-ignored')) {
        const seen = this.keys.has(key) || (!on('idempotency-within-batch') && batchKeys.has(key));
        if (seen) {
          duplicates++;
          continue;
        }
      }
      if (key !== undefined) batchKeys.add(key);
      for (const [name, value] of Object.entries(checked.event.properties)) if (!batchTypes.has(name)) batchTypes.set(name, typeOf(value));
      accepted.push(checked);
    }

    if (on('one-bad-fails-batch') && errors.length > 0) {
      const failed = new Map(errors.map((e) => [e.index, e.message]));
      const first = errors[0]!.index;
      return { inserted: 0, duplicates: 0, errors: batch.map((_, index) => ({ index, message: failed.get(index) ?? `batch rejected: event ${first} is invalid` })) };
    }

    // The fault: the keys were looked up above; a round-trip to the store before they are recorded lets a batch that
    // arrives meanwhile look them up too.
    if (on('idempotency-race')) await new Promise((resolve) => setTimeout(resolve, RACE_DELAY_MS));

    const visibleAt = on('never-queryable') ? Infinity : Date.now() + this.queryableAfterMs;
    // The fault: events are written in chunks, and the last chunk of a long batch is never flushed.
    const written = on('batch-tail-dropped') && accepted.length > TAIL_CHUNK ? accepted.slice(0, accepted.length - (accepted.length % TAIL_CHUNK || TAIL_CHUNK)) : accepted;
    for (const { event, key } of written) {
      if (key !== undefined) this.keys.add(key);
      for (const [name, value] of Object.entries(event.properties)) if (!this.propertyTypes.has(name)) this.propertyTypes.set(name, typeOf(value));
      const stored: StoredEvent = { id: randomUUID(), ...event, visibleAt };
      this.events.push(stored);
      this.byId.set(stored.id, stored);
    }
    return { inserted: accepted.length, duplicates, errors };
  }

  /** The events the reads may see now. */
  visible(now = Date.now()): StoredEvent[] {
    return this.events.filter((e) => e.visibleAt <= now);
  }

  /** One event the reads may see, by id. */
  get(id: string, now = Date.now()): StoredEvent | undefined {
    const event = this.byId.get(id);
    return event && event.visibleAt <= now && event.organization_id === this.organizationId ? event : undefined;
  }

  /** One event checked: what it would store, or why it fails (every problem it has, in one message). */
  private check(raw: unknown, now: number, typeBefore: (name: string) => PropertyType | undefined): Candidate | string {
    const on = this.on;
    if (!isRecord(raw)) return 'an event must be a JSON object';
    const problems: string[] = [];

    const { name } = raw;
    if (typeof name !== 'string' || !(on('hyphen-name-accepted') ? NAME_WITH_HYPHEN : NAME).test(name)) {
      problems.push('name must be a non-empty string of letters, digits, underscores and dots');
    }

    const customer = (member: 'customer_id' | 'external_customer_id'): string | null => {
      const value = raw[member];
      if (value === undefined || value === null) return null;
      if (typeof value !== 'string' || value === '') problems.push(`${member} must be a non-empty string`);
      return typeof value === 'string' ? value : null;
    };
    const customerId = customer('customer_id');
    const externalCustomerId = customer('external_customer_id');
    if (raw.customer_id == null && raw.external_customer_id == null && !on('customer-optional')) {
      problems.push('customer_id or external_customer_id is required');
    }

    // Absent: the time of ingestion (the real product's default). Present: an ISO 8601 date-time.
    let timestamp = raw.timestamp === undefined ? fromMs(now) : parseInstant(raw.timestamp);
    if (timestamp === undefined) {
      if (on('timestamp-unchecked')) timestamp = fromMs(now);
      else problems.push('timestamp must be an ISO 8601 date-time, such as 2025-01-31T12:00:00Z');
    }

    const properties: Record<string, PropertyValue> = {};
    if (raw.properties !== undefined) {
      if (!isRecord(raw.properties)) {
        if (!on('properties-unchecked')) problems.push('properties must be an object');
      } else {
        for (const [key, value] of Object.entries(raw.properties)) {
          if (!(typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))) {
            problems.push(`properties.${key} must be a string, a number or a boolean`);
            continue;
          }
          const before = typeBefore(key);
          if (before === undefined || before === typeOf(value)) properties[key] = value;
          else if (before === 'string' && on('mixed-types-coerced')) properties[key] = String(value);
          else problems.push(`properties.${key} is a ${typeOf(value)} but earlier events gave it ${before} values (one type per property name)`);
        }
      }
    }

    let key: string | undefined;
    if (raw.idempotency_key !== undefined && raw.idempotency_key !== null) {
      if (typeof raw.idempotency_key === 'string' && raw.idempotency_key !== '') key = raw.idempotency_key;
      else problems.push('idempotency_key must be a non-empty string');
    }

    if (problems.length > 0) return problems.join('; ');
    return {
      event: {
        name: name as string,
        customer_id: customerId,
        external_customer_id: externalCustomerId,
        timestamp: timestamp!,
        properties,
        source: 'user',
        organization_id: this.organizationId,
      },
      key,
    };
  }
}

const typeOf = (value: PropertyValue): PropertyType => typeof value as PropertyType;

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
