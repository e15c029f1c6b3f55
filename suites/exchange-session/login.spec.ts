import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { Reply } from '../../harness/http/client.ts';
import { ecdsaLoginRequest, freshPayload, hmacLoginRequest, loginRequest, sendLogin, sessionOf, userIdOf } from './auth.ts';
import { test, reqTags, deviation, NotTested, RequirementViolation, type Exchange } from './exchange.ts';
import { strangerKey, strangerSecret } from './keys.ts';

const ECDSA = ['A-LOGIN-ECDSA-OK', 'A-LOGIN-ECDSA-SIGNATURE', 'A-LOGIN-ECDSA-USERID', 'A-LOGIN-ECDSA-EXPIRED', 'A-LOGIN-ECDSA-EXPIRY-WINDOW', 'A-TOKEN-JWT', 'A-TOKEN-LIFETIME'];
const HMAC = ['A-LOGIN-HMAC-OK', 'A-LOGIN-HMAC-SIGNATURE', 'A-TOKEN-JWT', 'A-TOKEN-LIFETIME'];
const DAY_S = 24 * 3600;

/** A refusal is any answer but the documented success (error codes are not shown). */
function refused(r: Reply, what: string, id: string): void {
  if (r.status === 200) throw new RequirementViolation(id, `${what} was answered 200 ${r.text.slice(0, 200)}`, 'a refusal (any status but 200)', [r.exchange]);
}

test.describe('signed logins and the session token', () => {
  test('ECDSA login: the signed payload opens a session; a changed payload, another key, another userId and stale times do not', { tag: reqTags(...ECDSA) }, async ({ exchange: ex, api, secrets, verify, notApplicable }) => {
    const key = await ex.key('ecdsa');
    if (!key) return ECDSA.forEach((id) => notApplicable(id, ex.scope.requirements[id] ?? 'no ECDSA key of the pool came free'));
    let token: string | undefined;
    await verify('A-LOGIN-ECDSA-OK', async () => {
      const r = await sendLogin(api, secrets, key, ecdsaLoginRequest(ex.settings, secrets, key));
      if (r.status !== 200 || !sessionOf(r, secrets, key)) throw deviation(`the correctly signed ECDSA login was answered ${r.status} ${r.text.slice(0, 200)}`, '200 with token and authorizer');
      const body = r.json as { token: string; authorizer?: unknown };
      if (typeof body.authorizer !== 'string' || !body.authorizer) throw deviation('the login answer carries no authorizer', 'token and authorizer');
      token = body.token;
    });
    await tokenChecks(token, verify);
    // A refusal proves something only where the key's own correct login is accepted.
    const control = () => {
      if (!token) throw new NotTested('the correctly signed login was refused too, so a refusal here proves nothing');
    };
    const userId = userIdOf(secrets.get(`${key}_metadata`));
    await verify('A-LOGIN-ECDSA-SIGNATURE', async () => {
      control();
      const signed = freshPayload(userId);
      const changed = { ...signed, nonce: signed.nonce + 1, expirationTime: signed.expirationTime + 1 };
      refused(await sendLogin(api, secrets, key, { ...ecdsaLoginRequest(ex.settings, secrets, key, { payload: changed, signedPayload: signed }), label: 'ECDSA login, payload changed after signing' }), 'a login whose payload was changed after signing', 'A-LOGIN-ECDSA-SIGNATURE');
      refused(await sendLogin(api, secrets, key, { ...ecdsaLoginRequest(ex.settings, secrets, key, { signingKey: strangerKey() }), label: "ECDSA login signed with another key" }), "a login signed with another key's private key", 'A-LOGIN-ECDSA-SIGNATURE');
    });
    await verify('A-LOGIN-ECDSA-USERID', async () => {
      control();
      const other = otherUserId(userId);
      refused(await sendLogin(api, secrets, key, { ...ecdsaLoginRequest(ex.settings, secrets, key, { payload: freshPayload(other) }), label: `ECDSA login as userId ${other}` }), `a correctly signed login with userId ${other}, not the key's`, 'A-LOGIN-ECDSA-USERID');
    });
    const now = Math.floor(Date.now() / 1000);
    await verify('A-LOGIN-ECDSA-EXPIRED', async () => {
      control();
      const stale = { ...freshPayload(userId, now - 600) };
      refused(await sendLogin(api, secrets, key, { ...ecdsaLoginRequest(ex.settings, secrets, key, { payload: stale }), label: 'ECDSA login whose expirationTime passed 5 minutes ago' }), 'a login whose expirationTime passed 5 minutes ago', 'A-LOGIN-ECDSA-EXPIRED');
    });
    await verify('A-LOGIN-ECDSA-EXPIRY-WINDOW', async () => {
      control();
      const long = { ...freshPayload(userId, now), expirationTime: now + 3600 };
      refused(await sendLogin(api, secrets, key, { ...ecdsaLoginRequest(ex.settings, secrets, key, { payload: long }), label: 'ECDSA login with expirationTime an hour after its nonce' }), 'a login whose expirationTime is an hour after its nonce', 'A-LOGIN-ECDSA-EXPIRY-WINDOW');
    });
  });

  test('HMAC login: the signature of timestamp, nonce, GET and path opens a session; another secret does not', { tag: reqTags(...HMAC) }, async ({ exchange: ex, api, secrets, verify, notApplicable }) => {
    const key = await ex.key('hmac');
    if (!key) return HMAC.forEach((id) => notApplicable(id, ex.scope.requirements[id] ?? 'no HMAC key of the pool came free'));
    let token: string | undefined;
    await verify('A-LOGIN-HMAC-OK', async () => {
      const r = await sendLogin(api, secrets, key, hmacLoginRequest(ex.settings, secrets, key, { baseUrl: api.baseUrl }));
      if (r.status !== 200 || !sessionOf(r, secrets, key)) throw deviation(`the correctly signed HMAC login was answered ${r.status} ${r.text.slice(0, 200)}`, '200 with token and authorizer');
      const body = r.json as { token: string; authorizer?: unknown };
      if (typeof body.authorizer !== 'string' || !body.authorizer) throw deviation('the login answer carries no authorizer', 'token and authorizer');
      token = body.token;
    });
    await tokenChecks(token, verify);
    await verify('A-LOGIN-HMAC-SIGNATURE', async () => {
      if (!token) throw new NotTested('the correctly signed login was refused too, so a refusal here proves nothing');
      const r = await sendLogin(api, secrets, key, { ...hmacLoginRequest(ex.settings, secrets, key, { baseUrl: api.baseUrl, secret: strangerSecret() }), label: 'HMAC login signed with another secret' });
      refused(r, 'an HMAC login signed with another secret', 'A-LOGIN-HMAC-SIGNATURE');
    });
  });

  test('a login from outside the key\'s IP whitelist is refused', { tag: reqTags('A-LOGIN-WHITELIST') }, async ({ exchange: ex, api, secrets, verify, notApplicable }) => {
    if (ex.scope.requirements['A-LOGIN-WHITELIST']) return notApplicable('A-LOGIN-WHITELIST', ex.scope.requirements['A-LOGIN-WHITELIST']);
    await verify('A-LOGIN-WHITELIST', async () => {
      if (ex.live) {
        // The profile says the key's whitelist leaves this machine out.
        const key = (await ex.key('hmac', { whitelist: [] })) ?? (await ex.key('ecdsa', { whitelist: [] }));
        if (!key) throw new NotTested('no key with a whitelist that leaves the harness out came free');
        refused(await sendLogin(api, secrets, key, loginRequest(ex.settings, secrets, key, api.baseUrl)), `a login with ${key}, whose whitelist leaves this machine out`, 'A-LOGIN-WHITELIST');
        return;
      }
      // The reference listens on 127.0.0.1; 127.0.0.2 is another loopback address, outside a whitelist of 127.0.0.1.
      for (const type of ['hmac', 'ecdsa'] as const) {
        const key = (await ex.key(type, { whitelist: ['127.0.0.1'] }))!;
        const inside = await sendLogin(api, secrets, key, { ...loginRequest(ex.settings, secrets, key, api.baseUrl), label: `${type.toUpperCase()} login from 127.0.0.1, inside the whitelist` });
        if (inside.status !== 200) throw new NotTested(`the ${type.toUpperCase()} login from inside the whitelist was refused too (${inside.status})`);
        const outside = await sendLogin(api, secrets, key, { ...loginRequest(ex.settings, secrets, key, api.baseUrl), from: '127.0.0.2', label: `${type.toUpperCase()} login from 127.0.0.2, outside the whitelist` });
        refused(outside, `a ${type.toUpperCase()} login from 127.0.0.2 with a key whitelisted for 127.0.0.1`, 'A-LOGIN-WHITELIST');
      }
    });
  });
});

/** "session token (JWT), valid 24 hours": judged on the token the login gave. */
async function tokenChecks(token: string | undefined, verify: (id: string, check: () => Promise<void> | void) => Promise<boolean>): Promise<void> {
  let claims: { iat?: unknown; exp?: unknown } | undefined;
  await verify('A-TOKEN-JWT', () => {
    if (!token) throw new NotTested('the login gave no token');
    try {
      decodeProtectedHeader(token);
      claims = decodeJwt(token);
    } catch (e) {
      throw deviation(`the token is not a JWT: ${(e as Error).message}`, 'a JWT (three base64url parts, a JSON header and payload)');
    }
  });
  await verify('A-TOKEN-LIFETIME', () => {
    if (!claims) throw new NotTested('no JWT payload to read the lifetime from');
    const { iat, exp } = claims;
    if (typeof iat !== 'number' || typeof exp !== 'number') throw new NotTested('the token states no iat and exp: its lifetime cannot be read from it');
    if (Math.abs(exp - iat - DAY_S) > 60) throw deviation(`the token lives ${exp - iat} s (exp ${exp} - iat ${iat})`, `${DAY_S} s (24 hours), within a minute`);
  });
}

/** A user id that is not the key's, of the same shape (digits stay digits). */
function otherUserId(userId: string): string {
  const last = userId.at(-1) ?? '0';
  const swapped = /\d/.test(last) ? String((Number(last) + 1) % 10) : last === 'a' ? 'b' : 'a';
  return `${userId.slice(0, -1)}${swapped}`;
}

export type { Exchange };
