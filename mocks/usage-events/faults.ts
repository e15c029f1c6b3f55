// Seeded faults of the usage-events reference: each is a plausible bug of a metered-billing event API. `violates`
// lists what a good suite must see fail against reference.yaml; `collateral` lists what may fail too, each for the
// reason given beside it. Faults that change only a value leave the answers' shapes alone (a dropped or coerced value
// is still of the documented type), so that the spec-derived schema checks have nothing to blame.

import type { Fault } from '../types.js';

export type { Fault };

// A mixed batch (D-INGEST-ERRORS-EXACT) may take its invalid member from any kind of invalid event: a validation
// that lets one kind through also ingests that member of the mixed batch.
const mixedBatch = ['D-INGEST-ERRORS-EXACT'];
// The combined-filter check filters by every kind of filter at once: a filter that misbehaves alone misbehaves there too.
const combined = ['D-FILTER-COMBINED'];

export const faults = [
  // Ingestion
  {
    name: 'limit-101-accepted',
    description: 'Refuses a batch only when it has more than 101 events (`> 101` for `> 100`), so a batch of exactly 101 is ingested whole.',
    violates: ['D-INGEST-LIMIT'],
  },
  {
    name: 'one-bad-fails-batch',
    description:
      'Validates the batch as one unit: when any event is invalid every event gets an error entry (the valid ones "batch rejected") and nothing is ingested.',
    violates: ['D-INGEST-ERRORS-EXACT'],
  },
  {
    name: 'batch-tail-dropped',
    description:
      'Writes a batch to storage in chunks of 64 events and never flushes the last chunk of a longer batch, while the answer counts every event as ingested.',
    violates: ['D-INGEST-ACCEPTED'],
    // A long batch with invalid events loses its valid tail too.
    collateral: mixedBatch,
  },
  {
    name: 'hyphen-name-accepted',
    description: 'Checks names against [A-Za-z0-9_.-] (a hyphen slipped into the character class), so "api-call" is ingested.',
    violates: ['D-INGEST-NAME'],
    collateral: mixedBatch,
  },
  {
    name: 'error-index-off-by-one',
    description: 'Numbers error entries from 1 (`index: i + 1`), so each error names the event after the one that failed.',
    violates: ['D-INGEST-ERRORS-EXACT'],
  },
  {
    name: 'customer-optional',
    description: 'Type-checks customer_id and external_customer_id only when present and never requires one of them, so an event for nobody is ingested.',
    violates: ['D-INGEST-CUSTOMER'],
    collateral: mixedBatch,
  },
  {
    name: 'timestamp-unchecked',
    description: 'Falls back to the time of ingestion when the timestamp does not parse (as it does when it is absent), so "yesterday" is ingested as now.',
    violates: ['D-INGEST-TIMESTAMP'],
    collateral: mixedBatch,
  },
  {
    name: 'properties-unchecked',
    description: 'Treats properties that are not an object (a string, an array, a number) as absent: the event is ingested with {}.',
    violates: ['D-INGEST-PROPERTIES'],
    collateral: mixedBatch,
  },
  {
    name: 'mixed-types-coerced',
    description:
      'Casts a value to the type its property name already has when it can: a number or boolean sent where the name held strings is stored as a string ("5").',
    violates: ['D-INGEST-PROPERTY-TYPES'],
  },
  {
    name: 'mixed-types-500',
    description: 'A value of another type than its property name already holds fails in the database, and the batch is answered 500 (a server error, not a refusal).',
    // A 5xx fails GEN-NO-5XX wherever it shows; it says nothing of whether the values were stored as sent or refused.
    violates: ['D-GEN-NO-5XX'],
    undecided: ['D-INGEST-PROPERTY-TYPES'],
  },
  {
    name: 'ingest-refused',
    description: 'Ingestion is switched off for the organization (a plan flag read the wrong way round): every authenticated batch is refused 403, whatever it holds.',
    // Nothing the document states is broken where the profile does not place the events in time (settings.timeBase): a
    // deployment may refuse events it does not take. But the ingest with the token is the control of D-AUTH's ingest
    // without one, and the sentinel after the batch of 101 that of its refusal: neither may pass.
    violates: [],
    undecided: ['D-AUTH', 'D-INGEST-LIMIT'],
  },
  {
    name: 'idempotency-ignored',
    description: 'Never looks idempotency_key up: every event is ingested, repeats included.',
    violates: ['D-IDEMPOTENCY'],
  },
  {
    name: 'idempotency-race',
    description:
      'Looks the batch\'s keys up, then awaits a store round-trip before recording them, so two batches sent at the same moment with one key both ingest it.',
    violates: ['D-IDEMPOTENCY'],
  },
  {
    name: 'idempotency-within-batch',
    description: 'Looks keys up only among earlier batches, not among the events before it in the same batch, so a key repeated within a batch is ingested twice.',
    violates: ['D-IDEMPOTENCY'],
  },

  // Reading events
  {
    name: 'never-queryable',
    description: 'The ingestion queue is never drained: every ingest answers as usual, but no event ever becomes visible to the reads.',
    violates: ['D-QUERYABLE'],
    // Nothing else, provided each read check first waits for its events to be listed and blames D-QUERYABLE when they
    // never are (what it meant to read was never there to be read).
  },
  {
    name: 'name-lowercased',
    description: 'Writes event names out lowercased ("API.Call" is shown as "api.call"); filters still see the name as sent.',
    violates: ['D-EVENT-FIELDS'],
  },
  {
    name: 'unknown-id-200',
    description: 'GET /v1/events/{id} answers an id it does not know with 200 and an empty object instead of 404.',
    violates: ['D-GET-EVENT'],
    // The 200 answer does not fit the spec's event schema.
    collateral: ['D-GEN-SCHEMA'],
  },
  {
    name: 'event-by-id-500',
    description: 'GET /v1/events/{id} fails in its own serializer for every stored event (500); an unknown id is still 404.',
    // A 5xx fails GEN-NO-5XX wherever it shows. The listed event read by its id is the control of D-GET-EVENT's
    // refusal of an unknown id, and of D-AUTH's read by id without a token: answered 500, it decides nothing, and
    // neither may the refusals.
    violates: ['D-GEN-NO-5XX'],
    undecided: ['D-GET-EVENT', 'D-AUTH'],
    // The generic check of a valid request may count the 500 against it too.
    collateral: ['D-GEN-VALID-ACCEPTED'],
  },
  {
    name: 'customer-filter-ignored',
    description: 'Drops customer_id when building the list query (it reads customerId), so the list holds every customer\'s events.',
    violates: ['D-FILTER-CUSTOMER'],
    collateral: combined,
  },
  {
    name: 'external-filter-ignored',
    description: 'Drops external_customer_id when building the list query, so the list holds every external customer\'s events.',
    violates: ['D-FILTER-EXTERNAL'],
    collateral: combined,
  },
  {
    name: 'end-inclusive-after',
    description: 'Compares end_timestamp by calendar day (UTC), so events later on the end\'s day, after the end, are listed.',
    violates: ['D-FILTER-TIME'],
    collateral: combined,
  },
  {
    name: 'conjunction-ignored',
    description: 'Joins the clauses of the list\'s filter parameter with AND whatever its conjunction says (meters keep theirs).',
    violates: ['D-FILTER-CLAUSE'],
    collateral: combined,
  },
  {
    name: 'meter-filter-ignored',
    description: 'Checks that the meter asked for exists but never applies its filter to the list, which then holds every event.',
    violates: ['D-FILTER-METER'],
    collateral: combined,
  },
  {
    name: 'filters-or',
    description:
      'Joins the list\'s filters with OR instead of AND (customer, external customer, the time window as one, the clause, the meter): each alone works.',
    violates: ['D-FILTER-COMBINED'],
    // The suite bounds the customer, clause and meter checks to a stretch of time of their own (so that no other
    // event of the run can answer them): joined with OR, that bound lets the stretch's other events in.
    collateral: ['D-FILTER-CUSTOMER', 'D-FILTER-CLAUSE', 'D-FILTER-METER'],
  },

  // Statistics
  {
    name: 'sum-as-count',
    description: 'Aggregation sum counts the events that carry the property instead of adding their values.',
    violates: ['D-STATS-SUM'],
  },
  {
    name: 'avg-over-empty',
    description:
      'Computes day, week and month averages from hourly roll-ups, counting hours without events as 0 (the mean of the interval\'s hourly means); hour intervals are right.',
    violates: ['D-STATS-AVG'],
  },
  {
    name: 'min-max-swapped',
    description: 'Aggregation min answers the largest value and max the smallest.',
    violates: ['D-STATS-MIN', 'D-STATS-MAX'],
  },
  {
    name: 'count-off-by-one',
    description: 'Counts an interval\'s events as last index minus first index of its sorted slice (no + 1), so a non-empty interval is one short.',
    violates: ['D-STATS-COUNT'],
    // Which events a meter aggregates is read back through their count.
    collateral: ['D-STATS-METER'],
  },
  {
    name: 'buckets-local-time',
    description: 'Writes each interval\'s start as the wall-clock time of a UTC+1 server with a Z appended, so every row is labelled one hour late.',
    violates: ['D-STATS-INTERVALS'],
  },
  {
    name: 'last-interval-dropped',
    description: 'Stops the series before the interval that contains end_timestamp (`<` for `<=`), so the last row is missing.',
    violates: ['D-STATS-INTERVALS'],
  },
  {
    name: 'stats-ignore-meter-filter',
    description: 'Statistics aggregate every event of the organization, not only those matching the meter\'s filter.',
    violates: ['D-STATS-METER'],
  },
  {
    name: 'stats-value-string',
    description: 'Serialises statistics values as decimal strings ("3") instead of numbers.',
    // The spec types the row's value as a number.
    violates: ['D-STATS-ROWS', 'D-GEN-SCHEMA'],
  },

  // Authentication
  {
    name: 'ingest-auth-skipped',
    description: 'The ingest route is mounted outside the bearer-token middleware, and refuses an empty batch (422): a batch of events is ingested without a token.',
    violates: ['D-AUTH'],
    collateral: ['D-GEN-AUTH'],
  },
  {
    name: 'no-auth',
    description: 'The bearer-token middleware is not mounted: every operation answers without a token, or with any token.',
    // The spec declares the bearer scheme, from which the generic authentication checks are derived.
    violates: ['D-AUTH', 'D-GEN-AUTH'],
  },
  {
    name: 'broken-json-500',
    description: 'The ingest handler does not catch the JSON parser\'s error: a body that is not JSON gets 500.',
    violates: ['D-GEN-NO-5XX'],
  },
  {
    name: 'odd-query-redirect',
    description: 'A malformed escape in the query string ("%zz") is "cleaned" by a redirect (301) to the bare path. A redirect is not the API answering: no verdict may rest on it, so the bad input it answers is left undecided.',
    violates: [],
    undecided: ['D-GEN-NO-5XX'],
  },
  {
    name: 'ingest-moved',
    description: 'The ingest route moved under a trailing slash; its documented path answers 308 to the new one. A redirect is not the API answering: what the valid request would have shown is left undecided, never passed.',
    violates: [],
    undecided: ['D-GEN-VALID-ACCEPTED', 'D-GEN-SCHEMA', 'D-GEN-CONTENT-TYPE'],
  },
  {
    name: 'event-by-id-forbidden',
    description: 'GET /v1/events/{id} checks a scope the access token is never given: every stored event is refused 403 (an unknown id is still 404).',
    // A listed event read by its id, refused where the profile states that the target needs nothing beside the token
    // (settings.extras): the valid request is refused, and so is the event D-GET-EVENT reads back.
    violates: ['D-GET-EVENT', 'D-GEN-VALID-ACCEPTED'],
    profile: 'reference-usage-other-names.yaml',
  },
  {
    name: 'statistics-text-plain',
    description: 'The statistics are written out as JSON text with the framework\'s default content type, text/plain.',
    violates: ['D-GEN-CONTENT-TYPE'],
  },
] as const satisfies readonly Fault[];

export type UsageEventsFault = (typeof faults)[number]['name'];
