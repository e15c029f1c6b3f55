/**
 * The exchange-session reference in other readings of the open points its document leaves to a deployment
 * (mocks/exchange-session/readings.ts): each reading's profile patch is a valid profile, every reading starts, a
 * handful of readings each shown taking effect with one request, and every point in its first other reading at once
 * still takes a client through login, accounts, an order and its lookup.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { Value } from '@sinclair/typebox/value';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { deepMerge } from '../../harness/readings.ts';
import { ecdsaP256PublicKey, ecdsaP256Sign, hmacSign } from '../../harness/signing.ts';
import { exchangeSessionEntry, type ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';
import { KEY_CREATION_PATH, start, type ExchangeReferenceOptions } from '../../mocks/exchange-session/server.ts';
import { readings } from '../../mocks/exchange-session/readings.ts';

type Json = Record<string, unknown>;
type Answer = { status: number; body: any; headers: Headers };

const settingsSchema = () => exchangeSessionEntry().properties.settings;
const BASE: Json = { paths: { command: '/trading-api/v2/command', custody: '/trading-api/v1/wallets/limits/BTC' } };

const running: Array<{ close(): Promise<void> }> = [];
after(async () => {
  await Promise.all(running.map((r) => r.close()));
});

interface Ref {
  url: string;
  settings: ExchangeSessionSettings;
}

/** The reference in the readings asked (point -> reading), with each reading's options and profile patch applied. */
async function reference(asked: Record<string, string>): Promise<Ref> {
  let settings: Json = structuredClone(BASE);
  let options: Json = {};
  for (const [point, name] of Object.entries(asked)) {
    const r = readings.find((p) => p.point === point)!.readings.find((x) => x.name === name) as { reference?: Json; settings?: Json };
    assert.ok(r, `${point}=${name}`);
    settings = deepMerge(settings, r.settings ?? {});
    options = deepMerge(options, r.reference ?? {});
  }
  const full = Value.Default(settingsSchema(), settings) as ExchangeSessionSettings;
  const reference = { ...options, readings: asked } as ExchangeReferenceOptions;
  const server = await start({ settings: structuredClone(full), reference, secrets: {}, port: 0 });
  running.push(server);
  return { url: server.url, settings: full };
}

async function call(ref: Ref, method: string, path: string, o: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> {
  const text = o.body === undefined ? undefined : JSON.stringify(o.body);
  const res = await fetch(ref.url + path, { method, headers: { ...(text ? { 'content-type': 'application/json' } : {}), ...o.headers }, body: text });
  const raw = await res.text();
  return { status: res.status, body: raw ? JSON.parse(raw) : undefined, headers: res.headers };
}

// ---- keys, logins, sessions --------------------------------------------------------------------------------------

async function hmacKey(ref: Ref): Promise<{ publicKey: string; secret: string }> {
  const a = await call(ref, 'POST', KEY_CREATION_PATH, { body: { type: 'HMAC' } });
  assert.equal(a.status, 200, JSON.stringify(a.body));
  return a.body;
}

let loginNonce = BigInt(Date.now()) * 1000n;
function hmacLogin(ref: Ref, key: { publicKey: string; secret: string }, o: { timestamp?: string; nonce?: string; secret?: string } = {}): Promise<Answer> {
  const timestamp = o.timestamp ?? String(Date.now());
  const nonce = o.nonce ?? String(++loginNonce);
  const signature = hmacSign({ secret: o.secret ?? key.secret, message: `${timestamp}${nonce}GET${ref.settings.paths.hmacLogin}`, ...ref.settings.hmacSignature });
  return call(ref, 'GET', ref.settings.paths.hmacLogin, { headers: { 'BX-TIMESTAMP': timestamp, 'BX-NONCE': nonce, 'BX-PUBLIC-KEY': key.publicKey, 'BX-SIGNATURE': signature } });
}

interface EcdsaKey {
  privateKey: string;
  publicKey: string;
  metadata: string;
}

async function ecdsaKey(ref: Ref, extra: Json = {}): Promise<EcdsaKey> {
  const privateKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const a = await call(ref, 'POST', KEY_CREATION_PATH, { body: { type: 'ECDSA', publicKey: ecdsaP256PublicKey(privateKey, 'pem'), ...extra } });
  assert.equal(a.status, 200, JSON.stringify(a.body));
  return { ...a.body, privateKey };
}

/** The userId as the document says a client finds it: in the base64-decoded metadata (a JSON object, or the bare id). */
function userIdOf(metadata: string): string {
  const text = Buffer.from(metadata, 'base64').toString();
  return text.startsWith('{') ? JSON.parse(text).userId : text;
}

function ecdsaLogin(ref: Ref, key: EcdsaKey, o: { expirationTime?: number; signWith?: string; text?: (payload: Json) => string } = {}): Promise<Answer> {
  const nonce = Math.floor(Date.now() / 1000);
  const loginPayload = { userId: userIdOf(key.metadata), nonce, expirationTime: o.expirationTime ?? nonce + 300, biometricsUsed: false, sessionKey: null };
  const message = (o.text ?? JSON.stringify)(loginPayload);
  const signature = ecdsaP256Sign({ privateKey: o.signWith ?? key.privateKey, message, prehash: 'sha256', ...ref.settings.ecdsaSignature });
  return call(ref, 'POST', ref.settings.paths.ecdsaLogin, { body: { publicKey: key.publicKey, signature, loginPayload } });
}

interface Client {
  ref: Ref;
  token: string;
  accounts: Array<string | number>;
  next(): string;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  write(method: string, path: string, body: unknown, o?: { nonce?: string; headers?: Record<string, string> }): Promise<Answer>;
}

async function client(ref: Ref, kind: 'HMAC' | 'ECDSA' = 'HMAC'): Promise<Client> {
  const login = kind === 'HMAC' ? await hmacLogin(ref, await hmacKey(ref)) : await ecdsaLogin(ref, await ecdsaKey(ref));
  assert.equal(login.status, 200, JSON.stringify(login.body));
  return session(ref, login.body.token);
}

async function session(ref: Ref, token: string): Promise<Client> {
  const auth = { authorization: `Bearer ${token}` };
  let nonce = BigInt(Date.now()) * 1000n;
  const c: Client = {
    ref,
    token,
    accounts: [],
    next: () => String(++nonce),
    get: (path, headers = {}) => call(ref, 'GET', path, { headers: { ...auth, ...headers } }),
    write: (method, path, body, o = {}) => call(ref, method, path, { body, headers: { ...auth, 'BX-NONCE': o.nonce ?? c.next(), ...o.headers } }),
  };
  const listed = await c.get(ref.settings.paths.tradingAccounts);
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  c.accounts = listed.body.map((a: { tradingAccountId: string | number }) => a.tradingAccountId);
  return c;
}

let market = 0;
const newSymbol = () => `RDG${process.pid % 1000}X${++market}`;

/** A buy far below any market, in the public exchange's command (the reference's default settings). */
function buy(c: Client, o: { symbol?: string; price?: string; quantity?: string; tif?: string; account?: number; extra?: Json } = {}): Json {
  return {
    commandType: 'V3CreateOrder',
    type: 'LIMIT',
    symbol: o.symbol ?? newSymbol(),
    side: 'BUY',
    price: o.price ?? '1',
    quantity: o.quantity ?? '1',
    timeInForce: o.tif ?? 'GTC',
    tradingAccountId: c.accounts[o.account ?? 0],
    ...o.extra,
  };
}

const submit = (c: Client, body: unknown, o?: { nonce?: string; headers?: Record<string, string> }) => c.write('POST', c.ref.settings.paths.orders, body, o);
const lookupPath = (c: Client, orderId: string | number) => c.ref.settings.paths.order.replace('{orderId}', String(orderId));

// ---- the catalogue -------------------------------------------------------------------------------------------------

describe('the catalogue', () => {
  test('every reading\'s profile patch is a valid profile, and the reference starts in every reading', async () => {
    for (const p of readings) {
      for (const r of p.readings as ReadonlyArray<{ name: string; settings?: Json }>) {
        const settings = Value.Default(settingsSchema(), deepMerge(structuredClone(BASE), r.settings ?? {}));
        assert.ok(Value.Check(settingsSchema(), settings), `${p.point}=${r.name}: ${[...Value.Errors(settingsSchema(), settings)].map((e) => `${e.path} ${e.message}`).join('; ')}`);
        await reference({ [p.point]: r.name });
      }
    }
    const settings = Value.Default(settingsSchema(), structuredClone(BASE)) as ExchangeSessionSettings;
    await assert.rejects(() => start({ settings, reference: { readings: { 'A-NS-ERRORS': 'no-such-reading' } }, secrets: {}, port: 0 }), /A-NS-ERRORS has no reading "no-such-reading"/);
  });
});

// ---- one request each ----------------------------------------------------------------------------------------------

describe('refusals', () => {
  test('A-NS-ERRORS=problem-details: a refusal is application/problem+json', async () => {
    const ref = await reference({ 'A-NS-ERRORS': 'problem-details' });
    const a = await call(ref, 'GET', ref.settings.paths.tradingAccounts);
    assert.equal(a.status, 401);
    assert.match(a.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(a.body.status, 401);
    assert.equal(typeof a.body.detail, 'string');
  });

  test('A-NS-AUTH-STATUS=forbidden: no session is 403', async () => {
    const ref = await reference({ 'A-NS-AUTH-STATUS': 'forbidden' });
    assert.equal((await call(ref, 'GET', ref.settings.paths.tradingAccounts)).status, 403);
  });

  test('A-NS-AUTH-BEFORE-ROUTE=credential-first: an unknown path without a session is 401, not 404', async () => {
    const ref = await reference({ 'A-NS-AUTH-BEFORE-ROUTE': 'credential-first' });
    assert.equal((await call(ref, 'GET', '/trading-api/v1/nothing-here')).status, 401);
  });

  test('A-NS-WRONG-METHOD=method-not-allowed: 405 with Allow', async () => {
    const ref = await reference({ 'A-NS-WRONG-METHOD': 'method-not-allowed' });
    const a = await call(ref, 'DELETE', ref.settings.paths.tradingAccounts);
    assert.equal(a.status, 405);
    assert.equal(a.headers.get('allow'), 'GET');
  });

  test('A-NS-LOGIN-REFUSAL-STATUS=all-bad-request: a wrongly signed HMAC login is 400', async () => {
    const ref = await reference({ 'A-NS-LOGIN-REFUSAL-STATUS': 'all-bad-request' });
    assert.equal((await hmacLogin(ref, await hmacKey(ref), { secret: 'not-the-secret' })).status, 400);
  });

  test('A-NS-SCOPE-STATUS=not-found: an HMAC session at the custody endpoint is 404', async () => {
    const ref = await reference({ 'A-NS-SCOPE-STATUS': 'not-found' });
    assert.equal((await (await client(ref)).get(ref.settings.paths.custody!)).status, 404);
  });

  test('A-NS-UNKNOWN-ORDER=bad-request: an unknown order is 400', async () => {
    const c = await client(await reference({ 'A-NS-UNKNOWN-ORDER': 'bad-request' }));
    assert.equal((await c.get(lookupPath(c, '123'))).status, 400);
  });

  test('A-NS-NONCE-STATUS=conflict: a reused nonce is 409', async () => {
    const c = await client(await reference({ 'A-NS-NONCE-STATUS': 'conflict' }));
    const n = c.next();
    assert.equal((await submit(c, buy(c), { nonce: n })).status, 200);
    assert.equal((await submit(c, buy(c), { nonce: n })).status, 409);
  });

  test('A-NS-VALIDATION-STATUS=unprocessable: a well-formed but wrong command is 422', async () => {
    const c = await client(await reference({ 'A-NS-VALIDATION-STATUS': 'unprocessable' }));
    assert.equal((await submit(c, buy(c, { extra: { side: 'HOLD' } }))).status, 422);
  });

  test('A-NS-REQUEST-CONTENT-TYPE=json-required: a command sent as text/plain is 415', async () => {
    const c = await client(await reference({ 'A-NS-REQUEST-CONTENT-TYPE': 'json-required' }));
    assert.equal((await submit(c, buy(c), { headers: { 'content-type': 'text/plain' } })).status, 415);
  });

  test('A-NS-UNKNOWN-MEMBERS=refused: a command with a member the deployment does not know is refused', async () => {
    const c = await client(await reference({ 'A-NS-UNKNOWN-MEMBERS': 'refused' }));
    assert.equal((await submit(c, buy(c, { extra: { allowBorrow: false } }))).status, 400);
  });

  test('A-NS-RATELIMIT-TOKEN-CHECK=unknown-refused: a token not the user\'s is 400', async () => {
    const c = await client(await reference({ 'A-NS-RATELIMIT-TOKEN-CHECK': 'unknown-refused' }));
    assert.equal((await c.get(c.ref.settings.paths.nonce, { 'BX-RATELIMIT-TOKEN': 'not-a-token' })).status, 400);
  });

  test('A-NS-RATE-TIERS=per-user-limits: beyond 30 order lookups a second, 429 with Retry-After', async () => {
    const c = await client(await reference({ 'A-NS-RATE-TIERS': 'per-user-limits' }));
    // 65 at once: even split across two seconds, one of them holds more than 30.
    const answers = await Promise.all(Array.from({ length: 65 }, () => c.get(lookupPath(c, '123'))));
    const limited = answers.filter((a) => a.status === 429);
    assert.ok(limited.length >= 1, answers.map((a) => a.status).join());
    assert.equal(limited[0].headers.get('retry-after'), '1');
  });
});

describe('logins and sessions', () => {
  test('A-NS-LOGIN-PAYLOAD-JSON=python-default-separators: the login signed over json.dumps\'s text is accepted', async () => {
    const ref = await reference({ 'A-NS-LOGIN-PAYLOAD-JSON': 'python-default-separators' });
    const dumps = (p: Json) => `{${Object.entries(p).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}}`;
    assert.equal((await ecdsaLogin(ref, await ecdsaKey(ref), { text: dumps })).status, 200);
  });

  test('A-NS-LOGIN-CHECK-ORDER=whitelist-first: a badly signed login from outside the whitelist is 403', async () => {
    const ref = await reference({ 'A-NS-LOGIN-CHECK-ORDER': 'whitelist-first' });
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    assert.equal((await ecdsaLogin(ref, await ecdsaKey(ref, { whitelist: ['10.0.0.0/8'] }), { signWith: other })).status, 403);
  });

  test('A-NS-LOGIN-WINDOW=exactly-five-minutes: an expiry 302 s after the nonce is refused', async () => {
    const ref = await reference({ 'A-NS-LOGIN-WINDOW': 'exactly-five-minutes' });
    assert.equal((await ecdsaLogin(ref, await ecdsaKey(ref), { expirationTime: Math.floor(Date.now() / 1000) + 302 })).status, 400);
  });

  test('A-NS-KEY-METADATA=bare-user-id: the metadata decodes to the userId itself', async () => {
    const ref = await reference({ 'A-NS-KEY-METADATA': 'bare-user-id' });
    const key = await ecdsaKey(ref);
    assert.match(Buffer.from(key.metadata, 'base64').toString(), /^\d+$/);
    assert.equal((await ecdsaLogin(ref, key)).status, 200);
  });

  test('A-NS-HMAC-TIMESTAMP=recent-only: a login stamped a minute ago is refused', async () => {
    const ref = await reference({ 'A-NS-HMAC-TIMESTAMP': 'recent-only' });
    assert.equal((await hmacLogin(ref, await hmacKey(ref), { timestamp: String(Date.now() - 60_000) })).status, 401);
  });

  test('A-NS-HMAC-LOGIN-NONCE=increasing-per-key: a login nonce used before is refused', async () => {
    const ref = await reference({ 'A-NS-HMAC-LOGIN-NONCE': 'increasing-per-key' });
    const key = await hmacKey(ref);
    assert.equal((await hmacLogin(ref, key, { nonce: '7' })).status, 200);
    assert.equal((await hmacLogin(ref, key, { nonce: '7' })).status, 401);
  });

  test('A-NS-LOGIN-RESPONSE=with-session-details, A-NS-TOKEN-CLAIMS=es256-without-iat', async () => {
    const ref = await reference({ 'A-NS-LOGIN-RESPONSE': 'with-session-details', 'A-NS-TOKEN-CLAIMS': 'es256-without-iat' });
    const a = await hmacLogin(ref, await hmacKey(ref));
    assert.equal(a.status, 200);
    assert.equal(a.body.tokenType, 'Bearer');
    assert.equal(decodeProtectedHeader(a.body.token).alg, 'ES256');
    assert.equal(decodeJwt(a.body.token).iat, undefined);
    assert.equal((await session(ref, a.body.token)).accounts.length, 2);
  });

  test('A-NS-SESSIONS-PER-KEY=latest-only: a key\'s second login revokes its first token', async () => {
    // ES256 tokens carry a jti: two logins within one second get two tokens.
    const ref = await reference({ 'A-NS-SESSIONS-PER-KEY': 'latest-only', 'A-NS-TOKEN-CLAIMS': 'es256-without-iat' });
    const key = await hmacKey(ref);
    const first = (await hmacLogin(ref, key)).body.token;
    assert.equal((await hmacLogin(ref, key)).status, 200);
    assert.equal((await call(ref, 'GET', ref.settings.paths.tradingAccounts, { headers: { authorization: `Bearer ${first}` } })).status, 401);
  });
});

describe('accounts and the nonce', () => {
  test('A-NS-NONCE-PUBLIC=public, A-NS-NONCE-RANGE-TYPES=digit-strings, A-NS-DAY-END=next-midnight', async () => {
    const ref = await reference({ 'A-NS-NONCE-PUBLIC': 'public', 'A-NS-NONCE-RANGE-TYPES': 'digit-strings', 'A-NS-DAY-END': 'next-midnight' });
    const a = await call(ref, 'GET', ref.settings.paths.nonce);
    assert.equal(a.status, 200);
    assert.equal(typeof a.body.lowerBound, 'string');
    assert.equal(BigInt(a.body.upperBound) - BigInt(a.body.lowerBound), 86_400_000_000n);
  });

  test('A-NS-ACCOUNT-FIELDS=documented-only, A-NS-ID-TYPES=integers', async () => {
    const c = await client(await reference({ 'A-NS-ACCOUNT-FIELDS': 'documented-only', 'A-NS-ID-TYPES': 'integers' }));
    const a = await c.get(c.ref.settings.paths.tradingAccounts);
    assert.deepEqual(Object.keys(a.body[0]), ['tradingAccountId', 'rateLimitToken']);
    assert.equal(typeof a.body[0].tradingAccountId, 'number');
  });

  test('A-NS-NONCE-SCOPE=per-session: after a new login a lower nonce is accepted', async () => {
    const ref = await reference({ 'A-NS-NONCE-SCOPE': 'per-session', 'A-NS-TOKEN-CLAIMS': 'es256-without-iat' });
    const key = await hmacKey(ref);
    const c = await session(ref, (await hmacLogin(ref, key)).body.token);
    const high = c.next();
    assert.equal((await submit(c, buy(c), { nonce: high })).status, 200);
    const d = await session(ref, (await hmacLogin(ref, key)).body.token);
    assert.equal((await submit(d, buy(d), { nonce: String(BigInt(high) - 1000n) })).status, 200);
  });

  test('A-NS-NONCE-CONSUMED=accepted-writes-only, A-NS-WRITE-CHECK-ORDER=body-then-nonce: a refused command leaves its nonce unused', async () => {
    const asks: Array<Record<string, string>> = [{ 'A-NS-NONCE-CONSUMED': 'accepted-writes-only' }, { 'A-NS-WRITE-CHECK-ORDER': 'body-then-nonce' }];
    for (const asked of asks) {
      const c = await client(await reference(asked));
      const n = c.next();
      assert.equal((await submit(c, buy(c, { tif: 'DAY' }), { nonce: n })).status, 400);
      assert.equal((await submit(c, buy(c), { nonce: n })).status, 200, JSON.stringify(asked));
    }
  });
});

describe('orders', () => {
  test('A-NS-COMMAND-FIELDS=client-order-id-required, A-NS-COMMAND-NUMBERS=either', async () => {
    const c = await client(await reference({ 'A-NS-COMMAND-FIELDS': 'client-order-id-required', 'A-NS-COMMAND-NUMBERS': 'either' }));
    assert.equal((await submit(c, buy(c))).status, 400);
    assert.equal((await submit(c, buy(c, { extra: { clientOrderId: '17', price: 2 } }))).status, 200);
  });

  test('A-NS-MARKETS=listed-only, A-NS-MARKET-PRECISION=step-and-tick', async () => {
    const c = await client(await reference({ 'A-NS-MARKETS': 'listed-only', 'A-NS-MARKET-PRECISION': 'step-and-tick' }));
    assert.equal((await submit(c, buy(c))).status, 400, 'not the listed market');
    assert.equal((await submit(c, buy(c, { symbol: 'BTCUSDC', quantity: '0.0005' }))).status, 400, 'not a multiple of the step');
    assert.equal((await submit(c, buy(c, { symbol: 'BTCUSDC', quantity: '0.002' }))).status, 200);
  });

  test('A-NS-ACK-BODY=data-envelope, A-NS-LOOKUP-ACCOUNT=trading-account-query', async () => {
    const c = await client(await reference({ 'A-NS-ACK-BODY': 'data-envelope', 'A-NS-LOOKUP-ACCOUNT': 'trading-account-query' }));
    const ack = await submit(c, buy(c));
    assert.equal(ack.body.orderId, undefined);
    const id = ack.body.data.orderId;
    assert.equal((await c.get(lookupPath(c, id))).status, 400, 'no tradingAccountId');
    assert.equal((await c.get(`${lookupPath(c, id)}?tradingAccountId=${c.accounts[1]}`)).status, 404, 'another account');
    assert.equal((await c.get(`${lookupPath(c, id)}?tradingAccountId=${c.accounts[0]}`)).status, 200);
  });

  test('A-NS-ORDER-PROCESSING=asynchronous: the order is found only once it has been matched', async () => {
    const c = await client(await reference({ 'A-NS-ORDER-PROCESSING': 'asynchronous' }));
    const id = (await submit(c, buy(c))).body.orderId;
    assert.equal((await c.get(lookupPath(c, id))).status, 404);
    await new Promise((resolve) => setTimeout(resolve, 350));
    assert.equal((await c.get(lookupPath(c, id))).status, 200);
  });

  test('A-NS-ORDER-STATES=detailed-lifecycle, A-NS-DECIMAL-FORMAT=fixed-scale, A-NS-ORDER-RECORD=other-names', async () => {
    const c = await client(await reference({ 'A-NS-ORDER-STATES': 'detailed-lifecycle', 'A-NS-DECIMAL-FORMAT': 'fixed-scale', 'A-NS-ORDER-RECORD': 'other-names' }));
    const record = (await c.get(lookupPath(c, (await submit(c, buy(c, { quantity: '1.5' }))).body.orderId))).body;
    assert.equal(record.orderStatus, 'NEW');
    assert.equal(record.executedQuantity, '0.00000000');
    assert.equal(record.quantity, '1.50000000');
  });

  test('A-NS-CANCEL=delete-order: DELETE on the order\'s path cancels it', async () => {
    const c = await client(await reference({ 'A-NS-CANCEL': 'delete-order' }));
    const id = (await submit(c, buy(c))).body.orderId;
    assert.equal((await c.write('DELETE', lookupPath(c, id), undefined)).status, 200);
    assert.equal((await c.get(lookupPath(c, id))).body.status, 'CANCELLED');
  });
});

// ---- all at once ---------------------------------------------------------------------------------------------------

test('every point in its first other reading at once: login, accounts, a signed order and its lookup', async () => {
  const ref = await reference(Object.fromEntries(readings.map((p) => [p.point, p.readings[1].name])));
  const { settings } = ref;
  // HMAC login: base64 secret, HMAC-SHA256 in base64, an increasing nonce, a fresh timestamp.
  const key = await hmacKey(ref);
  const login = await hmacLogin(ref, key);
  assert.equal(login.status, 200, JSON.stringify(login.body));
  const c = await session(ref, login.body.token);
  assert.equal(typeof c.accounts[0], 'number');
  // The nonce range without a session, as digit strings ending at the next midnight.
  assert.equal(typeof (await call(ref, 'GET', settings.paths.nonce)).body.upperBound, 'string');

  // A signed order in the plain field names, JSON numbers, on the listed market, priced on its tick and step.
  const { fields, constants, sides } = settings.order;
  const body = JSON.stringify({
    ...constants,
    [fields.symbol]: settings.order.symbol,
    [fields.side]: sides.buy,
    [fields.price]: 1,
    [fields.quantity]: 0.002,
    timeInForce: 'GTC',
    [fields.tradingAccountId]: c.accounts[0],
  });
  const nonce = c.next();
  const timestamp = String(Date.now());
  const digest = (await import('node:crypto')).createHash('sha256').update(`${timestamp}${nonce}POST${settings.paths.orders}${body}`).digest('hex');
  const signature = hmacSign({ secret: key.secret, message: digest, ...settings.hmacSignature });
  const res = await fetch(ref.url + settings.paths.orders, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${c.token}`, 'BX-NONCE': nonce, 'BX-TIMESTAMP': timestamp, 'BX-SIGNATURE': signature },
  });
  const ack = await res.json();
  assert.equal(res.status, 200, JSON.stringify(ack));
  assert.deepEqual(Object.keys(ack), ['orderId']);

  // Matched about 60 ms later; looked up with the order's trading account, in the detailed states and other member names.
  await new Promise((resolve) => setTimeout(resolve, 150));
  const record = await c.get(`${lookupPath(c, ack.orderId)}?tradingAccountId=${c.accounts[0]}`);
  assert.equal(record.status, 200, JSON.stringify(record.body));
  assert.equal(record.body[settings.orderRecord.status], 'NEW');
  assert.equal(record.body[settings.orderRecord.quantityFilled], 0);
});
