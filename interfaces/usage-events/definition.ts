import { defineInterface, type InterfaceDefinition } from '../definition.ts';
import { usageEventsEntry } from './settings.ts';

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const usageEvents: InterfaceDefinition<'usage-events', ReturnType<typeof usageEventsEntry>> = defineInterface({
  name: 'usage-events',
  title: 'Interface D of 002_e31f548efc8ec0bb.txt, usage events for metered billing (/v1/events)',
  profileSchema: usageEventsEntry,
  settingsHelp: [
    'usage-events:',
    '  credentials: { accessToken: USAGE_ACCESS_TOKEN }      # the variable that holds the bearer token',
    '  settings:',
    '    # ingestResponse: { inserted: inserted, errors: errors, errorIndex: index }   # member names of the ingest answer',
    '    # refusalStatus: 422                    # the status of a refused request, if the target has one (optional)',
    '    # query: { meter: meter_id, filter: filter, aggregatedProperty: property }   # query names the document leaves out',
    '    # paging: { page: page, limit: limit, size: 100, items: /items }             # list paging ("" items: a bare array)',
    '    #   also style: page | offset | cursor | none (unstated: each answer says how to go on), offset: offset, cursor: cursor,',
    '    #   total: /pagination/total_count and nextCursor: /next_cursor (where an answer gives the total and the next cursor)',
    '    # filterOperators: [eq, ne, gt, gte, lt, lte, like, not_like]   # what a filter clause knows (unstated: only comparisons are sent)',
    '    # statisticsRows: /periods             # where an object answer of the statistics holds its rows (unstated: the answer itself)',
    '    # eventId: id                           # the member holding a stored event\'s id',
    '    # queryableWithinMs: 5000               # "within a few seconds"',
    '    # organizationId: my-organization       # statistics are asked for this organization',
    '    # customers: { customerIds: [test-customer-1], externalPrefix: conformance-ext- }   # test customers only',
    '    # namePrefix: conformance.              # every event the harness ingests is named with it',
    '    # timeBase: "1900-01-01T00:00:00Z"      # where in time the harness places its events',
    '    # meters:                               # existing meters of the target, with their filters',
    '    #   - { id: <meter id>, filter: { conjunction: and, clauses: [{ property: name, operator: eq, value: conformance.api_call }] }, aggregation: { func: count } }',
  ].join('\n'),
});
