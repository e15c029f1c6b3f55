import { builtOnce } from '../kit/lazy.ts';
import type { Static } from '@sinclair/typebox';
import { profileEntry, schemaKit } from '../kit/profile-entry.ts';

/**
 * The usage-events entry of a target profile (interfaces.usage-events). Interface D leaves the ingest response's
 * member names, several query-parameter names, the error statuses and how meters are defined "not shown": each is a
 * setting here, with the real billing product's choice (the one the document follows) as its default. The loader
 * fills in every default.
 */

// Built the first time a profile is checked (see schemaKit): test workers never need TypeBox.
const schemas = builtOnce(() => {
  const { Type, EnvName } = schemaKit();
  const Operator = Type.Union([
    Type.Literal('eq'), Type.Literal('ne'), Type.Literal('gt'), Type.Literal('gte'),
    Type.Literal('lt'), Type.Literal('lte'), Type.Literal('like'), Type.Literal('not_like'),
  ]);

  /** A JSON filter clause, in the meter-filter format: {"conjunction":"and"|"or","clauses":[{property, operator, value}]}. */
  const FilterClause = Type.Object(
    {
      conjunction: Type.Union([Type.Literal('and'), Type.Literal('or')]),
      clauses: Type.Array(Type.Object({ property: Type.String(), operator: Operator, value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]) }, { additionalProperties: false })),
    },
    { additionalProperties: false },
  );

  /** A meter: which events it counts (a filter clause) and how it aggregates them. */
  const Meter = Type.Object(
    {
      /** Reference: the meter's name; live: the id of an existing meter on the target. */
      id: Type.String({ minLength: 1 }),
      filter: FilterClause,
      aggregation: Type.Object(
        {
          func: Type.Union([Type.Literal('count'), Type.Literal('sum'), Type.Literal('avg'), Type.Literal('min'), Type.Literal('max')]),
          property: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  );

  const UsageEventsEntry = profileEntry({
    reference: Type.Object(
      {
        /** How long ingested events take to become queryable on the reference, in ms. */
        queryableAfterMs: Type.Optional(Type.Integer({ minimum: 0 })),
        /** The organization id the reference's statistics answer for. */
        organizationId: Type.Optional(Type.String()),
        /** Read-only profiles: the reference answers an authenticated ingest with 500 and starts with events of its own. */
        writeTripwire: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    credentials: Type.Object({ accessToken: EnvName }, { additionalProperties: false, examples: [{ accessToken: 'USAGE_ACCESS_TOKEN' }] }),
    settings: Type.Object(
      {
        /** Member names of the ingest response: the count of ingested events, and the errors, each naming its event's index. */
        ingestResponse: Type.Object(
          { inserted: Type.String({ default: 'inserted' }), errors: Type.String({ default: 'errors' }), errorIndex: Type.String({ default: 'index' }) },
          { additionalProperties: false, default: {}, description: "Member names of the ingest answer: the inserted count, the errors and each error's event index." },
        ),
        /** The status of a refused request (an ingest over 100 events, a bad token); absent: any 4xx. */
        refusalStatus: Type.Optional(Type.Integer({ minimum: 400, maximum: 499, description: 'The status of a refused request (too many events, a bad token); absent: any 4xx.' })),
        /** Query-parameter names the document does not show. */
        query: Type.Object(
          {
            meter: Type.String({ default: 'meter_id' }),
            filter: Type.String({ default: 'filter' }),
            aggregatedProperty: Type.String({ default: 'property' }),
          },
          { additionalProperties: false, default: {}, description: 'Query-parameter names the document leaves out (meter, filter, aggregated property).' },
        ),
        /**
         * Paging of the list (not shown): its style, parameter names and the page size asked for (at most 100), and
         * where the answer holds the items, the total and the next cursor. Unless the profile states the style, the
         * reader follows what each answer shows (a next cursor, a total, pages that bring nothing new).
         */
        paging: Type.Object(
          {
            /** page: numbered pages; offset: an offset counted in events; cursor: the previous answer's cursor; none: one answer holds every event. */
            style: Type.Union([Type.Literal('page'), Type.Literal('offset'), Type.Literal('cursor'), Type.Literal('none')], { default: 'page' }),
            page: Type.String({ default: 'page' }),
            limit: Type.String({ default: 'limit' }),
            offset: Type.String({ default: 'offset' }),
            cursor: Type.String({ default: 'cursor' }),
            size: Type.Integer({ minimum: 1, maximum: 100, default: 100 }),
            /** A JSON pointer to the items in the answer ("" for a bare array). */
            items: Type.String({ default: '/items' }),
            /** A JSON pointer to the number of events the query matches, where an answer gives it. */
            total: Type.String({ default: '/pagination/total_count' }),
            /** A JSON pointer to the cursor of the next page (null or absent on the last). */
            nextCursor: Type.String({ default: '/next_cursor' }),
          },
          { additionalProperties: false, default: {}, description: 'How the event list pages: its style, parameter names, page size, and where items, total and cursor are.' },
        ),
        /**
         * The operators a filter clause knows ("the same format as meter filters", not shown): the list-filter check
         * generates clauses with these when the profile states them, and with the comparisons alone otherwise.
         */
        filterOperators: Type.Array(Operator, { minItems: 1, uniqueItems: true, default: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like'], description: 'The operators a filter clause knows; unstated, only comparisons are sent.' }),
        /** A JSON pointer to the statistics rows in the answer ("": the answer is the array of rows). */
        statisticsRows: Type.String({ default: '', description: 'A JSON pointer to the rows in a statistics answer ("": the answer is the array of rows).' }),
        /** The member that holds a stored event's id. */
        eventId: Type.String({ default: 'id', description: "The member that holds a stored event's id." }),
        /** "Within a few seconds": how long the harness waits (polling with back-off) before an event must be queryable. */
        queryableWithinMs: Type.Integer({ minimum: 0, default: 5000, description: 'How long, in ms, an ingested event may take to become queryable ("within a few seconds").' }),
        /** The organization id statistics are asked for (required by the document's parameters). */
        organizationId: Type.String({ default: 'conformance-organization', description: 'The organization id statistics are asked for.' }),
        /** Customer ids the harness may ingest for: on a live billing system, test customers only. */
        customers: Type.Object(
          { customerIds: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, default: ['conformance-customer-1', 'conformance-customer-2'] }), externalPrefix: Type.String({ default: 'conformance-ext-' }) },
          { additionalProperties: false, default: {}, description: 'Customer ids the harness may ingest events for: on a live billing system, test customers only.' },
        ),
        /** Every event the harness ingests is named with this prefix, so that an operator can find and void them. */
        namePrefix: Type.String({ default: 'conformance.', pattern: '^[A-Za-z0-9_.]*$', description: 'Prefix of every event name the harness ingests, so an operator can find and void them.' }),
        /**
         * Where in time the harness places its events: each worker of a run takes stretches from here on, 30 years per
         * worker, so that its cases never share an interval with another case's events. A target that refuses events
         * this old (whether it may is not shown) needs a later base.
         */
        timeBase: Type.String({ default: '1900-01-01T00:00:00Z', format: 'date-time', description: 'Where in time the harness places its events; a target refusing old events needs a later one.' }),
        /** Meters: on the reference the profile defines them; against a live target it names existing ones. */
        meters: Type.Array(Meter, {
          default: [],
          description: 'Meters with their filters: existing ones of a live target (by id), or defined for the reference.',
          examples: [[{ id: '<meter id>', filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'conformance.api_call' }] }, aggregation: { func: 'count' } }]],
        }),
      },
      { additionalProperties: false, default: {} },
    ),
  });
  return { FilterClause, Meter, UsageEventsEntry };
});
type Schemas = ReturnType<typeof schemas>;

/** The usage-events entry's schema (interfaces.usage-events). */
export const usageEventsEntry = () => schemas().UsageEventsEntry;

export type UsageEventsProfileEntry = Static<Schemas['UsageEventsEntry']>;
export type UsageEventsSettings = UsageEventsProfileEntry['settings'];
export type MeterDefinition = Static<Schemas['Meter']>;
export type FilterClauseValue = Static<Schemas['FilterClause']>;
