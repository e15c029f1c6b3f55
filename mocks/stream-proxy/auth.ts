// Who may call what. "All endpoints except GET /api/v1/playlist/resource/{resource} require ... Bearer <ADMIN_JWT>",
// "bypassed when web_auth_enabled is false", and the self-service endpoints "take a user token (Bearer <USER_JWT>)
// instead". The tokens themselves come from the profile's secrets (adminToken, userToken): "Endpoints that issue the
// admin or user tokens: not shown". For profiles that log in, POST <prefix>/auth/token trades adminUser and
// adminPassword for the admin token (or, without one, for a fresh token the reference then accepts); under the
// api-login-path reading of B-NS-TOKEN-ISSUING the login is POST <prefix>/api/v1/auth/login instead, answering an
// OAuth-style {access_token, token_type, expires_in}.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import type { StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';
import type { ReadingOf } from './choices.js';
import type { StreamProxyFault } from './faults.js';
import { fail, header, isObject, ok, type Reply } from './replies.js';

export class Auth {
  private readonly adminTokens = new Set<string>();

  constructor(
    private readonly settings: StreamProxySettings,
    private readonly secrets: Record<string, string>,
    private readonly on: (name: StreamProxyFault) => boolean,
    private readonly reading: ReadingOf,
  ) {
    if (secrets.adminToken) this.adminTokens.add(secrets.adminToken);
  }

  /** undefined when an admin endpoint may answer; otherwise the refusal (401 by default). */
  admin(req: http.IncomingMessage): Reply | undefined {
    const token = bearer(req);
    // The fault: one token check for both roles, so the user token opens the admin endpoints too.
    const userToo = this.on('user-token-reaches-admin') && token !== undefined && this.secrets.userToken !== undefined && same(this.secrets.userToken, token);
    const valid = token !== undefined && ([...this.adminTokens].some((t) => same(t, token)) || userToo);
    // The fault: web auth off, yet a request without a token is sent to a login page, as a framework's session guard would.
    if (!this.settings.webAuthEnabled && this.on('web-auth-off-login-redirect') && token === undefined) return { status: 302, text: 'Found. Redirecting to /login', headers: { location: '/login' } };
    if (!this.settings.webAuthEnabled && !this.on('web-auth-always')) {
      // B-NS-BYPASS-WRONG-TOKEN: without web authentication a token is ignored, or (validated-if-present) still
      // checked when one is sent.
      if (token !== undefined && !valid && this.reading('B-NS-BYPASS-WRONG-TOKEN') === 'validated-if-present') return this.refused('wrong', 'The admin token is not valid.');
      return undefined;
    }
    if (token === undefined) return this.refused('missing', 'Authorization: Bearer <admin token> is required.');
    // The fault: the token is checked against a key store the deployment can no longer reach, so the right one is
    // refused like any other.
    if (this.on('admin-token-refused')) return this.refused('wrong', 'The admin token could not be verified.');
    if (!valid) return this.refused('wrong', 'The admin token is not valid.');
    return undefined;
  }

  /** The self-service endpoints: the user token, whatever web_auth_enabled says (it switches admin protection only). */
  user(req: http.IncomingMessage): Reply | undefined {
    const token = bearer(req);
    if (token === undefined) return this.refused('missing', 'Authorization: Bearer <user token> is required.');
    if (this.on('user-token-any')) return undefined;
    if (this.on('user-token-refused')) return this.refused('wrong', 'The user token could not be verified.');
    const expected = this.secrets.userToken;
    if (!expected || !same(expected, token)) return this.refused('wrong', 'The user token is not valid.');
    return undefined;
  }

  /** B-NS-AUTH-STATUS: 401 for every refused token, 403 for a wrong one only, or 403 for both. */
  private refused(why: 'missing' | 'wrong', message: string): Reply {
    const status = this.reading('B-NS-AUTH-STATUS');
    const forbidden = status === 'always-403' || (status === '401-missing-403-wrong' && why === 'wrong');
    return forbidden ? fail(403, message) : fail(401, message, { 'www-authenticate': 'Bearer' });
  }

  /** POST <prefix>/auth/token with {username, password}: the admin token for the admin's credentials. */
  login(body: unknown): Reply {
    const { adminUser, adminPassword } = this.secrets;
    if (!adminUser || !adminPassword) return fail(401, 'This deployment has no admin login; use the admin token.');
    if (!isObject(body) || typeof body.username !== 'string' || typeof body.password !== 'string') return fail(400, 'The body must carry username and password strings.');
    if (!same(adminUser, body.username) || !same(adminPassword, body.password)) return fail(401, 'Wrong username or password.');
    let token = this.secrets.adminToken;
    if (!token) {
      token = randomBytes(24).toString('base64url');
      this.adminTokens.add(token);
    }
    if (this.reading('B-NS-TOKEN-ISSUING') === 'api-login-path') return ok({ access_token: token, token_type: 'Bearer', expires_in: 86400 });
    return ok({ token });
  }
}

function bearer(req: http.IncomingMessage): string | undefined {
  const match = /^Bearer +(\S+)\s*$/i.exec(header(req, 'authorization') ?? '');
  return match?.[1];
}

/** Compares secrets in constant time (their hashes, so that lengths do not matter either). */
function same(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
