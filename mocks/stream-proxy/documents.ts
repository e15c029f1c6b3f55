// What the three configuration documents hold when the reference starts. "Inner fields of these ... objects: not
// shown": the reference follows the layout a stream proxy of this kind uses (config.yml, source.yml, api-proxy.yml),
// filled from the profile's settings so that the targets and the input the profile names are the ones it serves.
import type { StreamProxySettings } from '../../suites/stream-proxy/settings.ts';
import type { DocName } from './config-store.js';

export function initialDocuments(settings: StreamProxySettings, useUserDb: boolean): Record<DocName, unknown> {
  const main = {
    api: { host: '0.0.0.0', port: 8901, web_root: './web' },
    working_dir: './data',
    update_on_boot: false,
    web_ui: {
      enabled: true,
      user_ui_enabled: settings.userUiEnabled,
      ...(settings.pathPrefix ? { path: settings.pathPrefix.slice(1) } : {}),
      auth: { enabled: settings.webAuthEnabled, issuer: 'stream_proxy', userfile: './user.txt' },
    },
    library: { enabled: settings.libraryEnabled, scan_directories: [{ path: './media', recursive: true }] },
    ipcheck: { url_ipv4: 'https://ipinfo.invalid/ip', url_ipv6: 'https://ipinfo6.invalid/ip' },
    schedules: [{ schedule: '0 0 8 * * * *', targets: settings.targets.map((t) => t.name) }],
  };
  const sources = {
    templates: [],
    sources: [
      {
        inputs: [
          {
            id: settings.inputId,
            name: `input-${settings.inputId}`,
            type: 'xtream',
            url: 'http://provider.invalid',
            username: 'provider-user',
            password: 'provider-password',
            enabled: true,
          },
        ],
        targets: settings.targets.map((t) => ({
          id: t.id,
          name: t.name,
          enabled: true,
          output: [{ type: 'xtream' }, { type: 'm3u' }],
        })),
      },
    ],
  };
  // "without the user list": users are kept apart (users.ts), whichever way use_user_db says.
  const apiProxy = {
    server: [{ name: settings.serverProfile, protocol: 'http', host: '127.0.0.1', port: '8901', timezone: 'UTC', message: 'Welcome' }],
    use_user_db: useUserDb,
  };
  return { main, sources, apiProxy };
}
