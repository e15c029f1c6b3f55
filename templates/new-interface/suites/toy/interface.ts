import { expectedMs } from '../../harness/budget.ts';
import { withHeaderUnlessGiven } from '../../harness/http/given-header.ts';
import { defineSuite } from '../../harness/interface.ts';
import { notTheApi } from '../../harness/probe.ts';
import { toyInterface } from '../../interfaces/toy/definition.ts';
import { ECHO_CASES } from './model.ts';

/** What the toy suite does with its interface: how it authenticates, probes and plans. */
export const suite = defineSuite(toyInterface, {
  // "X-Toy-Key" on every request: the key is the whole authentication; a key a check gives (a wrong one) wins.
  authenticate: (req, secrets) => withHeaderUnlessGiven(req, 'X-Toy-Key', secrets.get('toyKey')),
  // A harmless documented read with the key proves the base URL and the credential at once.
  probe: ({ credentialEnv }) => ({
    request: { method: 'GET', path: '/toy/ping', authenticate: true, label: 'probe' },
    judge: (reply) => {
      if (reply.status === 401) return `GET /toy/ping was answered 401: the target refused the key (environment variable ${credentialEnv.toyKey ?? '?'})`;
      return notTheApi(reply, 'GET /toy/ping with the key');
    },
  }),
  notApplicable: () => ({ operations: {}, requirements: {} }),
  // The echo property's cases, the refusal and its control, and the generic checks' few requests per operation.
  plannedMs: ({ profile, depth, live, workers }) => expectedMs({ requests: depth * ECHO_CASES + 40 }, profile, live, workers),
});
