import { randomBytes } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import type { Reply } from '../../harness/http/client.ts';
import { mustBeRefused, pathDoubt, undecidedWhy } from './answers.ts';
import { pathOf, sessionFor } from './auth.ts';
import { test, reqTags, shared, deviation, Inconclusive, NotTested, RequirementViolation } from './exchange.ts';
import { accepted, mustAccept, needAccepted, showed } from '../../harness/answers.ts';
import { dayOf, dayOfSomeZone, nearEdge, nearMidnight, rangeIsDay, rangeOf } from './model.ts';
import { stated } from './stated.ts';

test.describe('sessions, trading accounts and the nonce range', () => {
  test('an authenticated request needs the login\'s token: none, a non-JWT and a foreign JWT are refused', { tag: reqTags('A-TOKEN-REQUIRED') }, async ({ exchange: ex, api, secrets, verify, reading }) => {
    const accounts = pathOf(ex.settings, 'tradingAccounts');
    await verify('A-TOKEN-REQUIRED', async () => {
      const key = await ex.sessionKey();
      const { token } = await sessionFor(secrets, key, api.authenticationContext());
      const control = await api.send({ method: 'GET', path: accounts, headers: { Authorization: `Bearer ${token}` }, label: "trading accounts with the login's token (control)" });
      needAccepted(control, "the trading accounts with the login's own token (the control)", { why: 'a refusal of the others would prove nothing' });
      const foreign = await foreignToken(token);
      secrets.add(`${key}_foreignToken`, foreign);
      const tries: Array<[string, Record<string, string | undefined>]> = [
        ['no Authorization header', { Authorization: undefined }],
        ['a token that is not a JWT', { Authorization: 'Bearer not-a-jwt' }],
        ['a JWT with the same claims signed with a key the target never had', { Authorization: `Bearer ${foreign}` }],
      ];
      for (const [what, headers] of tries) {
        const r = await api.send({ method: 'GET', path: accounts, headers, label: `trading accounts with ${what}` });
        mustBeRefused(r, 'A-TOKEN-REQUIRED', `the trading accounts asked for with ${what}`, { control });
        if (showed(r, 401)) reading('A-NS-AUTH-STATUS', 'unauthorized');
        else if (showed(r, 403)) reading('A-NS-AUTH-STATUS', 'forbidden');
      }
    });
  });

  // Every response is validated against the spec as it arrives; this test also answers for that (GEN-SCHEMA, GEN-CONTENT-TYPE).
  test('trading accounts carry tradingAccountId and rateLimitToken; presenting that token breaks nothing', { tag: reqTags('A-ACCOUNTS-FIELDS', 'A-RATELIMIT-TOKEN', 'A-GEN-SCHEMA', 'A-GEN-CONTENT-TYPE') }, async ({ exchange: ex, verify, reading }) => {
    const session = shared(() => ex.sessionKey());
    let tokenToPresent: string | undefined;
    await verify('A-ACCOUNTS-FIELDS', async () => {
      const r = await ex.read(await session(), 'tradingAccounts');
      const doubt = pathDoubt(r, 'tradingAccounts');
      if (doubt) throw new NotTested(doubt);
      mustAccept(r, 'the trading accounts', { expected: '200 with an array of trading accounts' });
      if (!Array.isArray(r.json)) throw deviation(`the trading accounts were answered ${r.status} without an array: ${r.text.slice(0, 200)}`, '200 with an array of trading accounts');
      const list = r.json as Array<Record<string, unknown> | null>;
      if (list.length === 0) throw new NotTested('the key\'s user has no trading account to look at');
      const bad = list.filter((a) => !a || a.tradingAccountId === undefined || a.rateLimitToken === undefined);
      if (bad.length) throw deviation(`${bad.length} of ${list.length} trading accounts lack tradingAccountId or rateLimitToken: ${JSON.stringify(bad[0]).slice(0, 200)}`, 'both members on every element');
      const first = list[0]!;
      const more = Object.keys(first).filter((k) => k !== 'tradingAccountId' && k !== 'rateLimitToken');
      const fields = more.length === 0 ? 'documented-only' : more.includes('isPrimaryAccount') || more.includes('tradingAccountName') ? 'name-and-primary-flag' : undefined;
      reading('A-NS-ACCOUNT-FIELDS', fields, fields ? undefined : `also ${more.join(', ')}`);
      reading('A-NS-ID-TYPES', typeof first.tradingAccountId === 'number' ? 'integers' : 'digit-strings');
      tokenToPresent = String(first.rateLimitToken);
    });
    const PRESENTED = 'the token presented on a read answered 200 without it (the control)';
    await verify('A-RATELIMIT-TOKEN', async (seen) => {
      const key = await session();
      if (!tokenToPresent) throw new NotTested('no trading account gave a rateLimitToken to present');
      let presented = 0;
      const undecided: string[] = [];
      for (const which of ['tradingAccounts', 'nonce'] as const) {
        // The control: the same read without the token, accepted. One that decides nothing (a throttle, a server
        // error) or is refused leaves this read out.
        const without = await ex.read(key, which);
        const why = undecidedWhy(without, `${which} without the token`);
        if (why) undecided.push(why);
        if (why || !accepted(without)) continue;
        presented++;
        const withToken = await ex.read(key, which, { headers: { 'BX-RATELIMIT-TOKEN': tokenToPresent }, label: `${which} presenting a rateLimitToken` });
        if (!accepted(withToken, `${which} presenting BX-RATELIMIT-TOKEN`)) throw new RequirementViolation('A-RATELIMIT-TOKEN', `${which} presenting BX-RATELIMIT-TOKEN was refused ${withToken.status} (accepted without it)`, '200, as without it', [without.exchange, withToken.exchange]);
        seen(PRESENTED);
      }
      // Never presented because the reads decided nothing: the environment's trouble (else the recorder says not tested).
      if (presented === 0 && undecided.length) throw new Inconclusive(`the token was never presented: no read was accepted without it (${undecided.join('; ')})`);
    }, { needs: [PRESENTED] });
  });

  test('the nonce range is the current day in epoch microseconds', { tag: reqTags('A-NONCE-RANGE-DAY') }, async ({ exchange: ex, verify, reading }) => {
    await verify('A-NONCE-RANGE-DAY', async () => {
      const key = await ex.sessionKey();
      const zone = ex.settings.nonceTimeZone;
      // Where the profile leaves the zone of "the current day" unstated, the day of any zone will do (A-NS-DAY).
      const anyZone = !stated('nonceTimeZone');
      const asked = new Date();
      const r = await ex.read(key, 'nonce');
      const answered = new Date();
      // What decides nothing (a throttle, a server error) is thrown here, never read as a wrong range.
      const range = accepted(r, 'the nonce range') ? rangeOf(r.json) : undefined;
      const day = dayOf(asked, zone);
      const someDay = range && anyZone ? dayOfSomeZone(range.lower, range.upper, asked) : undefined;
      const near = someDay ? nearEdge(someDay, asked) || nearEdge(someDay, answered) : nearMidnight(asked, zone) || nearMidnight(answered, zone);
      if (near) throw new NotTested(`asked within a minute of midnight (${someDay ? 'the reported day\'s' : zone}): the target may count either day`);
      const doubt = pathDoubt(r, 'nonce');
      if (doubt) throw new NotTested(doubt);
      if (!range || !(rangeIsDay(range.lower, range.upper, day) || someDay)) {
        const expected = `200 with lowerBound ${day.start} and upperBound ${day.end - 1n} or ${day.end} (the day in ${zone}, epoch microseconds)${anyZone ? ', or the current day of another time zone (the profile states none)' : ''}`;
        throw new RequirementViolation('A-NONCE-RANGE-DAY', `the nonce range was answered ${r.status} ${r.text.slice(0, 200)}`, expected, [r.exchange]);
      }
      const utc = dayOf(asked, 'UTC');
      reading('A-NS-DAY', rangeIsDay(range.lower, range.upper, utc) ? 'utc' : 'exchange-local-zone');
      reading('A-NS-NONCE-RANGE-TYPES', typeof (r.json as { lowerBound?: unknown }).lowerBound === 'string' ? 'digit-strings' : 'numbers');
      reading('A-NS-DAY-END', range.upper === (someDay ?? day).end ? 'next-midnight' : 'last-microsecond');
    });
  });

  test('ECDSA keys reach custody and trading endpoints; HMAC keys trading endpoints only', { tag: reqTags('A-KEY-SCOPE-HMAC', 'A-KEY-SCOPE-ECDSA') }, async ({ exchange: ex, api, secrets, verify, notApplicable, reading }) => {
    for (const id of ['A-KEY-SCOPE-HMAC', 'A-KEY-SCOPE-ECDSA']) if (ex.scope.requirements[id]) notApplicable(id, ex.scope.requirements[id]);
    if (ex.settings.paths.custody === undefined) return;
    const sessionOfType = async (type: 'hmac' | 'ecdsa') => {
      const key = await ex.key(type);
      if (!key) return undefined;
      await sessionFor(secrets, key, api.authenticationContext());
      return key;
    };
    // The custody endpoint answering an ECDSA session: the control beside which an HMAC session's refusal there counts.
    let custodyReached: string | undefined;
    let ecdsaTried = false;
    const ecdsaAtCustody = async (): Promise<Reply[]> => {
      ecdsaTried = true;
      const key = await sessionOfType('ecdsa');
      if (!key) throw new NotTested('no ECDSA key of the pool came free');
      const custody = await ex.read(key, 'custody');
      if (accepted(custody, 'the custody endpoint with an ECDSA session')) custodyReached = key;
      return [custody, await ex.read(key, 'tradingAccounts')];
    };
    if (!ex.scope.requirements['A-KEY-SCOPE-ECDSA']) {
      await verify('A-KEY-SCOPE-ECDSA', async () => {
        const refused = (await ecdsaAtCustody()).filter((r) => !accepted(r, `${r.exchange.requestPath} with an ECDSA session`));
        if (refused.length) throw new RequirementViolation('A-KEY-SCOPE-ECDSA', `an ECDSA session was answered ${refused.map(statusLine).join(' and ')}`, '200 on the custody and the trading endpoint', refused.map((r) => r.exchange));
      });
    }
    if (!ex.scope.requirements['A-KEY-SCOPE-HMAC']) {
      await verify('A-KEY-SCOPE-HMAC', async () => {
        if (!ecdsaTried) await ecdsaAtCustody();
        if (!custodyReached) throw new NotTested('no ECDSA session reached the custody endpoint, so a refusal of an HMAC session there proves nothing');
        const key = await sessionOfType('hmac');
        if (!key) throw new NotTested('no HMAC key of the pool came free');
        const trading = await ex.read(key, 'tradingAccounts');
        needAccepted(trading, 'the trading accounts with the HMAC session (the control)', { why: 'a refusal at custody would prove nothing' });
        const custody = await ex.read(key, 'custody');
        mustBeRefused(custody, 'A-KEY-SCOPE-HMAC', `an HMAC session's request to the custody endpoint ${ex.settings.paths.custody}`, { control: { accepted: 'an ECDSA session reached the custody endpoint, and this HMAC session the trading endpoint' } });
        const scopeStatus = ({ 403: 'forbidden', 401: 'unauthorized', 404: 'not-found' } as Record<number, string>)[custody.status];
        reading('A-NS-SCOPE-STATUS', scopeStatus, scopeStatus ? undefined : `refused ${custody.status}`);
      });
    }
  });
});

const statusLine = (r: Reply) => `${r.exchange.request.method} ${r.exchange.requestPath}: ${r.status}`;

/** A JWT with the real token's header and claims, signed with a key the target never had. */
async function foreignToken(real: string): Promise<string> {
  let claims: Record<string, unknown> = { sub: 'conformance-foreign' };
  let alg = 'HS256';
  try {
    claims = decodeJwt(real) as Record<string, unknown>;
    alg = decodeProtectedHeader(real).alg ?? alg;
  } catch {
    // not a JWT: the same made-up claims then
  }
  // An HMAC algorithm keeps it simple whatever the target uses; the header names it honestly.
  return new SignJWT(claims).setProtectedHeader({ alg: alg.startsWith('HS') ? alg : 'HS256', typ: 'JWT' }).sign(randomBytes(32));
}
