import { expectedMs } from '../../harness/budget.ts';
import { withHeaderUnlessGiven } from '../../harness/http/given-header.ts';
import { defineInterface, type InterfaceDescriptor } from '../../harness/interface.ts';
import { notTheApi } from '../../harness/probe.ts';
import { faults } from '../../mocks/usage-events/faults.ts';
import { readings } from '../../mocks/usage-events/readings.ts';
import { usageScope } from './scope.ts';
import { usageEventsEntry, type UsageEventsSettings } from './settings.ts';

/** Generated cases of the four properties (ingest, idempotency, filters, statistics) at the default depth. */
const CASES = 4 * 100;

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const usageEvents: InterfaceDescriptor<'usage-events', ReturnType<typeof usageEventsEntry>> = defineInterface({
  name: 'usage-events',
  title: 'Interface D of 002_e31f548efc8ec0bb.txt, usage events for metered billing (/v1/events)',
  reference: { start: async (options) => (await import('../../mocks/usage-events/server.ts')).start(options), faults, readings },
  profileSchema: usageEventsEntry,
  // "Header Authorization: Bearer <ACCESS_TOKEN>" on every operation.
  authenticate: (req, secrets) => withHeaderUnlessGiven(req, 'Authorization', `Bearer ${secrets.get('accessToken')}`),
  // A read that lists nothing (an external customer id no one has), with the profile's token: proves the credential.
  probe: ({ settings, credentialEnv }) => {
    const s = settings as UsageEventsSettings;
    const what = `GET /v1/events for an unused external customer id with the token of ${credentialEnv.accessToken ?? 'the profile'}`;
    return {
      request: { method: 'GET', path: `/v1/events?${new URLSearchParams({ external_customer_id: `${s.customers.externalPrefix}probe`, [s.paging.limit]: '1' })}`, authenticate: true, label: 'probe' },
      judge: (reply) => {
        if (reply.status === 401 || reply.status === 403 || (s.refusalStatus !== undefined && reply.status === s.refusalStatus)) {
          return `${what} was answered ${reply.status}: the target refused the credential accessToken (environment variable ${credentialEnv.accessToken ?? '?'}); check its value`;
        }
        return notTheApi(reply, what);
      },
    };
  },
  settingsHelp: [
    'usage-events:',
    '  credentials: { accessToken: USAGE_ACCESS_TOKEN }      # the variable that holds the bearer token',
    '  settings:',
    '    ingestResponse: { inserted: inserted, errors: errors, errorIndex: index }   # member names of the ingest answer',
    '    refusalStatus: 422                    # the status of a refused request, if the target has one (optional)',
    '    query: { meter: meter_id, filter: filter, aggregatedProperty: property }   # query names the document leaves out',
    '    paging: { page: page, limit: limit, size: 100, items: /items }             # list paging ("" items: a bare array)',
    '    #   also style: page | offset | cursor | none (unstated: each answer says how to go on), offset: offset, cursor: cursor,',
    '    #   total: /pagination/total_count and nextCursor: /next_cursor (where an answer gives the total and the next cursor)',
    '    # filterOperators: [eq, ne, gt, gte, lt, lte, like, not_like]   # what a filter clause knows (unstated: only comparisons are sent)',
    '    # statisticsRows: /periods             # where an object answer of the statistics holds its rows (unstated: the answer itself)',
    '    eventId: id                           # the member holding a stored event\'s id',
    '    queryableWithinMs: 5000               # "within a few seconds"',
    '    organizationId: my-organization       # statistics are asked for this organization',
    '    customers: { customerIds: [test-customer-1], externalPrefix: conformance-ext- }   # test customers only',
    '    namePrefix: conformance.              # every event the harness ingests is named with it',
    '    timeBase: "1900-01-01T00:00:00Z"      # where in time the harness places its events',
    '    meters:                               # existing meters of the target, with their filters',
    '      - { id: <meter id>, filter: { conjunction: and, clauses: [{ property: name, operator: eq, value: conformance.api_call }] }, aggregation: { func: count } }',
  ].join('\n'),
  notApplicable: ({ profile, settings, baseUrl }) => usageScope(settings as UsageEventsSettings, { writes: profile.writes, live: Boolean(baseUrl) }),
  // Each case ingests, waits for its events to be listed and reads a few times.
  plannedMs: ({ profile, settings, depth, live, workers }) => {
    const s = settings as UsageEventsSettings;
    const perCaseWaitMs = live ? Math.min(s.queryableWithinMs, 3000) : 100;
    return expectedMs({ requests: CASES * depth * 6 + 200, waitMs: CASES * depth * perCaseWaitMs }, profile, live, workers);
  },
});
