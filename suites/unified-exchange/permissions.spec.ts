/**
 * "Public market-data operations need no credentials. All other operations need an API key, an API secret and an API
 * passphrase. Trading operations need a key with trading permission; copy-trading operations need futures
 * copy-trading permission. Broker operations need a master account of the broker user type." Every refusal is judged
 * beside its control: the same request, correctly signed with a key the operation serves, accepted.
 */
import { randomBytes } from 'node:crypto';
import { deviation, NotTested } from '../../harness/verdicts.ts';
import { accepted, answerKind, describeAnswer, mustBeRefused, needAccepted } from '../../harness/answers.ts';
import { specRequest } from '../../harness/generic/define.ts';
import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import { test } from './test.ts';
import { reqTags } from './tags.ts';
import { bodyOf, forged, hasRole, headerOf } from './auth.ts';
import { withOpenOrders } from './open-orders.ts';
import { sendPatiently, withBrokerRate } from './patient.ts';
import { settingsOf, stated, rolesOf, tradeKeyLacksCopyTrading } from './profile.ts';
import { cancelRequest, farOrder, freshClientOid, lookupRequest, orderIdOf, placeRequest, readQuery, servedOp, withQuery } from './requests.ts';
import { uxScope } from './scope.ts';
import { guarded } from './guarded.ts';

const made = (what: string) => `conformance${what}${randomBytes(6).toString('hex')}`;
const INFO = '/api/v3/account/info';

test.describe('credentials', () => {
  test('public market data is answered without any credential', { tag: reqTags('U-AUTH-PUBLIC') }, async ({ api, spec, profile, verify }) => {
    const s = settingsOf(profile);
    await verify('U-AUTH-PUBLIC', async () => {
      for (const op of spec.operations.filter((o) => o.security.length === 0)) {
        const prepared = specRequest(spec, op, readQuery(op.operationId!, s) ?? {});
        if (!('request' in prepared)) continue;
        const bare: RequestSpec = { ...prepared.request, authenticate: false, label: `${op.key} without credentials` };
        const r = await sendPatiently(api, bare, s);
        if (accepted(r, `${op.key} without credentials`)) continue;
        // The same request signed: if it is refused too, the refusal is about the request (a symbol), not the credentials.
        const signed = await sendPatiently(api, { ...prepared.request, authenticate: true, label: `${op.key}, signed: is the refusal about credentials?` }, s);
        needAccepted(signed, `${op.key}, refused without credentials (${r.status}), and signed too,`, { why: 'the request itself is refused, not its lack of credentials' });
        throw deviation(`${op.key} was answered ${describeAnswer(r)} without credentials, and accepted signed`, 'a success without any credential');
      }
    });
  });

  test('private operations refuse a request without its key, signature, timestamp or passphrase', { tag: reqTags('U-AUTH-REQUIRED') }, async ({ api, profile, verify }) => {
    const s = settingsOf(profile);
    const reads = [INFO, '/api/v3/account/assets', withQuery('/api/v3/account/funding-assets', { coin: s.markets.coins.quote })];
    await verify('U-AUTH-REQUIRED', async () => {
      for (const path of reads) {
        const refusals: Array<{ part: string; r: Reply }> = [];
        for (const part of ['key', 'sign', 'timestamp', 'passphrase'] as const) {
          const header = headerOf(s, part);
          refusals.push({ part: header, r: await api.send({ method: 'GET', path, authenticate: true, headers: { [header]: undefined }, label: `GET ${path} without ${header}` }) });
        }
        const control = await sendPatiently(api, { method: 'GET', path, authenticate: true, label: `GET ${path} with all four: the control` }, s);
        for (const { part, r } of refusals) mustBeRefused('U-AUTH-REQUIRED', r, `GET ${path} without ${part}`, { control });
      }
    });
  });

  test('an unknown key, another secret and another passphrase are refused', { tag: reqTags('U-AUTH-UNKNOWN-KEY', 'U-AUTH-SECRET', 'U-AUTH-PASSPHRASE') }, async ({ api, secrets, profile, verify }) => {
    const ctx = api.authenticationContext();
    const request: RequestSpec = { method: 'GET', path: INFO };
    const cases = [
      { id: 'U-AUTH-UNKNOWN-KEY', what: 'signed with a key the deployment never issued', o: { apiKey: made('key'), secret: made('secret'), passphrase: made('pass') } },
      { id: 'U-AUTH-SECRET', what: "signed with another secret than the key's", o: { secret: made('secret') } },
      { id: 'U-AUTH-PASSPHRASE', what: "correctly signed, with another passphrase than the key's", o: { passphrase: made('pass') } },
    ] as const;
    for (const c of cases) {
      await verify(c.id, async () => {
        const r = await api.send({ ...forged(request, secrets, ctx, c.o), label: `GET ${INFO} ${c.what}` });
        const control = await sendPatiently(api, { ...request, authenticate: true, label: `GET ${INFO} correctly signed: the control` }, settingsOf(profile));
        mustBeRefused(c.id, r, `GET ${INFO} ${c.what}`, { control });
      });
    }
  });

  test('a request changed after it was signed is refused', { tag: reqTags('U-AUTH-TAMPERED') }, async ({ api, spec, secrets, profile, writes, verify }) => {
    const s = settingsOf(profile);
    const ctx = api.authenticationContext();
    const funding = (coin: string) => withQuery('/api/v3/account/funding-assets', { coin });
    const get = (path: string): RequestSpec => ({ method: 'GET', path });
    const now = Date.now();
    const cases: Array<{ what: string; request: RequestSpec; o: Parameters<typeof forged>[3] }> = [
      { what: 'its timestamp', request: get(INFO), o: { timestamp: String(now), signed: { timestamp: String(now - 1) } } },
      { what: 'its method', request: get(INFO), o: { signed: { method: 'POST' } } },
      { what: 'its path', request: get(INFO), o: { signed: { path: '/api/v3/account/assets' } } },
      { what: 'its query', request: get(funding(s.markets.coins.quote)), o: { signed: { path: funding(s.markets.coins.base) } } },
      // A query added to a request signed without one: the signature must cover the query, not only the path.
      { what: 'its query (signed without one)', request: get(funding(s.markets.coins.quote)), o: { signed: { path: '/api/v3/account/funding-assets' } } },
    ];
    // The body, where orders may be placed (by a trading key): an order whose signature covers another client id. The
    // order and its control rest far from the market, and are cancelled (by client id) when the test ends.
    if (writes.allowed && s.funded && hasRole(secrets, 'trade')) {
      const sent = farOrder(s, { clientOid: freshClientOid() });
      const signedBody = bodyOf({ json: { ...sent, clientOid: freshClientOid() } });
      cases.push({ what: 'its body', request: placeRequest(spec, sent), o: { signed: { body: signedBody } } });
    }
    const cancelAtEnd = (request: RequestSpec) => {
      const clientOid = (request.json as { clientOid?: string } | undefined)?.clientOid;
      if (clientOid) writes.undo('POST /api/v3/trade/place-order', `cancel order ${clientOid}`, async () => void (await api.send({ ...cancelRequest(spec, s, { clientOid }), label: `undo: cancel order ${clientOid}` })));
    };
    await verify('U-AUTH-TAMPERED', async () => {
      for (const c of cases) {
        cancelAtEnd(c.request);
        const r = await api.send({ ...forged(c.request, secrets, ctx, c.o), label: `${c.request.method} ${c.request.path}, ${c.what} changed after signing` });
        // The control: the same request signed as sent (an order gets a client id of its own: one id places one order).
        const again = c.request.json ? { ...c.request, json: { ...(c.request.json as object), clientOid: freshClientOid() } } : c.request;
        cancelAtEnd(again);
        const control = await sendPatiently(api, { ...again, authenticate: true, label: `${c.request.method} ${c.request.path} correctly signed: the control` }, s);
        mustBeRefused('U-AUTH-TAMPERED', r, `a request whose ${c.what} changed after signing`, { control });
      }
    });
  });

  test('a correctly signed request with a stale timestamp', { tag: reqTags('U-AUTH-TIMESTAMP-STALE') }, async ({ api, secrets, profile, verify, advise, reading, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
    const window = settingsOf(profile).signing.timestampWindowMs;
    const id = 'U-AUTH-TIMESTAMP-STALE';
    if (stated(profile, 'signing.timestampWindowMs') && window === 0) {
      advise(id, 'the profile states that the signed timestamp is not checked (settings.signing.timestampWindowMs: 0): a captured request stays valid for ever and can be replayed');
      return;
    }
    const request: RequestSpec = { method: 'GET', path: INFO };
    const send = async (ageMs: number) => {
      const r = await api.send({ ...forged(request, secrets, api.authenticationContext(), { timestamp: String(Date.now() - ageMs) }), label: `GET ${INFO} signed ${Math.round(ageMs / 1000)} s ago` });
      const control = await sendPatiently(api, { ...request, authenticate: true, label: `GET ${INFO} signed now: the control` }, settingsOf(profile));
      return { r, control };
    };
    // Stated: a timestamp well outside the window (twice it, and a minute for the clocks' difference) must be refused.
    if (stated(profile, 'signing.timestampWindowMs')) {
      const age = 2 * window + 60_000;
      await verify(id, async () => {
        const { r, control } = await send(age);
        mustBeRefused(id, r, `GET ${INFO} signed ${age / 1000} s ago (the stated window is ${window / 1000} s)`, { control });
      });
      return;
    }
    // Unstated, one reading of U-NS-TIMESTAMP-WINDOW takes any time: an hour-old signature accepted is a risk, not a failure.
    const { r, control } = await send(3600_000);
    if (accepted(r, `GET ${INFO} signed an hour ago`)) {
      reading('U-NS-TIMESTAMP-WINDOW', 'unchecked');
      advise(id, `a request signed an hour ago was accepted (${r.status}): a captured request can be replayed; state the window in settings.signing.timestampWindowMs if the deployment has one`);
      return;
    }
    // Refused: no risk, where the same request signed now is accepted (otherwise the refusal says nothing).
    needAccepted(control, `GET ${INFO} signed now (the control of the hour-old one, refused ${r.status})`);
    advise(id, undefined);
  }));
});

test.describe('permissions', () => {
  test('a key without trading permission places and cancels nothing', { tag: reqTags('U-AUTH-TRADE', 'U-AUTH-PERMISSION-NO-EFFECT') }, async ({ api, spec, profile, writes, identity, verify, notApplicable }) => {
    const s = settingsOf(profile);
    const scope = uxScope(s, { writes: writes.allowed, roles: rolesOf(profile) });
    const na = (['U-AUTH-TRADE', 'U-AUTH-PERMISSION-NO-EFFECT'] as const).filter((id) => scope.requirements[id]);
    na.forEach((id) => notApplicable(id, scope.requirements[id]!));
    if (na.length) return;
    const cancelAtEnd = (ref: { clientOid?: string; orderId?: string }) =>
      writes.undo('POST /api/v3/trade/place-order', `cancel order ${ref.orderId ?? ref.clientOid}`, async () => void (await api.send({ ...cancelRequest(spec, s, ref), label: 'undo: cancel the order' })));
    let lookup: Reply | undefined;
    let cancelRefused = false;
    // The order must stay open while the read key tries to cancel it: no test cancels every open order meanwhile.
    await verify('U-AUTH-TRADE', () =>
      withOpenOrders(identity, "the read key's cancel", async () => {
        const byRead = farOrder(s, { clientOid: freshClientOid() });
        cancelAtEnd({ clientOid: byRead.clientOid });
        // Every request here is a trading one: where the deployment limits them (10 a second per UID in a reading of
        // U-NS-RATE-LIMITS, throttled with a 400 of its own), a throttled answer would pass for a refusal, or a
        // refused control: each is asked again after a throttle, the refusals too (a permission refusal stays one).
        const refused = await sendPatiently(api, { ...placeRequest(spec, byRead, 'read'), label: 'the read key places a far order' }, s);
        const own = farOrder(s, { clientOid: freshClientOid() });
        cancelAtEnd({ clientOid: own.clientOid });
        const placed = await sendPatiently(api, { ...placeRequest(spec, own, 'trade'), label: 'the trade key places a far order: the control' }, s);
        mustBeRefused('U-AUTH-TRADE', refused, 'an order placed with a key without trading permission', { control: placed });
        const orderId = orderIdOf(placed.json);
        if (!orderId) throw new NotTested(`the trade key's order was acknowledged without data.orderId (${placed.text.slice(0, 200)}): no order to cancel`);
        // The control of the read key's cancel is the trade key cancelling an order of its own placed alike: should the
        // refused cancel have taken effect, the first order is gone, and cancelling it again would say nothing.
        const spare = farOrder(s, { clientOid: freshClientOid() });
        cancelAtEnd({ clientOid: spare.clientOid });
        const spareId = orderIdOf((await sendPatiently(api, { ...placeRequest(spec, spare, 'trade'), label: 'the trade key places a second far order, for the control of the cancel' }, s)).json);
        const byReadCancel = await sendPatiently(api, { ...cancelRequest(spec, s, { orderId }, 'read'), label: "the read key cancels the trade key's order" }, s);
        if (answerKind(byReadCancel) === 'refused') {
          if (s.orderSettleMs) await new Promise((r) => setTimeout(r, s.orderSettleMs));
          lookup = await api.send({ ...lookupRequest(spec, s, orderId), label: 'is the order still open?' });
          cancelRefused = true;
        }
        if (!spareId) throw new NotTested('the second far order was not acknowledged with data.orderId: no control for the cancel');
        const cancelled = await sendPatiently(api, { ...cancelRequest(spec, s, { orderId: spareId }, 'trade'), label: 'the trade key cancels its second order: the control' }, s);
        mustBeRefused('U-AUTH-TRADE', byReadCancel, 'a cancel-order with a key without trading permission', { control: cancelled });
      }),
    );
    await verify('U-AUTH-PERMISSION-NO-EFFECT', async () => {
      if (!cancelRefused || !lookup) throw new NotTested("the read key's cancel was not refused: no refused write to look behind");
      needAccepted(lookup, 'the order lookup', { why: 'whether the order is still open cannot be told' });
      const status = (lookup.json as { data?: { status?: unknown } } | undefined)?.data?.status;
      const open = ['live', ...s.orderRecord.statuses.open];
      if (typeof status !== 'string' || !open.includes(status)) throw deviation(`after a refused cancel-order with a read key, the order shows status ${JSON.stringify(status)}`, `an open status (${open.join(', ')})`, [lookup.exchange]);
    });
  });

  test('copy-trading operations refuse keys without copy-trading permission', { tag: reqTags('U-AUTH-COPY') }, async ({ api, spec, profile, secrets, verify, notApplicable }) => {
    const s = settingsOf(profile);
    if (!hasRole(secrets, 'copy')) return notApplicable('U-AUTH-COPY', 'the profile names no key with futures copy-trading permission (credentials.copy)');
    const reads = [servedOp(spec, 'getCopyTradingPairs').path, withQuery(servedOp(spec, 'getCopyMaxTransferable').path, { coin: s.markets.coins.quote })];
    // The read key lacks every permission but reading; the trade key lacks copy trading only where the profile says so.
    const others = (['trade', 'read'] as const).filter((role) => hasRole(secrets, role) && (role === 'read' || tradeKeyLacksCopyTrading(profile)));
    if (others.length === 0) return notApplicable('U-AUTH-COPY', 'the profile names no key it says lacks copy-trading permission: a read key (credentials.read), or the trade key with settings.tradeKeyCopyTrading: false');
    await verify('U-AUTH-COPY', async () => {
      for (const path of reads) {
        const refused = [];
        for (const role of others) refused.push({ role, r: await api.send({ method: 'GET', path, authenticate: true, credential: role, label: `GET ${path} with the ${role} key` }) });
        const control = await sendPatiently(api, { method: 'GET', path, authenticate: true, credential: 'copy', label: `GET ${path} with the copy key: the control` }, s);
        for (const { role, r } of refused) mustBeRefused('U-AUTH-COPY', r, `GET ${path} with the ${role} key (no copy-trading permission)`, { control });
      }
    });
  });

  test('broker operations refuse a key of an account that is not a broker', { tag: reqTags('U-AUTH-BROKER') }, async ({ api, spec, secrets, profile, identity, verify, notApplicable }) => {
    if (!hasRole(secrets, 'broker')) return notApplicable('U-AUTH-BROKER', 'the profile names no key of a broker master account (credentials.broker)');
    const path = withQuery(servedOp(spec, 'listBrokerSubAccounts').path, { limit: 1 });
    await verify('U-AUTH-BROKER', () =>
      withBrokerRate(identity, 'the broker permission control', async () => {
        const refused = await api.send({ method: 'GET', path, authenticate: true, credential: 'trade', label: `GET ${path} with the trade key (not a broker)` });
        const control = await sendPatiently(api, { method: 'GET', path, authenticate: true, credential: 'broker', label: `GET ${path} with the broker key: the control` }, settingsOf(profile));
        mustBeRefused('U-AUTH-BROKER', refused, `GET ${path} with a key of an account that is not a broker`, { control });
      }),
    );
  });

  test('broker operations refuse a key of a sub-account, a broker master account\'s included', { tag: reqTags('U-AUTH-BROKER-SUB') }, async ({ api, spec, secrets, profile, identity, verify, notApplicable }) => {
    if (!hasRole(secrets, 'sub') || !hasRole(secrets, 'broker')) return notApplicable('U-AUTH-BROKER-SUB', 'the profile names no key of a sub-account (credentials.sub) beside a broker master account\'s (credentials.broker)');
    const path = withQuery(servedOp(spec, 'listBrokerSubAccounts').path, { limit: 1 });
    await verify('U-AUTH-BROKER-SUB', () =>
      withBrokerRate(identity, 'the broker sub-account permission control', async () => {
        const refused = await api.send({ method: 'GET', path, authenticate: true, credential: 'sub', label: `GET ${path} with the sub-account key` });
        const control = await sendPatiently(api, { method: 'GET', path, authenticate: true, credential: 'broker', label: `GET ${path} with the broker key: the control` }, settingsOf(profile));
        mustBeRefused('U-AUTH-BROKER-SUB', refused, `GET ${path} with a key of a sub-account`, { control });
      }),
    );
  });
});
