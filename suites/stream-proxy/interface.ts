import { expectedMs } from '../../harness/budget.ts';
import { defineSuite } from '../../harness/interface.ts';
import { streamProxy } from '../../interfaces/stream-proxy/definition.ts';
import { notTheApi } from '../../harness/probe.ts';
import { showed } from '../../harness/answers.ts';
import { authenticate } from './auth.ts';
import { restoreWrite } from './restore.ts';
import { streamScope } from './scope.ts';
import { type StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';

/** What the stream-proxy suite does with its interface: how it authenticates, probes and plans. */
export const suite = defineSuite(streamProxy, {
  authenticate,
  restore: restoreWrite,
  // The merged configuration, with the admin token: proves the base URL, the prefix and the token at once, and its
  // revision headers are what only the API gives (a catch-all answering 200 {} to everything has none).
  probe: ({ settings, credentialEnv }) => {
    const s = settings as StreamProxySettings;
    const what = `GET /api/v1/config${s.webAuthEnabled ? ' with the admin token' : ''}`;
    return {
      request: { method: 'GET', path: '/api/v1/config', authenticate: true, label: 'probe' },
      // A probe's judgement is a sighting: a refused token is named; a throttle, an error or a page is notTheApi's to name.
      judge: (reply) => {
        if (showed(reply, 401, 403)) {
          return `${what} was answered ${reply.status}: the target refused the admin token (${s.adminLogin ? 'settings.adminLogin' : `environment variable ${credentialEnv.adminToken ?? '?'}`})`;
        }
        return notTheApi(reply, what);
      },
      // The user token, where the user UI is on (the self-service endpoints exist only then): one read of its own.
      credentials:
        s.userUiEnabled && (credentialEnv.userToken || s.userLogin)
          ? [
              {
                request: { method: 'GET', path: '/api/v1/user/playlist/categories', authenticate: true, credential: 'user', label: 'probe: the user token' },
                judge: (reply) => {
                  const with_ = 'GET /api/v1/user/playlist/categories with the user token';
                  if (showed(reply, 401, 403)) return `${with_} was answered ${reply.status}: the target refused the user token (${s.userLogin ? 'settings.userLogin' : `environment variable ${credentialEnv.userToken}`})`;
                  return notTheApi(reply, with_);
                },
              },
            ]
          : [],
    };
  },
  notApplicable: ({ profile, settings, baseUrl }) => streamScope(settings as StreamProxySettings, { writes: profile.writes, live: Boolean(baseUrl) }),
  // Two properties of 100 sequences, the user property, the reads, the token expiry and the background work.
  plannedMs: ({ profile, settings, depth, live, workers }) => {
    const s = settings as StreamProxySettings;
    // The web-player token's expiry is waited out only where the profile asks for the slow checks.
    return expectedMs({ requests: depth * (100 * 14 + 100 * 10) + 400, waitMs: (s.slowChecks ? Math.min(s.webPlayerTokenMs, 60_000) : 0) + 4000 }, profile, live, workers);
  },
});
