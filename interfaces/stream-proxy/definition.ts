import { defineInterface, type InterfaceDefinition } from '../definition.ts';
import { streamProxyEntry, type StreamProxySettings } from './settings.ts';

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const streamProxy: InterfaceDefinition<'stream-proxy', ReturnType<typeof streamProxyEntry>> = defineInterface({
  name: 'stream-proxy',
  title: 'Interface B of 000_474e08d6792acf13.txt, the stream-proxy management interface (/api/v1/)',
  profileSchema: streamProxyEntry,
  // "Mounted at {base_url}/api/v1/, or at {base_url}/<path_prefix>/api/v1/ when a path prefix is configured."
  mount: (settings: StreamProxySettings) => settings.pathPrefix,
  settingsHelp: [
    'stream-proxy:',
    '  credentials: { adminToken: PROXY_ADMIN_TOKEN, userToken: PROXY_USER_TOKEN }   # or adminLogin/userLogin below',
    '  settings:',
    '    # pathPrefix: ""                  # "/<path_prefix>" when one is configured',
    '    # webAuthEnabled: true            # web_auth_enabled',
    '    # userUiEnabled: true             # user_ui_enabled',
    '    # libraryEnabled: true            # library.enabled',
    '    # adminLogin: { method: POST, path: /auth/token, json: { username: "{{secret:adminUser}}", password: "{{secret:adminPassword}}" }, tokenPointer: /token }',
    '    # documents:                      # where each document lies in GET /api/v1/config, and a harmless string member to change (these are the defaults)',
    '    #   main: { inConfig: /config, scratch: /conformance_note }',
    '    #   sources: { inConfig: /sources, scratch: /conformance_note }',
    '    #   apiProxy: { inConfig: /api_proxy, scratch: /conformance_note }',
    '    #   bouquet: { scratch: /xtream/live }   # a member of the user bouquet the harness may set to a list of one group name',
    '    targets: [{ name: main, id: 1 }, { name: backup, id: 2 }]   # the second is used to move users',
    '    inputId: 1',
    '    # serverProfile: default',
    '    # provider: { m3uUrl: ..., panelUrl: ..., epgUrl: ..., username: ..., password: ... }   # reachable by the deployment',
    '    # webPlayerTokenMs: 30000',
    '    # jobs: { minScanMs: 2000, maxUpdatePendingMs: 60000 }   # a library scan runs at least, an update stays pending at most',
    '    # slowChecks: false               # true: wait out the documented 30 s web-player token (nightly)',
  ].join('\n'),
});
