// The readings of the open points of specs/usage-events.yaml that this reference implements (see mocks/readings.ts): the
// first of each is the reference's default. A reading with neither `reference` nor `settings` is read by the server
// (readingSwitch, `UsageReadings` below); one with `settings` is what a tester of such a deployment states in the
// profile, and the reference follows those settings already (or reads the switch besides).
import type { OpenPointReadings, readingSwitch } from '../readings.ts';

/** The organization the readings that name it use (the profile's default organizationId). */
const ORGANIZATION = 'conformance-organization';

export const readings = [
  // ---- the ingest answer ----------------------------------------------------------------------------------------
  { point: 'D-NS-INGEST-RESPONSE', readings: [{ name: 'inserted-errors' }, { name: 'other-names', settings: { ingestResponse: { inserted: 'accepted', errors: 'rejected' } } }] },
  { point: 'D-NS-INGEST-SHAPE', readings: [{ name: 'flat-always-both' }, { name: 'errors-omitted-when-empty' }, { name: 'data-envelope' }] },
  { point: 'D-NS-DUPLICATES', readings: [{ name: 'counted-apart' }, { name: 'counted-as-ingested' }, { name: 'error-entry' }] },
  {
    point: 'D-NS-ERROR-ENTRIES',
    readings: [{ name: 'index-message' }, { name: 'entry-per-problem' }, { name: 'other-index-name', settings: { ingestResponse: { errorIndex: 'event_index' } } }, { name: 'loc-path' }],
  },
  { point: 'D-NS-SUCCESS-STATUS', readings: [{ name: 'ok-200' }, { name: 'accepted-202' }, { name: 'created-201' }] },
  { point: 'D-NS-PARTIAL-STATUS', readings: [{ name: 'ok-200' }, { name: 'multi-status-207' }, { name: 'all-failed-422' }] },

  // ---- what an ingest accepts -----------------------------------------------------------------------------------
  { point: 'D-NS-OVER-LIMIT', readings: [{ name: 'whole-batch-refused' }, { name: 'excess-as-errors' }] },
  { point: 'D-NS-EMPTY-BATCH', readings: [{ name: 'accepted' }, { name: 'refused' }] },
  { point: 'D-NS-UNKNOWN-MEMBERS', readings: [{ name: 'ignored' }, { name: 'refused' }] },
  { point: 'D-NS-REQUIRED-MEMBERS', readings: [{ name: 'timestamp-properties-optional' }, { name: 'all-required' }] },
  { point: 'D-NS-BODY-LIMIT', readings: [{ name: 'one-mib' }, { name: 'hundred-kib' }] },
  { point: 'D-NS-REQUEST-CONTENT-TYPE', readings: [{ name: 'any' }, { name: 'json-required' }] },
  {
    point: 'D-NS-CUSTOMER-IDS',
    readings: [{ name: 'both-kept' }, { name: 'customer-must-exist', settings: { customers: { customerIds: ['conformance-customer-1', 'conformance-customer-2'] } } }, { name: 'both-refused' }],
  },
  { point: 'D-NS-NAME-CHARACTERS', readings: [{ name: 'ascii' }, { name: 'unicode' }] },
  { point: 'D-NS-PROPERTY-TYPES', readings: [{ name: 'scalars-one-type-per-name' }, { name: 'scalars-as-sent' }, { name: 'any-json' }] },
  { point: 'D-NS-TIMESTAMP-FORMS', readings: [{ name: 'lenient' }, { name: 'offset-required' }] },
  { point: 'D-NS-TIMESTAMP-RANGE', readings: [{ name: 'years-1-to-9999' }, { name: 'unix-epoch', settings: { timeBase: '1971-01-01T00:00:00Z' } }, { name: 'past-only' }] },
  { point: 'D-NS-TIMESTAMP-PRECISION', readings: [{ name: 'microseconds' }, { name: 'milliseconds' }, { name: 'seconds' }] },
  { point: 'D-NS-IDEMPOTENCY-SCOPE', readings: [{ name: 'organization' }, { name: 'per-customer' }] },

  // ---- refusals and their precedence ----------------------------------------------------------------------------
  { point: 'D-NS-ERROR-STATUSES', readings: [{ name: 'per-kind' }, { name: 'one-status', settings: { refusalStatus: 400 } }] },
  { point: 'D-NS-AUTH-STATUS', readings: [{ name: 'unauthorized-401' }, { name: 'forbidden-403' }, { name: 'missing-401-invalid-403' }] },
  { point: 'D-NS-LIMIT-STATUS', readings: [{ name: 'unprocessable-422' }, { name: 'bad-request-400' }, { name: 'payload-too-large-413' }] },
  { point: 'D-NS-VALIDATION-STATUS', readings: [{ name: 'unprocessable-422' }, { name: 'bad-request-400' }] },
  { point: 'D-NS-UNKNOWN-ID', readings: [{ name: 'not-found-404' }, { name: 'malformed-422' }, { name: 'malformed-400' }] },
  { point: 'D-NS-ERROR-BODY', readings: [{ name: 'error-detail' }, { name: 'problem-json' }, { name: 'plain-text' }] },
  { point: 'D-NS-WRONG-METHOD', readings: [{ name: 'method-not-allowed-405' }, { name: 'not-found-404' }] },
  { point: 'D-NS-AUTH-ORDER', readings: [{ name: 'route-first' }, { name: 'auth-first' }] },
  { point: 'D-NS-BODY-ORDER', readings: [{ name: 'auth-first' }, { name: 'body-first' }] },
  { point: 'D-NS-STATS-CHECK-ORDER', readings: [{ name: 'parameters-first' }, { name: 'organization-first' }] },
  { point: 'D-NS-UNKNOWN-PARAMETERS', readings: [{ name: 'ignored' }, { name: 'refused' }] },
  { point: 'D-NS-RATE-LIMITS', readings: [{ name: 'none' }, { name: 'per-token-window' }] },

  // ---- what an operation needs beyond the document --------------------------------------------------------------
  {
    point: 'D-NS-ORGANIZATION-SCOPE',
    readings: [
      { name: 'token-scoped' },
      {
        name: 'query-on-reads',
        settings: {
          organizationId: ORGANIZATION,
          extras: { 'GET /v1/events': { query: { organization_id: ORGANIZATION } }, 'GET /v1/events/{id}': { query: { organization_id: ORGANIZATION } } },
        },
      },
      {
        name: 'header-everywhere',
        settings: {
          organizationId: ORGANIZATION,
          extras: Object.fromEntries(
            ['POST /v1/events/ingest', 'GET /v1/events', 'GET /v1/events/{id}', 'GET /v1/events/statistics'].map((op) => [op, { headers: { 'X-Organization-Id': ORGANIZATION } }]),
          ),
        },
      },
    ],
  },
  { point: 'D-NS-ORGANIZATION', readings: [{ name: 'not-found-404' }, { name: 'ignored' }, { name: 'forbidden-403' }] },

  // ---- stored events and the list -------------------------------------------------------------------------------
  { point: 'D-NS-EVENT-FIELDS', readings: [{ name: 'id-source-organization' }, { name: 'more-members' }, { name: 'other-id-name', settings: { eventId: 'event_id' } }] },
  { point: 'D-NS-EVENT-ID-FORMAT', readings: [{ name: 'uuid' }, { name: 'prefixed' }, { name: 'integer' }] },
  { point: 'D-NS-ABSENT-MEMBERS', readings: [{ name: 'shown-as-null' }, { name: 'omitted' }] },
  { point: 'D-NS-EVENT-ENVELOPE', readings: [{ name: 'bare-object' }, { name: 'data-envelope' }] },
  { point: 'D-NS-TIMESTAMP-ECHO', readings: [{ name: 'utc-z' }, { name: 'offset-zero' }, { name: 'always-micros' }] },
  { point: 'D-NS-FEW-SECONDS', readings: [{ name: 'fixed-delay' }, { name: 'staggered' }, { name: 'slow-pipeline', reference: { queryableAfterMs: 1500 }, settings: { queryableWithinMs: 5000 } }] },
  { point: 'D-NS-READ-CONSISTENCY', readings: [{ name: 'together' }, { name: 'statistics-later' }] },
  {
    point: 'D-NS-LIST-PAGING',
    readings: [
      { name: 'page-limit' },
      { name: 'cursor', settings: { paging: { style: 'cursor', items: '/data', nextCursor: '/next_cursor' } } },
      { name: 'bare-array', settings: { paging: { style: 'none', items: '' } } },
      { name: 'offset-limit', settings: { paging: { style: 'offset', items: '/items', total: '/total' } } },
    ],
  },
  { point: 'D-NS-PAGE-SIZE', readings: [{ name: 'up-to-100' }, { name: 'clamped-at-50' }, { name: 'refused-above-50', settings: { paging: { size: 50 } } }] },
  { point: 'D-NS-LIST-ORDER', readings: [{ name: 'timestamp-ascending' }, { name: 'timestamp-descending' }, { name: 'ingested-descending' }] },
  { point: 'D-NS-BOUNDS', readings: [{ name: 'exclusive' }, { name: 'start-inclusive' }, { name: 'inclusive' }] },
  { point: 'D-NS-REVERSED-RANGE', readings: [{ name: 'list-empty' }, { name: 'refused' }, { name: 'stats-empty' }] },
  { point: 'D-NS-REPEATED-FILTERS', readings: [{ name: 'any-of-values' }, { name: 'last-value' }, { name: 'first-value' }] },
  { point: 'D-NS-UNKNOWN-METER', readings: [{ name: 'unprocessable-422' }, { name: 'not-found-404' }, { name: 'empty' }] },

  // ---- filter clauses -------------------------------------------------------------------------------------------
  {
    point: 'D-NS-QUERY-NAMES',
    readings: [{ name: 'meter-id-filter-property' }, { name: 'other-names', settings: { query: { meter: 'meter', filter: 'query', aggregatedProperty: 'field' } } }],
  },
  { point: 'D-NS-METERS', readings: [{ name: 'nested-filters' }, { name: 'flat-filters' }] },
  { point: 'D-NS-FILTER-OPERATORS', readings: [{ name: 'eight-operators' }, { name: 'comparisons-only', settings: { filterOperators: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'] } }] },
  { point: 'D-NS-LIKE-SEMANTICS', readings: [{ name: 'contains-case-sensitive' }, { name: 'anchored' }, { name: 'case-insensitive' }] },
  { point: 'D-NS-MISSING-PROPERTY', readings: [{ name: 'no-match' }, { name: 'negations-match' }] },
  { point: 'D-NS-CLAUSE-TYPES', readings: [{ name: 'strict' }, { name: 'coerced' }] },
  { point: 'D-NS-EMPTY-CLAUSES', readings: [{ name: 'and-all-or-none' }, { name: 'refused' }, { name: 'matches-all' }] },

  // ---- statistics -----------------------------------------------------------------------------------------------
  { point: 'D-NS-REQUIRED-PARAMETERS', readings: [{ name: 'meter-required' }, { name: 'meter-optional' }, { name: 'aggregation-and-property-required' }] },
  { point: 'D-NS-STATS-SHAPE', readings: [{ name: 'bare-array' }, { name: 'rows-with-extras' }, { name: 'periods-envelope', settings: { statisticsRows: '/periods' } }] },
  { point: 'D-NS-EMPTY-INTERVALS', readings: [{ name: 'zero-or-null' }, { name: 'omitted' }, { name: 'all-zero' }] },
  { point: 'D-NS-WEEK-START', readings: [{ name: 'monday' }, { name: 'sunday' }] },
  { point: 'D-NS-INTERVAL-ALIGNMENT', readings: [{ name: 'calendar' }, { name: 'from-start' }] },
  { point: 'D-NS-STATS-TIME-ZONE', readings: [{ name: 'utc' }, { name: 'fixed-offset' }] },
  { point: 'D-NS-STATS-CUT', readings: [{ name: 'whole-intervals' }, { name: 'cut-at-bounds' }] },
  { point: 'D-NS-STATS-ROW-LIMIT', readings: [{ name: 'rows-up-to-10000' }, { name: 'rows-up-to-500' }] },
  { point: 'D-NS-AGGREGATED-VALUES', readings: [{ name: 'numbers-only' }, { name: 'numeric-strings' }] },
] as const satisfies readonly OpenPointReadings[];

/** The switch the server reads its readings through: `reading('D-NS-BOUNDS') === 'inclusive'`. */
export type UsageReadings = ReturnType<typeof readingSwitch<typeof readings>>;
