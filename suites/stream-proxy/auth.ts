/**
 * Tokens of Interface B. "Endpoints that issue the admin or user tokens: not shown": the profile gives the token
 * itself (credentials adminToken, userToken) or a login request to run (settings.adminLogin, userLogin), whose body
 * may name credentials as {{secret:name}}. Requests sent with `authenticate: true` carry the admin token, or the user
 * token when `credential` is "user"; a check that sends a wrong or no token on purpose sets the header itself.
 */
import type { AuthenticationContext, RequestSpec } from '../../harness/http/client.ts';
import type { Secrets } from '../../harness/secrets.ts';
import { Inconclusive } from '../../harness/verdicts.ts';
import { accepted } from '../../harness/answers.ts';
import { getAt } from '../../harness/json-pointer.ts';
import type { StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';
import { runScoped } from '../../harness/run-scoped.ts';

type Login = NonNullable<StreamProxySettings['adminLogin']>;

const tokens = runScoped(() => new Map<string, string>());

async function loginToken(who: 'admin' | 'user', login: Login, secrets: Secrets, ctx: AuthenticationContext): Promise<string> {
  const cacheKey = `${ctx.baseUrl} ${who}`;
  const hit = tokens().get(cacheKey);
  if (hit) {
    secrets.add(`${who}Token`, hit);
    return hit;
  }
  const json = Object.fromEntries(Object.entries(login.json).map(([k, v]) => [k, secrets.expand(v)]));
  const r = await ctx.send({ method: login.method, path: login.path, ...(login.method === 'POST' ? { json } : {}), label: `${who} login` });
  // A throttled or failing login is thrown as such (accepted() names it); a refusal, or no token, is the profile's to fix.
  const token = accepted(r, `the ${who} login (${login.method} ${login.path})`) ? getAt(r.json, login.tokenPointer) : undefined;
  if (typeof token !== 'string' || !token) {
    throw new Inconclusive(`the ${who} login (${login.method} ${login.path}) was answered ${r.status}: the checks that need its token cannot judge; check the profile's ${who}Login and credentials`);
  }
  secrets.add(`${who}Token`, token);
  tokens().set(cacheKey, token);
  return token;
}

/** The admin or user token of this profile, or undefined when it names none (web auth off, user UI off). */
export async function tokenFor(who: 'admin' | 'user', secrets: Secrets, ctx: AuthenticationContext): Promise<string | undefined> {
  const settings = ctx.settings as StreamProxySettings;
  const login = who === 'admin' ? settings.adminLogin : settings.userLogin;
  if (login) return loginToken(who, login, secrets, ctx);
  return secrets.has(`${who}Token`) ? secrets.get(`${who}Token`) : undefined;
}

export async function authenticate(request: RequestSpec, secrets: Secrets, ctx: AuthenticationContext): Promise<RequestSpec> {
  const given = request.headers ?? {};
  if (Object.keys(given).some((h) => h.toLowerCase() === 'authorization')) return request;
  const token = await tokenFor(request.credential === 'user' ? 'user' : 'admin', secrets, ctx);
  return token ? { ...request, headers: { Authorization: `Bearer ${token}`, ...given } } : request;
}
