import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { RequirementId } from '../../generated/exchange-session.ts';
import type { Client, RequestSpec } from '../../harness/http/client.ts';
import type { Secrets } from '../../harness/secrets.ts';
import { accepted } from '../../harness/answers.ts';
import { mustBeRefused, pathDoubt } from './answers.ts';
import { ecdsaLoginRequest, freshPayload, hmacLoginRequest, loginRequest, metadataForm, sendLogin, tryLogin, type LoginOutcome } from './auth.ts';
import { test, reqTags, deviation, Inconclusive, NotTested, RequirementViolation, type Exchange } from './exchange.ts';
import { describeForm, formReadings } from './forms.ts';
import { strangerKey, strangerSecret } from './keys.ts';
import { excludedKeyRefusal } from './whitelist.ts';
import type { ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';
import { stated } from './stated.ts';

const ECDSA: RequirementId[] = ['A-LOGIN-ECDSA-OK', 'A-LOGIN-ECDSA-SIGNATURE', 'A-LOGIN-ECDSA-USERID', 'A-LOGIN-ECDSA-EXPIRED', 'A-LOGIN-ECDSA-EXPIRY-WINDOW', 'A-TOKEN-JWT', 'A-TOKEN-LIFETIME'];
const HMAC: RequirementId[] = ['A-LOGIN-HMAC-OK', 'A-LOGIN-HMAC-SIGNATURE', 'A-TOKEN-JWT', 'A-TOKEN-LIFETIME'];
const DAY_S = 24 * 3600;
/** How far a token's exp may be from 24 hours after the login's answer, where it states no iat: clocks and rounding. */
const CLOCKS_APART_S = 120;

type Reading = (point: string, reading: string | undefined, detail?: string) => void;
type Verify = (id: string, check: () => Promise<void> | void) => Promise<boolean>;

/**
 * The documented login of a key, in each form the profile leaves open (forms.ts): it must open a session in one of
 * them. Returns the form the target took and its token; what it shows of the open points it meets is recorded.
 */
async function documentedLogin(ex: Exchange, api: Client, secrets: Secrets, key: string, id: 'A-LOGIN-ECDSA-OK' | 'A-LOGIN-HMAC-OK', reading: Reading): Promise<Login> {
  const type = id === 'A-LOGIN-ECDSA-OK' ? 'ecdsa' : 'hmac';
  const outcome = await tryLogin((r) => api.send(r), secrets, key, { baseUrl: api.baseUrl, settings: ex.settings });
  const last = outcome.attempts.at(-1)!.reply;
  if (!outcome.session || !outcome.form) {
    const doubt = type === 'ecdsa' ? pathDoubt(last, 'ecdsaLogin') : undefined;
    throw doubt ? new NotTested(doubt) : refusedEverywhere(outcome, type, id);
  }
  const body = last.json as Record<string, unknown>;
  if (typeof body.authorizer !== 'string' || !body.authorizer) throw deviation('the login answer carries no authorizer', 'token and authorizer');
  for (const [point, r, detail] of formReadings(outcome.form, type)) reading(point, r, detail);
  reading('A-NS-LOGIN-RESPONSE', Object.keys(body).every((k) => k === 'token' || k === 'authorizer') ? 'token-and-authorizer' : 'with-session-details');
  // When the token was issued, by the target's clock where its answer says (Date), else by this machine's.
  const date = Date.parse(last.headers.date ?? '');
  return { form: outcome.form, token: outcome.session.token, issuedAt: Math.floor((Number.isNaN(date) ? Date.now() : date) / 1000) };
}

interface Login {
  form: ExchangeSessionSettings;
  token: string;
  /** Epoch seconds the login was answered. */
  issuedAt: number;
}

/** The control of every login refusal here: the key's own correct login, in the same form, opened a session first. */
const CORRECT_LOGIN = { accepted: "the key's own correctly signed login, in the same form, opened a session" };

/** A documented login no form opened a session with. */
function refusedEverywhere(outcome: LoginOutcome, type: 'ecdsa' | 'hmac', id: string): RequirementViolation {
  const tried = outcome.attempts.map((a) => `${a.reply.status} (${describeForm(a.form, type)})`);
  const what = `the correctly signed ${type.toUpperCase()} login was answered ${tried.join(', ')}`;
  const hint = outcome.attempts.length > 1 ? ": every form the spec's readings list was tried (state the profile's signature settings if the deployment signs otherwise)" : '';
  return new RequirementViolation(id, `${what}${hint}`, '200 with token and authorizer', outcome.attempts.map((a) => a.reply.exchange));
}

test.describe('signed logins and the session token', () => {
  test('ECDSA login: the signed payload opens a session; a changed payload, another key, another userId and stale times do not', { tag: reqTags(...ECDSA) }, async ({ exchange: ex, api, secrets, verify, notApplicable, reading }) => {
    const key = await ex.key('ecdsa');
    if (!key) return ECDSA.forEach((id) => notApplicable(id, ex.scope.requirements[id] ?? 'no ECDSA key of the pool came free'));
    let login: Login | undefined;
    await verify('A-LOGIN-ECDSA-OK', async () => {
      reading('A-NS-KEY-METADATA', metadataForm(secrets.get(`${key}_metadata`)).form);
      login = await documentedLogin(ex, api, secrets, key, 'A-LOGIN-ECDSA-OK', reading);
    });
    await tokenChecks(login, verify, reading);
    // A refusal proves something only where the key's own correct login is accepted (in the same form).
    const control = (): ExchangeSessionSettings => {
      if (!login) throw new NotTested('the correctly signed login was refused too, so a refusal here proves nothing');
      return login.form;
    };
    const send = (form: ExchangeSessionSettings, o: Parameters<typeof ecdsaLoginRequest>[3], label: string) => sendLogin(api, secrets, key, { ...ecdsaLoginRequest(form, secrets, key, o), label });
    const userId = () => metadataForm(secrets.get(`${key}_metadata`)).userId;
    await verify('A-LOGIN-ECDSA-SIGNATURE', async () => {
      const form = control();
      const signed = freshPayload(userId());
      const changed = { ...signed, nonce: signed.nonce + 1, expirationTime: signed.expirationTime + 1 };
      mustBeRefused(await send(form, { payload: changed, signedPayload: signed }, 'ECDSA login, payload changed after signing'), 'A-LOGIN-ECDSA-SIGNATURE', 'a login whose payload was changed after signing', { control: CORRECT_LOGIN });
      mustBeRefused(await send(form, { signingKey: strangerKey() }, 'ECDSA login signed with another key'), 'A-LOGIN-ECDSA-SIGNATURE', "a login signed with another key's private key", { control: CORRECT_LOGIN });
    });
    await verify('A-LOGIN-ECDSA-USERID', async () => {
      const form = control();
      const other = otherUserId(userId());
      mustBeRefused(await send(form, { payload: freshPayload(other) }, `ECDSA login as userId ${other}`), 'A-LOGIN-ECDSA-USERID', `a correctly signed login with userId ${other}, not the key's`, { control: CORRECT_LOGIN });
    });
    const now = Math.floor(Date.now() / 1000);
    await verify('A-LOGIN-ECDSA-EXPIRED', async () => {
      const form = control();
      mustBeRefused(await send(form, { payload: freshPayload(userId(), now - 600) }, 'ECDSA login whose expirationTime passed 5 minutes ago'), 'A-LOGIN-ECDSA-EXPIRED', 'a login whose expirationTime passed 5 minutes ago', { control: CORRECT_LOGIN });
    });
    if (ex.scope.requirements['A-LOGIN-ECDSA-EXPIRY-WINDOW']) return notApplicable('A-LOGIN-ECDSA-EXPIRY-WINDOW', ex.scope.requirements['A-LOGIN-ECDSA-EXPIRY-WINDOW']);
    await verify('A-LOGIN-ECDSA-EXPIRY-WINDOW', async () => {
      const form = control();
      const r = await send(form, { payload: { ...freshPayload(userId(), now), expirationTime: now + 3600 } }, 'ECDSA login with expirationTime an hour after its nonce');
      // The document states the 5 minutes as a client rule: a deployment may check only that the expiry has not passed.
      if (accepted(r, 'the login whose expirationTime is an hour after its nonce')) {
        reading('A-NS-LOGIN-WINDOW', 'expiry-only');
        if (!stated('loginWindowEnforced')) {
          throw new NotTested('the target accepts a login whose expirationTime is an hour after its nonce; the document states the 5 minutes as a client rule, so the target is held to it only where the profile says it enforces it (settings.loginWindowEnforced: true)');
        }
      }
      mustBeRefused(r, 'A-LOGIN-ECDSA-EXPIRY-WINDOW', 'a login whose expirationTime is an hour after its nonce', { control: CORRECT_LOGIN });
    });
  });

  test('HMAC login: the signature of timestamp, nonce, GET and path opens a session; another secret does not', { tag: reqTags(...HMAC) }, async ({ exchange: ex, api, secrets, verify, notApplicable, reading }) => {
    const key = await ex.key('hmac');
    if (!key) return HMAC.forEach((id) => notApplicable(id, ex.scope.requirements[id] ?? 'no HMAC key of the pool came free'));
    let login: Login | undefined;
    await verify('A-LOGIN-HMAC-OK', async () => {
      login = await documentedLogin(ex, api, secrets, key, 'A-LOGIN-HMAC-OK', reading);
    });
    await tokenChecks(login, verify, reading);
    await verify('A-LOGIN-HMAC-SIGNATURE', async () => {
      if (!login) throw new NotTested('the correctly signed login was refused too, so a refusal here proves nothing');
      const r = await sendLogin(api, secrets, key, { ...hmacLoginRequest(login.form, secrets, key, { baseUrl: api.baseUrl, secret: strangerSecret() }), label: 'HMAC login signed with another secret' });
      mustBeRefused(r, 'A-LOGIN-HMAC-SIGNATURE', 'an HMAC login signed with another secret', { control: CORRECT_LOGIN });
    });
  });

  test('a login from outside the key\'s IP whitelist is refused', { tag: reqTags('A-LOGIN-WHITELIST') }, async ({ exchange: ex, api, secrets, verify, notApplicable }) => {
    if (ex.scope.requirements['A-LOGIN-WHITELIST']) return notApplicable('A-LOGIN-WHITELIST', ex.scope.requirements['A-LOGIN-WHITELIST']);
    const login = (key: string, shape?: (r: RequestSpec) => RequestSpec) =>
      tryLogin((r) => api.send(r), secrets, key, { baseUrl: api.baseUrl, settings: ex.settings, shape });
    await verify('A-LOGIN-WHITELIST', async () => {
      if (ex.live) {
        // The profile says the key's whitelist leaves this machine out. The harness cannot send from inside it: the
        // control is a key of the same type whose whitelist holds this machine, logging in from here in the same form,
        // and the refusal counts only where the target answers it otherwise than a wrong signature (whitelist.ts).
        const undecided: string[] = [];
        for (const type of ['hmac', 'ecdsa'] as const) {
          const outside = await ex.key(type, { whitelist: [] });
          if (!outside) continue;
          const inside = await ex.key(type);
          const opened = inside ? await login(inside) : undefined;
          if (!opened?.form) throw new NotTested(`no ${type.toUpperCase()} key of the pool whose whitelist holds this machine could log in: a refusal of ${outside} would prove nothing`);
          const form = opened.form;
          const TYPE = type.toUpperCase();
          const send = (label: string, wrong: boolean) => {
            const request = type === 'hmac' ? hmacLoginRequest(form, secrets, outside, { baseUrl: api.baseUrl, ...(wrong ? { secret: strangerSecret() } : {}) }) : ecdsaLoginRequest(form, secrets, outside, wrong ? { signingKey: strangerKey() } : {});
            return sendLogin(api, secrets, outside, { ...request, label });
          };
          const before = await send(`${TYPE} login with ${outside}, signed with a secret nobody has`, true);
          const own = await send(`${TYPE} login with ${outside}, whose whitelist leaves this machine out`, false);
          const after = await send(`${TYPE} login with ${outside}, signed with a secret nobody has, again`, true);
          // Any login from outside the whitelist accepted breaks the rule, whatever its signature.
          const control = { accepted: `a ${TYPE} key whose whitelist holds this machine logged in from here in the same form` };
          for (const [r, what] of [[own, `a login with ${outside}, whose whitelist leaves this machine out`], [before, `a wrongly signed login with ${outside}`], [after, `a wrongly signed login with ${outside}`]] as const) {
            mustBeRefused(r, 'A-LOGIN-WHITELIST', what, { control });
          }
          const told = excludedKeyRefusal(own, [before, after], outside);
          if (told.counts) return;
          undecided.push(told.why);
        }
        if (undecided.length) throw new Inconclusive(undecided.join('; '));
        throw new NotTested('no key with a whitelist that leaves the harness out came free');
      }
      // The reference listens on 127.0.0.1; 127.0.0.2 is another loopback address, outside a whitelist of 127.0.0.1.
      for (const type of ['hmac', 'ecdsa'] as const) {
        const key = (await ex.key(type, { whitelist: ['127.0.0.1'] }))!;
        const inside = await login(key, (r) => ({ ...r, label: `${type.toUpperCase()} login from 127.0.0.1, inside the whitelist` }));
        if (!inside.form) throw new NotTested(`the ${type.toUpperCase()} login from inside the whitelist was refused too (${inside.attempts.map((a) => a.reply.status).join(', ')})`);
        const outside = await sendLogin(api, secrets, key, { ...loginRequest(inside.form, secrets, key, api.baseUrl), from: '127.0.0.2', label: `${type.toUpperCase()} login from 127.0.0.2, outside the whitelist` });
        mustBeRefused(outside, 'A-LOGIN-WHITELIST', `a ${type.toUpperCase()} login from 127.0.0.2 with a key whitelisted for 127.0.0.1`, { control: inside.attempts.at(-1)!.reply });
      }
    });
  });
});

/**
 * "session token (JWT), valid 24 hours": judged on the token the login gave. Its lifetime is exp - iat where it states
 * both; a token without iat (not shown that it has one) is held to exp 24 hours after the login was answered, give or
 * take the clocks' difference.
 */
async function tokenChecks(login: Login | undefined, verify: Verify, reading: Reading): Promise<void> {
  let claims: { iat?: unknown; exp?: unknown } | undefined;
  await verify('A-TOKEN-JWT', () => {
    if (!login) throw new NotTested('the login gave no token');
    try {
      const { alg } = decodeProtectedHeader(login.token);
      claims = decodeJwt(login.token);
      const claimsReading = alg === 'HS256' && claims.iat !== undefined ? 'hs256-with-iat' : alg === 'ES256' && claims.iat === undefined ? 'es256-without-iat' : undefined;
      reading('A-NS-TOKEN-CLAIMS', claimsReading, claimsReading ? undefined : `${alg}, ${claims.iat === undefined ? 'no iat' : 'with iat'}`);
    } catch (e) {
      throw deviation(`the token is not a JWT: ${(e as Error).message}`, 'a JWT (three base64url parts, a JSON header and payload)');
    }
  });
  await verify('A-TOKEN-LIFETIME', () => {
    if (!claims || !login) throw new NotTested('no JWT payload to read the lifetime from');
    const { iat, exp } = claims;
    if (typeof exp !== 'number') throw new NotTested('the token states no exp: its lifetime cannot be read from it');
    if (typeof iat === 'number') {
      if (Math.abs(exp - iat - DAY_S) > 60) throw deviation(`the token lives ${exp - iat} s (exp ${exp} - iat ${iat})`, `${DAY_S} s (24 hours), within a minute`);
      return;
    }
    if (Math.abs(exp - login.issuedAt - DAY_S) > CLOCKS_APART_S) {
      throw deviation(`the token, issued at about ${login.issuedAt} (the login's answer), expires at ${exp}: ${exp - login.issuedAt} s later`, `${DAY_S} s (24 hours) after the login, within ${CLOCKS_APART_S} s`);
    }
  });
}

/** A user id that is not the key's, of the same shape (digits stay digits). */
function otherUserId(userId: string): string {
  const last = userId.at(-1) ?? '0';
  const swapped = /\d/.test(last) ? String((Number(last) + 1) % 10) : last === 'a' ? 'b' : 'a';
  return `${userId.slice(0, -1)}${swapped}`;
}

export type { Exchange };
