/**
 * The exchange-session reference (mocks/exchange-session/) driven over HTTP as a client of the document would drive
 * it: keys, both logins, trading accounts, the nonce range and its rules, orders of each time in force traded between
 * a user's two accounts, cancellation, custody by key type; then a handful of seeded faults, each shown misbehaving.
 * Signatures are made with the harness's signing helpers, so the reference and the harness agree on the bytes.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { Value } from '@sinclair/typebox/value';
import { SignJWT, decodeJwt } from 'jose';
import { ecdsaP256PublicKey, ecdsaP256Sign, hmacSign } from '../../harness/signing.ts';
import { exchangeSessionEntry, type ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';
import { KEY_CREATION_PATH, start, type ExchangeReferenceOptions } from '../../mocks/exchange-session/server.ts';
import { faults } from '../../mocks/exchange-session/faults.ts';

function defaults(): ExchangeSessionSettings {
  return Value.Default(exchangeSessionEntry().properties.settings, {}) as ExchangeSessionSettings;
}

type Answer = { status: number; body: any };

interface Ref {
  url: string;
  settings: ExchangeSessionSettings;
}

const running: Array<{ close(): Promise<void> }> = [];
after(async () => {
  await Promise.all(running.map((r) => r.close()));
});

async function reference(fault?: string, ref: ExchangeReferenceOptions = {}, tweak?: (s: ExchangeSessionSettings) => void): Promise<Ref> {
  const settings = defaults();
  settings.paths.command = '/trading-api/v2/command';
  settings.paths.custody = '/trading-api/v1/wallets/limits/BTC';
  tweak?.(settings);
  const server = await start({ settings: structuredClone(settings), reference: ref, secrets: {}, fault, port: 0 });
  running.push(server);
  return { url: server.url, settings };
}

async function call(ref: Ref, method: string, path: string, o: { headers?: Record<string, string>; body?: unknown; raw?: string } = {}): Promise<Answer> {
  const text = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  const res = await fetch(ref.url + path, { method, headers: { ...(text ? { 'content-type': 'application/json' } : {}), ...o.headers }, body: text });
  const body = await res.text();
  return { status: res.status, body: body ? JSON.parse(body) : undefined };
}

// ---- keys and logins ---------------------------------------------------------------------------------------------

interface HmacKey {
  type: 'HMAC';
  publicKey: string;
  secret: string;
  userId: string;
}
interface EcdsaKey {
  type: 'ECDSA';
  privateKey: string;
  publicKey: string;
  metadata: string;
  userId: string;
}

async function hmacKey(ref: Ref, extra: Record<string, unknown> = {}): Promise<HmacKey> {
  const a = await call(ref, 'POST', KEY_CREATION_PATH, { body: { type: 'HMAC', name: 'test', ...extra } });
  assert.equal(a.status, 200, JSON.stringify(a.body));
  return a.body;
}

async function ecdsaKey(ref: Ref, extra: Record<string, unknown> = {}): Promise<EcdsaKey> {
  const privateKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const a = await call(ref, 'POST', KEY_CREATION_PATH, { body: { type: 'ECDSA', name: 'test', publicKey: ecdsaP256PublicKey(privateKey, 'pem'), ...extra } });
  assert.equal(a.status, 200, JSON.stringify(a.body));
  return { ...a.body, privateKey };
}

let loginNonce = 0;
function hmacHeaders(ref: Ref, key: HmacKey, o: { timestamp?: string; nonce?: string; path?: string; secret?: string } = {}) {
  const timestamp = o.timestamp ?? String(Date.now());
  // Not the timestamp: a nonce equal to it would hide a message built in the wrong order.
  const nonce = o.nonce ?? String(++loginNonce);
  const path = o.path ?? ref.settings.paths.hmacLogin;
  const signature = hmacSign({ secret: o.secret ?? key.secret, message: `${timestamp}${nonce}GET${path}`, ...ref.settings.hmacSignature });
  return { 'BX-TIMESTAMP': timestamp, 'BX-NONCE': nonce, 'BX-PUBLIC-KEY': key.publicKey, 'BX-SIGNATURE': signature };
}

function hmacLogin(ref: Ref, key: HmacKey, o: Parameters<typeof hmacHeaders>[2] = {}): Promise<Answer> {
  return call(ref, 'GET', ref.settings.paths.hmacLogin, { headers: hmacHeaders(ref, key, o) });
}

function ecdsaLoginBody(ref: Ref, key: EcdsaKey, o: { userId?: string; nonce?: number; expirationTime?: number; signWith?: string; publicKey?: string } = {}) {
  const nonce = o.nonce ?? Math.floor(Date.now() / 1000);
  const loginPayload = { userId: o.userId ?? key.userId, nonce, expirationTime: o.expirationTime ?? nonce + 300, biometricsUsed: false, sessionKey: null };
  const signature = ecdsaP256Sign({ privateKey: o.signWith ?? key.privateKey, message: JSON.stringify(loginPayload), prehash: 'sha256', ...ref.settings.ecdsaSignature });
  return { publicKey: o.publicKey ?? key.publicKey, signature, loginPayload };
}

function ecdsaLogin(ref: Ref, key: EcdsaKey, o: Parameters<typeof ecdsaLoginBody>[2] = {}): Promise<Answer> {
  return call(ref, 'POST', ref.settings.paths.ecdsaLogin, { body: ecdsaLoginBody(ref, key, o) });
}

/** A logged-in client with its own nonce counter and its two trading accounts. */
interface Client {
  ref: Ref;
  token: string;
  accounts: string[];
  next(): string;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  write(path: string, body: unknown, headers?: Record<string, string>, nonce?: string | null): Promise<Answer>;
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
    write: (path, body, headers = {}, given) =>
      call(ref, 'POST', path, { body, headers: { ...auth, ...(given === null ? {} : { 'BX-NONCE': given ?? c.next() }), ...headers } }),
  };
  const accounts = await c.get(ref.settings.paths.tradingAccounts);
  if (accounts.status === 200) c.accounts = accounts.body.map((a: { tradingAccountId: string }) => a.tradingAccountId);
  return c;
}

let market = 0;
/** A market of the test's own: books are created per symbol on first use. */
const newSymbol = () => `TST${process.pid % 1000}X${++market}`;

function order(c: Client, o: { symbol: string; side: 'BUY' | 'SELL'; price: string; quantity: string; tif: 'GTC' | 'IOC' | 'FOK'; account?: number }) {
  return c.write(c.ref.settings.paths.orders, {
    commandType: 'V3CreateOrder',
    type: 'LIMIT',
    symbol: o.symbol,
    side: o.side,
    price: o.price,
    quantity: o.quantity,
    timeInForce: o.tif,
    tradingAccountId: c.accounts[o.account ?? 0],
  });
}

async function placed(c: Client, o: Parameters<typeof order>[1]): Promise<string> {
  const a = await order(c, o);
  assert.equal(a.status, 200, JSON.stringify(a.body));
  return a.body.orderId;
}

async function lookup(c: Client, orderId: string): Promise<Answer> {
  return c.get(c.ref.settings.paths.order.replace('{orderId}', orderId));
}

async function state(c: Client, orderId: string): Promise<[string, string]> {
  const a = await lookup(c, orderId);
  assert.equal(a.status, 200, JSON.stringify(a.body));
  return [a.body.status, a.body.quantityFilled];
}

// ---- behaviour ---------------------------------------------------------------------------------------------------

describe('keys and logins', () => {
  test('keys: HMAC gets a public key and secret, ECDSA metadata holds the userId; each key is a new user', async () => {
    const ref = await reference();
    const h = await hmacKey(ref);
    assert.match(h.publicKey, /^HMAC-/);
    assert.ok(h.secret.length >= 32);
    assert.match(h.userId, /^\d+$/);
    const e = await ecdsaKey(ref);
    assert.equal(JSON.parse(Buffer.from(e.metadata, 'base64').toString()).userId, e.userId);
    assert.notEqual(e.userId, h.userId);
    assert.equal((await call(ref, 'POST', KEY_CREATION_PATH, { body: { type: 'ECDSA' } })).status, 400);
    assert.equal((await call(ref, 'POST', KEY_CREATION_PATH, { body: { type: 'RSA' } })).status, 400);
  });

  test('HMAC login: a token valid 24 hours and the authorizer; a wrong signature or unknown key is 401', async () => {
    const ref = await reference();
    const key = await hmacKey(ref);
    const a = await hmacLogin(ref, key);
    assert.equal(a.status, 200);
    assert.ok(a.body.authorizer);
    const claims = decodeJwt(a.body.token);
    assert.equal(claims.sub, key.userId);
    assert.equal(claims.exp! - claims.iat!, 86400);
    assert.equal((await hmacLogin(ref, key, { secret: 'not-the-secret' })).status, 401);
    assert.equal((await hmacLogin(ref, { ...key, publicKey: 'HMAC-unknown' })).status, 401);
    // The login nonce is its own counter: the same one again, or a lower one, still logs in.
    assert.equal((await hmacLogin(ref, key, { nonce: '5' })).status, 200);
    assert.equal((await hmacLogin(ref, key, { nonce: '5' })).status, 200);
  });

  test('HMAC login under other signature settings (sha512, base64, hex-encoded secret)', async () => {
    const ref = await reference(undefined, {}, (s) => {
      s.hmacSignature = { hash: 'sha512', encoding: 'base64', secretEncoding: 'hex' };
    });
    const key = await hmacKey(ref);
    assert.match(key.secret, /^[0-9a-f]{64}$/);
    assert.equal((await hmacLogin(ref, key)).status, 200);
  });

  test('ECDSA login: accepted with the key\'s userId, a CRLF PEM is the same key; refused otherwise', async () => {
    const ref = await reference();
    const key = await ecdsaKey(ref);
    const other = await ecdsaKey(ref);
    const now = Math.floor(Date.now() / 1000);
    const a = await ecdsaLogin(ref, key);
    assert.equal(a.status, 200, JSON.stringify(a.body));
    assert.equal(decodeJwt(a.body.token).sub, key.userId);
    assert.equal((await ecdsaLogin(ref, key, { publicKey: key.publicKey.replace(/\n/g, '\r\n') })).status, 200);
    assert.equal((await ecdsaLogin(ref, key, { userId: other.userId })).status, 401, 'another user\'s id');
    assert.equal((await ecdsaLogin(ref, key, { signWith: other.privateKey })).status, 401, 'signed by another key');
    assert.equal((await ecdsaLogin(ref, key, { nonce: now - 400, expirationTime: now - 100 })).status, 401, 'expired');
    assert.equal((await ecdsaLogin(ref, key, { expirationTime: now + 3600 })).status, 400, 'not 5 minutes after the nonce');
    assert.equal((await ecdsaLogin(ref, key, { nonce: now + 3600 })).status, 400, 'a nonce from the future');
  });

  test('ECDSA login with compact base64url signatures', async () => {
    const ref = await reference(undefined, {}, (s) => {
      s.ecdsaSignature = { format: 'compact', encoding: 'base64url', payloadJson: 'compact' };
    });
    assert.equal((await ecdsaLogin(ref, await ecdsaKey(ref))).status, 200);
  });

  test('whitelist: logins from outside it are refused 403; the reference option applies to keys without one', async () => {
    const ref = await reference();
    assert.equal((await hmacLogin(ref, await hmacKey(ref, { whitelist: ['10.0.0.0/8'] }))).status, 403);
    assert.equal((await hmacLogin(ref, await hmacKey(ref, { whitelist: ['127.0.0.0/8'] }))).status, 200);
    assert.equal((await ecdsaLogin(ref, await ecdsaKey(ref, { whitelist: ['192.0.2.1'] }))).status, 403);
    const restricted = await reference(undefined, { whitelist: ['198.51.100.0/24'] });
    assert.equal((await hmacLogin(restricted, await hmacKey(restricted))).status, 403);
    assert.equal((await hmacLogin(restricted, await hmacKey(restricted, { whitelist: ['127.0.0.1'] }))).status, 200);
  });
});

describe('sessions, accounts and the nonce range', () => {
  test('two trading accounts; no, malformed or foreign tokens are 401; BX-RATELIMIT-TOKEN changes nothing', async () => {
    const ref = await reference();
    const c = await client(ref);
    const a = await c.get(ref.settings.paths.tradingAccounts);
    assert.equal(a.status, 200);
    assert.equal(a.body.length, 2);
    for (const account of a.body) {
      assert.match(account.tradingAccountId, /^\d+$/);
      assert.equal(typeof account.rateLimitToken, 'string');
    }
    assert.deepEqual(await c.get(ref.settings.paths.tradingAccounts, { 'BX-RATELIMIT-TOKEN': a.body[0].rateLimitToken }), a);
    assert.equal((await call(ref, 'GET', ref.settings.paths.tradingAccounts)).status, 401);
    assert.equal((await call(ref, 'GET', ref.settings.paths.tradingAccounts, { headers: { authorization: 'Bearer nonsense' } })).status, 401);
    const foreign = await new SignJWT({ keyId: '1', keyType: 'HMAC' }).setProtectedHeader({ alg: 'HS256' }).setSubject('1').setIssuedAt().setExpirationTime('1h').sign(new Uint8Array(32));
    assert.equal((await call(ref, 'GET', ref.settings.paths.tradingAccounts, { headers: { authorization: `Bearer ${foreign}` } })).status, 401);
    assert.equal((await call(ref, 'GET', '/trading-api/v1/nothing-here')).status, 404);
  });

  test('the nonce range is the current UTC day in microseconds, or the day of the profile\'s time zone', async () => {
    const c = await client(await reference());
    const a = await c.get(c.ref.settings.paths.nonce);
    assert.equal(a.status, 200);
    const midnight = new Date();
    midnight.setUTCHours(0, 0, 0, 0);
    assert.equal(a.body.lowerBound, midnight.getTime() * 1000);
    assert.equal(a.body.upperBound, midnight.getTime() * 1000 + 86_400_000_000 - 1);

    const tokyo = await client(await reference(undefined, {}, (s) => (s.nonceTimeZone = 'Asia/Tokyo')));
    const t = (await tokyo.get(tokyo.ref.settings.paths.nonce)).body;
    const dayInTokyo = new Date(Date.now() + 9 * 3600_000);
    dayInTokyo.setUTCHours(0, 0, 0, 0);
    assert.equal(t.lowerBound, (dayInTokyo.getTime() - 9 * 3600_000) * 1000);
    assert.equal(t.upperBound - t.lowerBound, 86_400_000_000 - 1);
  });

  test('nonce rules: required, in range, strictly greater, never reused; a refusal changes nothing; concurrent reuse passes once', async () => {
    const ref = await reference();
    const c = await client(ref);
    const symbol = newSymbol();
    const cmd = (n: string | null) =>
      c.write(ref.settings.paths.orders, { commandType: 'V3CreateOrder', type: 'LIMIT', symbol, side: 'BUY', price: '1', quantity: '1', timeInForce: 'IOC', tradingAccountId: c.accounts[0] }, {}, n);
    const { upperBound } = (await c.get(ref.settings.paths.nonce)).body;
    const first = c.next();
    assert.equal((await cmd(null)).status, 400, 'missing');
    assert.equal((await cmd('12a')).status, 400, 'not digits');
    assert.equal((await cmd(first)).status, 200);
    assert.equal((await cmd(first)).status, 400, 'reused');
    assert.equal((await cmd(String(BigInt(first) - 1n))).status, 400, 'lower');
    assert.equal((await cmd(String(BigInt(upperBound) + 1n))).status, 400, 'above the range');
    assert.equal((await cmd('1')).status, 400, 'below the range');
    assert.equal((await cmd(c.next())).status, 200, 'the refusals left the sequence where it was');
    const same = c.next();
    const answers = await Promise.all([cmd(same), cmd(same), cmd(same)]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400]);
    // Sequences are per key: another key of another user starts afresh with a lower nonce.
    const d = await client(ref);
    const other = await d.write(ref.settings.paths.orders, { timeInForce: 'IOC' }, {}, String(BigInt(first) - 5n));
    assert.equal(other.body.errorCodeName, 'INVALID_ORDER', 'the nonce passed; the body was refused');
  });

  test('signed writes: with requireSignedWrites, writes need BX-TIMESTAMP and BX-SIGNATURE with the session\'s key', async () => {
    // Signed over the message itself here; the default (its hex SHA-256, as ccxt signs) is the interop test's.
    const ref = await reference(undefined, { requireSignedWrites: true }, (s) => {
      s.writeSignatureInput = 'message';
    });
    const path = ref.settings.paths.orders;
    for (const kind of ['HMAC', 'ECDSA'] as const) {
      const material = kind === 'HMAC' ? await hmacKey(ref) : await ecdsaKey(ref);
      const login = material.type === 'HMAC' ? await hmacLogin(ref, material) : await ecdsaLogin(ref, material);
      const c = await session(ref, login.body.token);
      const body = JSON.stringify({ commandType: 'V3CreateOrder', type: 'LIMIT', symbol: newSymbol(), side: 'SELL', price: '5', quantity: '1', timeInForce: 'GTC', tradingAccountId: c.accounts[0] });
      const unsigned = await call(ref, 'POST', path, { raw: body, headers: { authorization: `Bearer ${c.token}`, 'BX-NONCE': c.next() } });
      assert.equal(unsigned.status, 401, kind);
      const nonce = c.next();
      const timestamp = String(Date.now());
      const message = `${timestamp}${nonce}POST${path}${body}`;
      const signature =
        material.type === 'HMAC'
          ? hmacSign({ secret: material.secret, message, ...ref.settings.hmacSignature })
          : ecdsaP256Sign({ privateKey: material.privateKey, message, prehash: 'sha256', ...ref.settings.ecdsaSignature });
      const signed = await call(ref, 'POST', path, { raw: body, headers: { authorization: `Bearer ${c.token}`, 'BX-NONCE': nonce, 'BX-TIMESTAMP': timestamp, 'BX-SIGNATURE': signature } });
      assert.equal(signed.status, 200, `${kind}: ${JSON.stringify(signed.body)}`);
    }
  });
});

describe('orders', () => {
  test('GTC rests, IOC fills and cancels the rest, FOK fills in full or not at all, between two accounts', async () => {
    const c = await client(await reference());
    const symbol = newSymbol();
    const sell = await placed(c, { symbol, side: 'SELL', price: '100', quantity: '1', tif: 'GTC' });
    assert.deepEqual(await state(c, sell), ['OPEN', '0']);

    const ioc = await placed(c, { symbol, side: 'BUY', price: '100', quantity: '0.4', tif: 'IOC', account: 1 });
    assert.deepEqual(await state(c, ioc), ['CLOSED', '0.4']);
    assert.deepEqual(await state(c, sell), ['OPEN', '0.4']);

    const fok = await placed(c, { symbol, side: 'BUY', price: '100', quantity: '1', tif: 'FOK', account: 1 });
    assert.deepEqual(await state(c, fok), ['CANCELLED', '0'], 'only 0.6 crosses');
    const below = await placed(c, { symbol, side: 'BUY', price: '99.99', quantity: '0.1', tif: 'IOC', account: 1 });
    assert.deepEqual(await state(c, below), ['CANCELLED', '0'], 'nothing crosses below the ask');

    const iocRest = await placed(c, { symbol, side: 'BUY', price: '101', quantity: '1', tif: 'IOC', account: 1 });
    assert.deepEqual(await state(c, iocRest), ['CANCELLED', '0.6']);
    assert.deepEqual(await state(c, sell), ['CLOSED', '1']);

    const record = (await lookup(c, sell)).body;
    assert.deepEqual(
      { ...record, createdAtTimestamp: undefined },
      { orderId: sell, symbol, side: 'SELL', price: '100', quantity: '1', quantityFilled: '1', timeInForce: 'GTC', status: 'CLOSED', tradingAccountId: c.accounts[0], createdAtTimestamp: undefined },
    );
  });

  test('price-time priority, FOK across several orders, and decimal sums without floating-point dust', async () => {
    const c = await client(await reference());
    const symbol = newSymbol();
    const dear = await placed(c, { symbol, side: 'SELL', price: '100.5', quantity: '0.1', tif: 'GTC' });
    const cheapFirst = await placed(c, { symbol, side: 'SELL', price: '100.1', quantity: '0.1', tif: 'GTC' });
    const cheapSecond = await placed(c, { symbol, side: 'SELL', price: '100.1', quantity: '0.2', tif: 'GTC' });
    const fok = await placed(c, { symbol, side: 'BUY', price: '100.5', quantity: '0.3', tif: 'FOK', account: 1 });
    assert.deepEqual(await state(c, fok), ['CLOSED', '0.3']);
    assert.deepEqual(await state(c, cheapFirst), ['CLOSED', '0.1']);
    assert.deepEqual(await state(c, cheapSecond), ['CLOSED', '0.2']);
    assert.deepEqual(await state(c, dear), ['OPEN', '0']);

    const bid = await placed(c, { symbol, side: 'BUY', price: '100', quantity: '0.3', tif: 'GTC', account: 1 });
    await placed(c, { symbol, side: 'SELL', price: '99', quantity: '0.1', tif: 'IOC' });
    await placed(c, { symbol, side: 'SELL', price: '99', quantity: '0.2', tif: 'IOC' });
    assert.deepEqual(await state(c, bid), ['CLOSED', '0.3'], '0.1 + 0.2 fills 0.3 exactly');
  });

  test('bad commands are 400; another user\'s or an unknown order is 404', async () => {
    const ref = await reference();
    const c = await client(ref);
    const symbol = newSymbol();
    for (const bad of [
      { symbol: 'btc', side: 'BUY', price: '1', quantity: '1', tif: 'GTC' },
      { symbol, side: 'HOLD', price: '1', quantity: '1', tif: 'GTC' },
      { symbol, side: 'BUY', price: '-1', quantity: '1', tif: 'GTC' },
      { symbol, side: 'BUY', price: '1', quantity: '0', tif: 'GTC' },
      { symbol, side: 'BUY', price: '1', quantity: '1', tif: 'DAY' },
    ] as const) {
      assert.equal((await order(c, bad as Parameters<typeof order>[1])).status, 400, JSON.stringify(bad));
    }
    const strangers = await client(ref);
    const id = await placed(c, { symbol, side: 'BUY', price: '1', quantity: '1', tif: 'GTC' });
    assert.equal((await order(c, { symbol, side: 'BUY', price: '1', quantity: '1', tif: 'GTC', account: 5 })).status, 400, 'not one of the user\'s accounts');
    assert.equal((await lookup(strangers, id)).status, 404);
    assert.equal((await lookup(c, '123')).status, 404);
  });

  test('cancel: an open order is cancelled once; custody: ECDSA 200, HMAC 403', async () => {
    const ref = await reference();
    const c = await client(ref, 'ECDSA');
    const symbol = newSymbol();
    const id = await placed(c, { symbol, side: 'BUY', price: '10', quantity: '2', tif: 'GTC' });
    const cancel = { commandType: 'V3CancelOrder', orderId: id, symbol, tradingAccountId: c.accounts[0] };
    const a = await c.write(ref.settings.paths.command!, cancel);
    assert.equal(a.status, 200, JSON.stringify(a.body));
    assert.equal(a.body.orderId, id);
    assert.deepEqual(await state(c, id), ['CANCELLED', '0']);
    assert.equal((await c.write(ref.settings.paths.command!, cancel)).status, 400, 'no longer open');
    assert.equal((await c.write(ref.settings.paths.command!, { ...cancel, orderId: '1' })).status, 404);
    // The cancelled bid no longer trades.
    const sell = await placed(c, { symbol, side: 'SELL', price: '10', quantity: '1', tif: 'IOC', account: 1 });
    assert.deepEqual(await state(c, sell), ['CANCELLED', '0']);

    assert.deepEqual((await c.get(ref.settings.paths.custody!)).status, 200);
    const h = await client(ref, 'HMAC');
    assert.equal((await h.get(ref.settings.paths.custody!)).status, 403);
  });

  test('settings: numbers as JSON numbers, other field names and status values', async () => {
    const ref = await reference(undefined, {}, (s) => {
      s.order.numbersAsStrings = false;
      s.order.fields.quantity = 'qty';
      s.orderRecord.status = 'state';
      s.orderRecord.statuses.open = ['NEW'];
    });
    const c = await client(ref);
    const body = { commandType: 'V3CreateOrder', type: 'LIMIT', symbol: newSymbol(), side: 'BUY', price: 0.5, qty: 1e-7, timeInForce: 'GTC', tradingAccountId: c.accounts[0] };
    const a = await c.write(ref.settings.paths.orders, body);
    assert.equal(a.status, 200, JSON.stringify(a.body));
    const record = (await lookup(c, a.body.orderId)).body;
    assert.equal(record.state, 'NEW');
    assert.equal(record.quantity, 1e-7);
    assert.equal(record.quantityFilled, 0);
    assert.equal((await c.write(ref.settings.paths.orders, { ...body, price: '0.5' })).status, 400, 'a string where numbers are expected');
  });
});

// ---- seeded faults -----------------------------------------------------------------------------------------------

describe('seeded faults', () => {
  test('the catalogue: unique names, requirement ids of Interface A; an unknown fault is refused', async () => {
    const names = faults.map((f) => f.name);
    assert.equal(new Set(names).size, names.length);
    for (const f of faults) for (const id of [...f.violates, ...((f as { collateral?: readonly string[] }).collateral ?? [])]) assert.match(id, /^A-[A-Z0-9-]+$/);
    await assert.rejects(() => start({ settings: defaults(), secrets: {}, fault: 'no-such-fault' }), /unknown exchange-session fault/);
  });

  const iocBuy = (c: Client, symbol: string, nonce?: string) =>
    c.write(c.ref.settings.paths.orders, { commandType: 'V3CreateOrder', type: 'LIMIT', symbol, side: 'BUY', price: '1', quantity: '1', timeInForce: 'IOC', tradingAccountId: c.accounts[0] }, {}, nonce);

  test('nonce-equal-accepted and nonce-race let a nonce through twice', async () => {
    const equal = await client(await reference('nonce-equal-accepted'));
    const n = equal.next();
    assert.equal((await iocBuy(equal, newSymbol(), n)).status, 200);
    assert.equal((await iocBuy(equal, newSymbol(), n)).status, 200);

    const race = await client(await reference('nonce-race'));
    const m = race.next();
    const answers = await Promise.all([iocBuy(race, newSymbol(), m), iocBuy(race, newSymbol(), m)]);
    assert.deepEqual(answers.map((a) => a.status), [200, 200]);
  });

  test('refused-nonce-consumed: a refused nonce above the range raises the bar', async () => {
    const c = await client(await reference('refused-nonce-consumed'));
    const { upperBound } = (await c.get(c.ref.settings.paths.nonce)).body;
    assert.equal((await iocBuy(c, newSymbol(), String(BigInt(upperBound) + 10n))).status, 400);
    assert.equal((await iocBuy(c, newSymbol())).status, 400);
  });

  test('nonce-range-milliseconds reports milliseconds', async () => {
    const c = await client(await reference('nonce-range-milliseconds'));
    const { lowerBound, upperBound } = (await c.get(c.ref.settings.paths.nonce)).body;
    assert.ok(lowerBound <= Date.now() && Date.now() <= upperBound);
  });

  test('ioc-remainder-rests, fok-fills-partially, gtc-cancelled-without-cross', async () => {
    const ioc = await client(await reference('ioc-remainder-rests'));
    const s1 = newSymbol();
    await placed(ioc, { symbol: s1, side: 'SELL', price: '10', quantity: '1', tif: 'GTC' });
    assert.deepEqual(await state(ioc, await placed(ioc, { symbol: s1, side: 'BUY', price: '10', quantity: '3', tif: 'IOC', account: 1 })), ['OPEN', '1']);

    const fok = await client(await reference('fok-fills-partially'));
    const s2 = newSymbol();
    await placed(fok, { symbol: s2, side: 'SELL', price: '10', quantity: '1', tif: 'GTC' });
    assert.deepEqual(await state(fok, await placed(fok, { symbol: s2, side: 'BUY', price: '10', quantity: '3', tif: 'FOK', account: 1 })), ['CANCELLED', '1']);

    const gtc = await client(await reference('gtc-cancelled-without-cross'));
    assert.deepEqual(await state(gtc, await placed(gtc, { symbol: newSymbol(), side: 'SELL', price: '10', quantity: '1', tif: 'GTC' })), ['CANCELLED', '0']);
  });

  test('logins: ecdsa-userid-unchecked, ecdsa-expiry-unchecked, hmac-message-reordered, whitelist-unenforced', async () => {
    const userid = await reference('ecdsa-userid-unchecked');
    assert.equal((await ecdsaLogin(userid, await ecdsaKey(userid), { userId: '42' })).status, 200);

    const expiry = await reference('ecdsa-expiry-unchecked');
    const now = Math.floor(Date.now() / 1000);
    assert.equal((await ecdsaLogin(expiry, await ecdsaKey(expiry), { nonce: now - 900, expirationTime: now - 600 })).status, 200);

    const reordered = await reference('hmac-message-reordered');
    assert.equal((await hmacLogin(reordered, await hmacKey(reordered))).status, 401);

    const open = await reference('whitelist-unenforced');
    assert.equal((await hmacLogin(open, await hmacKey(open, { whitelist: ['10.0.0.0/8'] }))).status, 200);
  });

  test('tokens: token-one-hour, token-signature-unchecked', async () => {
    const hour = await client(await reference('token-one-hour'));
    const claims = decodeJwt(hour.token);
    assert.equal(claims.exp! - claims.iat!, 3600);

    const ref = await reference('token-signature-unchecked');
    const real = await client(ref);
    const { sub, keyId, keyType } = decodeJwt(real.token);
    const forged = await new SignJWT({ keyId, keyType }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub!).setIssuedAt().setExpirationTime('1h').sign(new Uint8Array(32));
    const a = await call(ref, 'GET', ref.settings.paths.tradingAccounts, { headers: { authorization: `Bearer ${forged}` } });
    assert.equal(a.status, 200);
    assert.deepEqual(a.body.map((x: { tradingAccountId: string }) => x.tradingAccountId), real.accounts);
  });

  test('hmac-reaches-custody, ratelimit-token-refused, ack-without-order-id, lookup-without-status', async () => {
    const custody = await client(await reference('hmac-reaches-custody'), 'HMAC');
    assert.equal((await custody.get(custody.ref.settings.paths.custody!)).status, 200);

    const limited = await client(await reference('ratelimit-token-refused'));
    assert.equal((await limited.get(limited.ref.settings.paths.nonce)).status, 200);
    assert.equal((await limited.get(limited.ref.settings.paths.nonce, { 'BX-RATELIMIT-TOKEN': 'x' })).status, 400);

    const ack = await client(await reference('ack-without-order-id'));
    const a = await order(ack, { symbol: newSymbol(), side: 'BUY', price: '1', quantity: '1', tif: 'GTC' });
    assert.equal(a.body.orderId, undefined);
    assert.equal((await lookup(ack, a.body.id)).status, 200);

    const noStatus = await client(await reference('lookup-without-status'));
    const record = (await lookup(noStatus, await placed(noStatus, { symbol: newSymbol(), side: 'BUY', price: '1', quantity: '1', tif: 'GTC' }))).body;
    assert.equal('status' in record, false);
    assert.equal(record.quantityFilled, '0');
  });
});
