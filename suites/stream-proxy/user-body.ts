import type { StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';

/** The body of a proxy user's create or update, as the document's ProxyUserCredentials shows it. */
export function userBody(settings: StreamProxySettings, username: string, token: string | undefined): Record<string, unknown> {
  return { username, password: 'conformance', ...(token ? { token } : {}), proxy: 'reverse', server: settings.serverProfile, max_connections: 1, status: 'Active', exp_date: null };
}
