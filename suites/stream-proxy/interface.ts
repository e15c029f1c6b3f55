import { expectedMs } from '../../harness/budget.ts';
import { PLANTED_SECRETS } from '../../mocks/stream-proxy/planted.ts';
import { defineInterface, type InterfaceDescriptor } from '../../harness/interface.ts';
import { notTheApi } from '../../harness/probe.ts';
import { faults } from '../../mocks/stream-proxy/faults.ts';
import { readings } from '../../mocks/stream-proxy/readings.ts';
import { authenticate } from './auth.ts';
import { restoreWrite } from './restore.ts';
import { streamScope } from './scope.ts';
import { streamProxyEntry, type StreamProxySettings } from './settings.ts';

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const streamProxy: InterfaceDescriptor<'stream-proxy', ReturnType<typeof streamProxyEntry>> = defineInterface({
  name: 'stream-proxy',
  title: 'Interface B of 000_474e08d6792acf13.txt, the stream-proxy management interface (/api/v1/)',
  reference: { start: async (options) => (await import('../../mocks/stream-proxy/server.ts')).start(options), faults, readings, planted: Object.values(PLANTED_SECRETS) },
  profileSchema: streamProxyEntry,
  authenticate,
  // "Mounted at {base_url}/api/v1/, or at {base_url}/<path_prefix>/api/v1/ when a path prefix is configured."
  mount: (settings: StreamProxySettings) => settings.pathPrefix,
  restore: restoreWrite,
  // The merged configuration, with the admin token: proves the base URL, the prefix and the token at once, and its
  // revision headers are what only the API gives (a catch-all answering 200 {} to everything has none).
  probe: ({ settings, credentialEnv }) => {
    const s = settings as StreamProxySettings;
    const what = `GET /api/v1/config${s.webAuthEnabled ? ' with the admin token' : ''}`;
    return {
      request: { method: 'GET', path: '/api/v1/config', authenticate: true, label: 'probe' },
      judge: (reply) => {
        if (reply.status === 401 || reply.status === 403) {
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
                  if (reply.status === 401 || reply.status === 403) return `${with_} was answered ${reply.status}: the target refused the user token (${s.userLogin ? 'settings.userLogin' : `environment variable ${credentialEnv.userToken}`})`;
                  return notTheApi(reply, with_);
                },
              },
            ]
          : [],
    };
  },
  settingsHelp: [
    'stream-proxy:',
    '  credentials: { adminToken: PROXY_ADMIN_TOKEN, userToken: PROXY_USER_TOKEN }   # or adminLogin/userLogin below',
    '  settings:',
    '    pathPrefix: ""                  # "/<path_prefix>" when one is configured',
    '    webAuthEnabled: true            # web_auth_enabled',
    '    userUiEnabled: true             # user_ui_enabled',
    '    libraryEnabled: true            # library.enabled',
    '    # adminLogin: { method: POST, path: /auth/token, json: { username: "{{secret:adminUser}}", password: "{{secret:adminPassword}}" }, tokenPointer: /token }',
    '    documents:                      # where each document lies in GET /api/v1/config, and a harmless string member to change (these are the defaults)',
    '      main: { inConfig: /config, scratch: /conformance_note }',
    '      sources: { inConfig: /sources, scratch: /conformance_note }',
    '      apiProxy: { inConfig: /api_proxy, scratch: /conformance_note }',
    '      # bouquet: { scratch: /xtream/live }   # a member of the user bouquet the harness may set to a list of one group name',
    '    targets: [{ name: main, id: 1 }, { name: backup, id: 2 }]   # the second is used to move users',
    '    inputId: 1',
    '    serverProfile: default',
    '    # provider: { m3uUrl: ..., panelUrl: ..., epgUrl: ..., username: ..., password: ... }   # reachable by the deployment',
    '    webPlayerTokenMs: 30000',
    '    # jobs: { minScanMs: 2000, maxUpdatePendingMs: 60000 }   # a library scan runs at least, an update stays pending at most',
    '    slowChecks: false               # true: wait out the documented 30 s web-player token (nightly)',
  ].join('\n'),
  notApplicable: ({ profile, settings, baseUrl }) => streamScope(settings as StreamProxySettings, { writes: profile.writes, live: Boolean(baseUrl) }),
  // Two properties of 100 sequences, the user property, the reads, the token expiry and the background work.
  plannedMs: ({ profile, settings, depth, live, workers }) => {
    const s = settings as StreamProxySettings;
    return expectedMs({ requests: depth * (100 * 14 + 100 * 10) + 400, waitMs: Math.min(s.webPlayerTokenMs, 60_000) + 4000 }, profile, live, workers);
  },
});
