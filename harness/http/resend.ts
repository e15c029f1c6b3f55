import type { Secrets } from '../secrets.ts';
import type { Client, Reply, RequestSpec } from './client.ts';
import type { Exchange } from './exchange.ts';

/**
 * The request of a recorded (redacted) exchange, ready to send again with `secrets`, the credentials of the profile
 * that replays it: a request that went through the authentication step goes through it again and is signed afresh;
 * the credentials in any other header come back from their `{{secret:...}}` tokens.
 */
export function requestOf(ex: Exchange, secrets: Secrets): RequestSpec {
  const url = new URL(ex.request.url);
  const pre = ex.beforeAuthentication;
  const raw = pre ?? { headers: ex.request.headers, body: ex.request.body, json: false };
  const headers: Record<string, string> = {};
  for (const [k, v] of raw.headers) headers[k] = secrets.expand(v);
  const body = raw.body === undefined ? undefined : secrets.expand(raw.body);
  return {
    method: ex.request.method,
    // The path as recorded, without the recorded base URL's prefix: the replaying client puts its own in front.
    path: `${ex.requestPath ?? url.pathname}${url.search}`,
    headers,
    ...(pre?.json && body !== undefined ? { json: JSON.parse(body) as unknown } : { body }),
    authenticate: Boolean(pre),
    ...(pre?.credential ? { credential: pre.credential } : {}),
    unpaced: true,
    provokesLimit: true,
    label: `resent: ${ex.label ?? ex.request.method}`,
  };
}

/** Sends a recorded exchange again through `client`; the reply, or the error that came instead. */
export async function resend(ex: Exchange, client: Client, secrets: Secrets): Promise<Reply | Error> {
  try {
    return await client.send(requestOf(ex, secrets));
  } catch (e) {
    return e as Error;
  }
}
