// Who may call what. "All endpoints except GET /api/v1/playlist/resource/{resource} require ... Bearer <ADMIN_JWT>",
// "bypassed when web_auth_enabled is false", and the self-service endpoints "take a user token (Bearer <USER_JWT>)
// instead". The tokens themselves come from the profile's secrets (adminToken, userToken): "Endpoints that issue the
// admin or user tokens: not shown". For profiles that log in, POST <prefix>/auth/token trades adminUser and
// adminPassword for the admin token (or, without one, for a fresh token the reference then accepts).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import type { StreamProxySettings } from '../../suites/stream-proxy/settings.ts';
import type { StreamProxyFault } from './faults.js';
import { fail, header, isObject, ok, type Reply } from './replies.js';

export class Auth {
  private readonly adminTokens = new Set<string>();

  constructor(
    private readonly settings: StreamProxySettings,
    private readonly secrets: Record<string, string>,
    private readonly on: (name: StreamProxyFault) => boolean,
  ) {
    if (secrets.adminToken) this.adminTokens.add(secrets.adminToken);
  }

  /** undefined when an admin endpoint may answer; otherwise the 401. */
  admin(req: http.IncomingMessage): Reply | undefined {
    if (!this.settings.webAuthEnabled && !this.on('web-auth-always')) return undefined;
    const token = bearer(req);
    if (token === undefined) return fail(401, 'Authorization: Bearer <admin token> is required.', { 'www-authenticate': 'Bearer' });
    if (![...this.adminTokens].some((t) => same(t, token))) return fail(401, 'The admin token is not valid.', { 'www-authenticate': 'Bearer' });
    return undefined;
  }

  /** The self-service endpoints: the user token, whatever web_auth_enabled says (it switches admin protection only). */
  user(req: http.IncomingMessage): Reply | undefined {
    const token = bearer(req);
    if (token === undefined) return fail(401, 'Authorization: Bearer <user token> is required.', { 'www-authenticate': 'Bearer' });
    if (this.on('user-token-any')) return undefined;
    const expected = this.secrets.userToken;
    if (!expected || !same(expected, token)) return fail(401, 'The user token is not valid.', { 'www-authenticate': 'Bearer' });
    return undefined;
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
