import { expectedMs } from '../../harness/budget.ts';
import { withHeaderUnlessGiven } from '../../harness/http/given-header.ts';
import { defineSuite } from '../../harness/interface.ts';
import { usageEvents } from '../../interfaces/usage-events/definition.ts';
import { notTheApi } from '../../harness/probe.ts';
import { showed } from '../../harness/answers.ts';
import { usageScope } from './scope.ts';
import { type UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';

/** Generated cases of the four properties (ingest, idempotency, filters, statistics) at the default depth. */
const CASES = 4 * 100;

/** What the usage-events suite does with its interface: how it authenticates, probes and plans. */
export const suite = defineSuite(usageEvents, {
  // "Header Authorization: Bearer <ACCESS_TOKEN>" on every operation.
  authenticate: (req, secrets) => withHeaderUnlessGiven(req, 'Authorization', `Bearer ${secrets.get('accessToken')}`),
  // A read that lists nothing (an external customer id no one has), with the profile's token: proves the credential.
  probe: ({ settings, credentialEnv }) => {
    const s = settings as UsageEventsSettings;
    const what = `GET /v1/events for an unused external customer id with the token of ${credentialEnv.accessToken ?? 'the profile'}`;
    return {
      request: { method: 'GET', path: `/v1/events?${new URLSearchParams({ external_customer_id: `${s.customers.externalPrefix}probe`, [s.paging.limit]: '1' })}`, authenticate: true, label: 'probe' },
      judge: (reply) => {
        if (showed(reply, 401, 403, ...(s.refusalStatus === undefined ? [] : [s.refusalStatus]))) {
          return `${what} was answered ${reply.status}: the target refused the credential accessToken (environment variable ${credentialEnv.accessToken ?? '?'}); check its value`;
        }
        return notTheApi(reply, what);
      },
    };
  },
  notApplicable: ({ profile, settings, baseUrl }) => usageScope(settings as UsageEventsSettings, { writes: profile.writes, live: Boolean(baseUrl) }),
  // Each case ingests, waits for its events to be listed and reads a few times.
  plannedMs: ({ profile, settings, depth, live, workers }) => {
    const s = settings as UsageEventsSettings;
    const perCaseWaitMs = live ? Math.min(s.queryableWithinMs, 3000) : 100;
    return expectedMs({ requests: CASES * depth * 6 + 200, waitMs: CASES * depth * perCaseWaitMs }, profile, live, workers);
  },
});
