// Real-client interoperability of Interface A (exchange-session): ccxt's `bullish` class, unmodified, against the
// embedded reference. A loopback recorder sits between the two and keeps every exchange, so each step asserts what the
// document says about the request ccxt actually sent and the answer the reference actually gave. Where ccxt and the
// document part ways, the step asserts that the difference is exactly the known one and records it (t.diagnostic):
// the reference keeps to the document, ccxt is driven as shipped, and nothing on either side is patched.
//
// Run from the repository's root: node --import tsx/esm --test interop/ccxt/bullish.test.ts
// (ccxt resolves from interop/ccxt/node_modules: `npm ci --prefix interop/ccxt` first, or `npm run test:interop`).
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { after, before, test, type TestContext } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import ccxt from 'ccxt';
import { start } from '../../mocks/exchange-session/server.ts';
import { exchangeSessionEntry, type ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';

const CCXT_VERSION = (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { dependencies: { ccxt: string } }).dependencies.ccxt;

// The paths of Interface A as the reference serves them (its default settings) and ccxt's bullish class requests them.
const LOGIN = '/trading-api/v1/users/hmac/login';
const ACCOUNTS = '/trading-api/v1/accounts/trading-accounts';
const NONCE = '/trading-api/v1/nonce';
const ORDERS = '/trading-api/v2/orders';
const KEY_CREATION = '/__reference/api-keys';

/** The one market the test trades, given to ccxt up front so that it never asks for market data (see `connect`). */
const SYMBOL = 'BTC/USDC';
const MARKET_ID = 'BTCUSDC';
const DAY_US = 86_400_000_000;

// ---- a recorder between ccxt and the reference ---------------------------------------------------------------------

interface Recorded {
  method: string;
  /** Path and query as sent. */
  url: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
  response: string;
}

interface Recorder {
  url: string;
  log: Recorded[];
  close(): Promise<void>;
}

/** A loopback pass-through that forwards every request unchanged to `target` and keeps the exchange. */
async function recorder(target: string): Promise<Recorder> {
  const upstream = new URL(target);
  const log: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const response = Buffer.concat(parts);
            const url = req.url ?? '/';
            log.push({
              method: req.method ?? '',
              url,
              path: url.split('?')[0],
              headers: req.headers,
              body: body.toString('utf8'),
              status: answer.statusCode ?? 0,
              response: response.toString('utf8'),
            });
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(response);
          });
        },
      );
      forward.on('error', (error) => res.destroy(error));
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Runs `step` and hands back what went over the wire meanwhile. */
async function exchanged<T>(wire: Recorder, step: () => Promise<T>): Promise<{ result: T; sent: Recorded[] }> {
  const mark = wire.log.length;
  const result = await step();
  return { result, sent: wire.log.slice(mark) };
}

/** Same, for a step that must be refused: the rejection is returned instead of thrown. */
async function refused(wire: Recorder, step: () => Promise<unknown>): Promise<{ error: Error; sent: Recorded[] }> {
  const mark = wire.log.length;
  try {
    await step();
  } catch (error) {
    return { error: error as Error, sent: wire.log.slice(mark) };
  }
  assert.fail('expected the step to be refused');
}

const header = (r: Recorded, name: string): string | undefined => {
  const value = r.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

// ---- the reference, a key and a ccxt instance ----------------------------------------------------------------------

interface HmacKey {
  type: string;
  publicKey: string;
  secret: string;
  userId: string;
}

interface Deployment {
  reference: { url: string; close(): Promise<void> };
  wire: Recorder;
  key: HmacKey;
  exchange: InstanceType<typeof ccxt.bullish>;
}

function settings(): ExchangeSessionSettings {
  const value = Value.Default(exchangeSessionEntry().properties.settings, {}) as ExchangeSessionSettings;
  // As targets/reference.yaml configures them; this test never sends to either.
  value.paths.command = '/trading-api/v2/command';
  value.paths.custody = '/trading-api/v1/wallets/limits/BTC';
  return value;
}

async function deploy(reference: { requireSignedWrites?: boolean } = {}): Promise<Deployment> {
  const server = await start({ settings: settings(), reference, secrets: {}, host: '127.0.0.1', port: 0 });
  const wire = await recorder(server.url);
  // The reference-only key creation (the document shows no path for it); the test's own request, not ccxt's.
  const created = await fetch(`${server.url}${KEY_CREATION}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'HMAC' }),
  });
  assert.equal(created.status, 200, 'the reference creates an HMAC key');
  const key = (await created.json()) as HmacKey;
  assert.equal(key.type, 'HMAC');
  assert.ok(key.publicKey && key.secret && key.userId, 'an HMAC key comes with publicKey, secret and userId');

  const exchange = new ccxt.bullish({
    apiKey: key.publicKey,
    secret: key.secret,
    // ccxt appends its paths to these and signs '/trading-api/' + path, so the base ends with /trading-api, like the
    // document's sandbox address ("the sandbox address already ends with that segment").
    urls: { api: { public: `${wire.url}/trading-api`, private: `${wire.url}/trading-api` } },
    // createOrder and fetchOrder call loadMarkets(), which would GET v1/assets and v1/markets: market data the
    // document does not cover. A market given here is ccxt's own configuration; loadMarkets() then sends nothing.
    markets: {
      [SYMBOL]: {
        id: MARKET_ID,
        symbol: SYMBOL,
        base: 'BTC',
        quote: 'USDC',
        baseId: 'BTC',
        quoteId: 'USDC',
        type: 'spot',
        spot: true,
        margin: false,
        swap: false,
        future: false,
        option: false,
        contract: false,
        active: true,
        precision: { amount: 0.001, price: 0.01 },
        limits: { amount: { min: 0.001 }, price: {}, cost: {} },
      },
    },
    timeout: 5000,
  });
  return { reference: server, wire, key, exchange };
}

async function undeploy(d: Deployment | undefined): Promise<void> {
  if (!d) return;
  await d.wire.close();
  await d.reference.close();
}

/** The start of the UTC day holding `ms` and of the next one, in epoch microseconds. */
function utcDay(ms: number): { start: number; next: number } {
  const d = new Date(ms);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return { start: start * 1000, next: (start + 86_400_000) * 1000 };
}

// ---- the steps -----------------------------------------------------------------------------------------------------

let main: Deployment;
/** What the steps learn and later steps use. */
const state: {
  token?: string;
  accounts?: Array<{ tradingAccountId: string; rateLimitToken: string }>;
  range?: { lowerBound: number; upperBound: number };
  restingOrderId?: string;
} = {};

before(async () => {
  main = await deploy();
});

after(async () => {
  await undeploy(main);
});

test('ccxt version', (t) => {
  const installed = (JSON.parse(readFileSync(new URL('./node_modules/ccxt/package.json', import.meta.url), 'utf8')) as { version: string }).version;
  assert.equal(installed, CCXT_VERSION, 'the installed ccxt is the pinned one (npm ci --prefix interop/ccxt)');
  t.diagnostic(`ccxt ${installed}, class bullish, unmodified; ${main.reference.url} behind recorder ${main.wire.url}`);
});

test('HMAC login: signIn() sends the four BX headers, signed as the document says, and keeps token and authorizer', async (t) => {
  const { exchange, wire, key } = main;
  const { result: token, sent } = await exchanged(wire, () => exchange.signIn());

  assert.deepEqual(sent.map((r) => `${r.method} ${r.url}`), [`GET ${LOGIN}`], 'one request: GET /trading-api/v1/users/hmac/login');
  const [login] = sent;
  const timestamp = header(login, 'BX-TIMESTAMP')!;
  const nonce = header(login, 'BX-NONCE')!;
  // "BX-TIMESTAMP | milliseconds since epoch"
  assert.match(timestamp, /^\d{13}$/);
  assert.ok(Math.abs(Number(timestamp) - Date.now()) < 60_000, 'BX-TIMESTAMP is now, in milliseconds');
  // "BX-NONCE | client-side incremented 64-bit unsigned integer"
  assert.match(nonce, /^\d{1,20}$/);
  assert.ok(BigInt(nonce) < 2n ** 64n);
  // "BX-PUBLIC-KEY | the HMAC public key"
  assert.equal(header(login, 'BX-PUBLIC-KEY'), key.publicKey);
  // "BX-SIGNATURE | HMAC signature of the concatenation of timestamp, nonce, the text GET and the path
  // /trading-api/v1/users/hmac/login". Hash and encoding are "not shown": ccxt's HMAC-SHA256, lowercase hex, with
  // the secret as UTF-8 text is what the reference's default settings take.
  assert.equal(header(login, 'BX-SIGNATURE'), createHmac('sha256', key.secret).update(`${timestamp}${nonce}GET${LOGIN}`).digest('hex'));
  assert.equal(header(login, 'Authorization'), undefined, 'the login itself carries no token');

  // "Login response: token (JWT, valid 24 hours), authorizer"
  assert.equal(login.status, 200);
  const body = JSON.parse(login.response) as { token: unknown; authorizer: unknown };
  assert.equal(typeof body.token, 'string');
  assert.equal(typeof body.authorizer, 'string');
  const parts = (body.token as string).split('.');
  assert.equal(parts.length, 3, 'the token is a JWT');
  const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { iat?: number; exp?: number };
  assert.equal(claims.exp! - claims.iat!, 24 * 60 * 60, 'valid 24 hours');

  // ccxt reads exactly these two fields and assumes the same lifetime.
  assert.equal(token, body.token);
  assert.equal(exchange.token, body.token);
  assert.equal(exchange.options.authorizer, body.authorizer);
  assert.ok(Math.abs(Number(exchange.options.tokenExpires) - (Date.now() + 86_400_000)) < 60_000, 'ccxt expects the token to last 24 hours');
  state.token = body.token as string;
  t.diagnostic('HMAC login: agrees. ccxt signs timestamp + nonce + GET + /trading-api/v1/users/hmac/login with HMAC-SHA256 (hex); its BX-NONCE is epoch microseconds');
});

test('trading accounts: fetchAccounts() reads the documented list; ccxt finds "its" account by a field the document does not show', async (t) => {
  const { exchange, wire } = main;
  assert.ok(state.token, 'needs the login step');
  const { result: accounts, sent } = await exchanged(wire, () => exchange.fetchAccounts());

  // No market data: the markets given to ccxt make loadMarkets() send nothing.
  assert.deepEqual(sent.map((r) => `${r.method} ${r.path}`), [`GET ${ACCOUNTS}`]);
  const [list] = sent;
  // "List trading accounts | Authorization header | array of trading accounts"; "Every authenticated request carries
  // Authorization: Bearer <JWT_TOKEN>"
  assert.equal(header(list, 'Authorization'), `Bearer ${state.token}`);
  assert.equal(list.status, 200);
  const body = JSON.parse(list.response) as Array<Record<string, unknown>>;
  assert.ok(Array.isArray(body) && body.length > 0, 'a non-empty array');
  // "Trading account (list element): tradingAccountId, rateLimitToken"
  for (const account of body) {
    assert.equal(typeof account.tradingAccountId, 'string');
    assert.ok((account.tradingAccountId as string).length > 0);
    assert.equal(typeof account.rateLimitToken, 'string');
    assert.ok((account.rateLimitToken as string).length > 0);
  }
  assert.deepEqual(accounts.map((a: { id?: string }) => a.id), body.map((a) => a.tradingAccountId), 'ccxt takes each id from tradingAccountId');
  state.accounts = body as Array<{ tradingAccountId: string; rateLimitToken: string }>;

  // Known difference. Every trading call of ccxt (createOrder, fetchOrder, ...) first runs loadAccount(), which takes
  // options.tradingAccountId or else picks the element whose tradingAccountName is exactly "Primary Account". The
  // document: "Trading account (list element): tradingAccountId, rateLimitToken. Other fields of a trading account:
  // not shown." So ccxt depends on a field the document leaves to the deployment; what it does is predicted here from
  // the list the reference sent, and must be exactly that.
  const names = body.map((a) => a.tradingAccountName);
  const primary = body.find((a) => a.tradingAccountName === 'Primary Account');
  const { result: outcome, sent: lookup } = await exchanged(wire, () =>
    exchange.loadAccount().then(
      (id: string) => ({ id }),
      (error: unknown) => ({ error }),
    ),
  );
  assert.deepEqual(lookup.map((r) => `${r.method} ${r.path}`), [`GET ${ACCOUNTS}`], 'loadAccount() lists the accounts again');
  if (primary) {
    assert.deepEqual(outcome, { id: primary.tradingAccountId });
    t.diagnostic(`DIFFERENCE (trading accounts): ccxt chose the account named "Primary Account", a field the document does not show; it works here only because the reference happens to send that name`);
  } else {
    assert.ok('error' in outcome && outcome.error instanceof ccxt.ArgumentsRequired, 'ccxt refuses to trade without an account named "Primary Account"');
    t.diagnostic(
      `DIFFERENCE (trading accounts, expected): ccxt looks for tradingAccountName === "Primary Account"; the reference names its accounts ${JSON.stringify(names)} ` +
        `(the document shows only tradingAccountId and rateLimitToken: "Other fields of a trading account: not shown"), so loadAccount() throws ArgumentsRequired. ` +
        `A ccxt user sets options.tradingAccountId from the documented tradingAccountId instead, as the next steps do`,
    );
  }
  // ccxt's documented option; the first listed account (the document ranks none above another).
  exchange.options.tradingAccountId = body[0].tradingAccountId;
});

test('nonce range: ccxt asks without a token and is refused; with the Authorization header the range is the current day in microseconds', async (t) => {
  const { exchange, wire } = main;
  assert.ok(state.token, 'needs the login step');

  // Known difference. ccxt lists v1/nonce among its public (unauthenticated) endpoints: publicGetV1Nonce() sends
  // neither Authorization nor any BX header. The document: "Get nonce range | ... | Authorization header |
  // lowerBound, upperBound" and "Every authenticated request carries Authorization: Bearer <JWT_TOKEN>". The reference
  // keeps to the document and refuses.
  const bare = await refused(wire, () => exchange.publicGetV1Nonce());
  assert.deepEqual(bare.sent.map((r) => `${r.method} ${r.url}`), [`GET ${NONCE}`]);
  const [unauthenticated] = bare.sent;
  assert.equal(header(unauthenticated, 'Authorization'), undefined, 'ccxt sends no token for the nonce range');
  assert.deepEqual(Object.keys(unauthenticated.headers).filter((h) => h.startsWith('bx-')), [], 'nor any BX header');
  assert.ok(unauthenticated.status >= 400 && unauthenticated.status < 500, `the reference refuses it (got ${unauthenticated.status})`);
  assert.ok(bare.error instanceof ccxt.BaseError, 'ccxt surfaces the refusal as one of its errors');
  t.diagnostic(
    `DIFFERENCE (nonce range, expected): ccxt's publicGetV1Nonce() sends GET ${NONCE} without Authorization; the document lists "Authorization header" for Get nonce range, ` +
      `so the reference answers ${unauthenticated.status} ${unauthenticated.response} and ccxt throws ${bare.error.constructor.name} ` +
      `(ccxt classes errors by errorCode from its own table of the exchange's codes; the document shows none: "Error codes and error body shape: not shown")`,
  );

  // The operation as the document states it, still through ccxt's own transport: its generic request() with the
  // header a user adds. This is a call any ccxt user can make, not a change to ccxt.
  const before = Date.now();
  const { result: range, sent } = await exchanged(wire, () => exchange.request('v1/nonce', 'public', 'GET', {}, { Authorization: `Bearer ${state.token}` }));
  const afterMs = Date.now();
  assert.deepEqual(sent.map((r) => `${r.method} ${r.url}`), [`GET ${NONCE}`]);
  assert.equal(header(sent[0], 'Authorization'), `Bearer ${state.token}`);
  assert.equal(sent[0].status, 200);
  const { lowerBound, upperBound } = range as { lowerBound: unknown; upperBound: unknown };
  assert.ok(Number.isSafeInteger(lowerBound) && Number.isSafeInteger(upperBound), 'lowerBound and upperBound are integers');
  const lower = lowerBound as number;
  const upper = upperBound as number;
  // "lowerBound | start of the current day in epoch microseconds"; "upperBound | end of the current day in epoch
  // microseconds". The reference's day is UTC (settings.nonceTimeZone). "End" read either way: the day's last
  // microsecond or the next day's first.
  const days = [utcDay(before), utcDay(afterMs)];
  assert.ok(
    days.some((d) => lower === d.start && (upper === d.next - 1 || upper === d.next)),
    `[${lower}, ${upper}] is the current UTC day in microseconds`,
  );
  assert.ok(upper - lower <= DAY_US);
  state.range = { lowerBound: lower, upperBound: upper };

  // ccxt never reads this range: its BX-NONCE is Date.now() * 1000, which falls inside it by construction.
  const nonces = wire.log.map((r) => header(r, 'BX-NONCE')).filter((n): n is string => n !== undefined).map(Number);
  assert.ok(nonces.length > 0);
  for (const n of nonces) assert.ok(n >= lower && n <= upper, `ccxt's BX-NONCE ${n} lies in [lowerBound, upperBound]`);
  t.diagnostic(`nonce range: [${lower}, ${upper}] with the token; ccxt's nonces (epoch microseconds) fall inside it without reading it`);
});

test('create order: createOrder() sends a limit order with Authorization, BX-NONCE and a JSON command; the 200 carries orderId', async (t) => {
  const { exchange, wire } = main;
  const accountId = state.accounts?.[0]?.tradingAccountId;
  assert.ok(state.token && accountId && state.range, 'needs the earlier steps');

  const { result: order, sent } = await exchanged(wire, () => exchange.createOrder(SYMBOL, 'limit', 'buy', 0.001, 1));
  assert.deepEqual(sent.map((r) => `${r.method} ${r.url}`), [`POST ${ORDERS}`], 'one request, no market data, no account lookup');
  const [post] = sent;
  // "Submit order | headers Authorization and BX-NONCE; JSON command body | HTTP 200 with orderId"
  assert.equal(header(post, 'Authorization'), `Bearer ${state.token}`);
  const nonce = Number(header(post, 'BX-NONCE'));
  assert.ok(nonce >= state.range.lowerBound && nonce <= state.range.upperBound, 'BX-NONCE lies within [lowerBound, upperBound]');
  assert.match(header(post, 'Content-Type') ?? '', /^application\/json/);
  // "The command is a JSON body for a limit order with a price, a quantity, a side, a market pair and a time in
  // force." Field names other than timeInForce are not shown; ccxt's are the ones the reference's settings default to.
  assert.deepEqual(JSON.parse(post.body), {
    commandType: 'V3CreateOrder',
    symbol: MARKET_ID,
    type: 'LIMIT',
    side: 'BUY',
    price: '1',
    quantity: '0.001',
    timeInForce: 'GTC',
    tradingAccountId: accountId,
  });
  // "Acknowledgement: HTTP 200 carrying orderId."
  assert.equal(post.status, 200);
  const ack = JSON.parse(post.response) as { orderId?: unknown };
  assert.equal(typeof ack.orderId, 'string');
  assert.equal(order.id, ack.orderId, 'ccxt reads the id from orderId');
  state.restingOrderId = order.id;
  t.diagnostic(
    `create order: agrees. ccxt also sends BX-TIMESTAMP and BX-SIGNATURE on the write (not in the document; the reference ignores them unless started with requireSignedWrites)`,
  );
});

test('get order: fetchOrder() reads status and quantityFilled of the order just placed', async (t) => {
  const { exchange, wire } = main;
  const orderId = state.restingOrderId;
  assert.ok(state.token && orderId, 'needs the create-order step');

  const { result: order, sent } = await exchanged(wire, () => exchange.fetchOrder(orderId, SYMBOL));
  assert.deepEqual(sent.map((r) => `${r.method} ${r.path}`), [`GET ${ORDERS}/${orderId}`], 'GET /trading-api/v2/orders/<order_id>');
  const [get] = sent;
  // "Get order | GET | /trading-api/v2/orders/<order_id> | Authorization header | order record including its current status"
  assert.equal(header(get, 'Authorization'), `Bearer ${state.token}`);
  assert.equal(get.status, 200);
  const record = JSON.parse(get.response) as Record<string, unknown>;
  // "GTC | good till cancelled; open until filled or cancelled": a buy at 1 on an empty book rests.
  assert.equal(record.status, 'OPEN');
  assert.equal(Number(record.quantityFilled), 0);
  assert.equal(order.id, orderId);
  assert.equal(order.status, 'open');
  assert.equal(order.filled, 0);
  // ccxt adds the account as a query parameter (the document's request is the Authorization header alone; the
  // reference ignores the query).
  assert.equal(new URL(get.url, 'http://x').searchParams.get('tradingAccountId'), state.accounts![0].tradingAccountId);
  t.diagnostic(`get order: agrees (OPEN -> ccxt "open"). ccxt adds ?tradingAccountId=... to the lookup, which the document does not show and the reference ignores`);
});

test('time in force through ccxt: FOK and IOC that cannot fill are cancelled; a crossing sell fills the resting buy', async (t) => {
  const { exchange, wire } = main;
  const [first, second] = state.accounts ?? [];
  assert.ok(state.restingOrderId && first && second, 'needs the earlier steps and two trading accounts');

  // "FOK | fill or kill; cancelled at once if it cannot be filled in full"; "IOC | immediate or cancel; filled in full
  // or in part, remainder cancelled". Nothing is offered, so both end cancelled with nothing filled.
  for (const timeInForce of ['FOK', 'IOC'] as const) {
    const placed = await exchange.createOrder(SYMBOL, 'limit', 'buy', 0.001, 1, { timeInForce });
    assert.equal(JSON.parse(wire.log.at(-1)!.body).timeInForce, timeInForce);
    const { result: order, sent } = await exchanged(wire, () => exchange.fetchOrder(placed.id!, SYMBOL));
    const record = JSON.parse(sent[0].response) as Record<string, unknown>;
    assert.equal(record.status, 'CANCELLED', `${timeInForce} without a counterpart is cancelled`);
    assert.equal(Number(record.quantityFilled), 0);
    assert.equal(order.status, 'canceled');
  }

  // The second account sells into the resting buy: both fill in full. ccxt's loadAccount() keeps the account it was
  // last given, so the option is set back afterwards.
  const sell = await exchange.createOrder(SYMBOL, 'limit', 'sell', 0.001, 1, { tradingAccountId: second.tradingAccountId });
  assert.equal(JSON.parse(wire.log.at(-1)!.body).tradingAccountId, second.tradingAccountId);
  exchange.options.tradingAccountId = first.tradingAccountId;
  for (const id of [sell.id!, state.restingOrderId]) {
    const { result: order, sent } = await exchanged(wire, () => exchange.fetchOrder(id, SYMBOL));
    const record = JSON.parse(sent[0].response) as Record<string, unknown>;
    assert.equal(record.status, 'CLOSED');
    assert.equal(Number(record.quantityFilled), 0.001);
    assert.equal(order.status, 'closed');
    assert.equal(order.filled, 0.001);
  }
  t.diagnostic('time in force: agrees (CANCELLED -> ccxt "canceled", CLOSED -> ccxt "closed", quantityFilled -> filled)');
});

test('rate-limit token: ccxt sends it under another header name than the document\'s BX-RATELIMIT-TOKEN', async (t) => {
  const { exchange, wire } = main;
  const [first] = state.accounts ?? [];
  assert.ok(first, 'needs the trading-accounts step');

  // Known-by-reading difference. ccxt's sign() adds BX-RATE-LIMIT-TOKEN, on POST only and only when the caller passes
  // params.rateLimitToken, and since the whole params become the body, the token is copied into the command too. The
  // document: "Optional header on authenticated requests: BX-RATELIMIT-TOKEN carrying a rateLimitToken, which unlocks
  // higher rate-limit tiers." So through ccxt the token never arrives under the document's name.
  const { result: order, sent } = await exchanged(wire, () =>
    exchange.createOrder(SYMBOL, 'limit', 'buy', 0.001, 1, { timeInForce: 'FOK', rateLimitToken: first.rateLimitToken }),
  );
  assert.deepEqual(sent.map((r) => `${r.method} ${r.path}`), [`POST ${ORDERS}`]);
  const [post] = sent;
  assert.equal(header(post, 'BX-RATE-LIMIT-TOKEN'), first.rateLimitToken, 'ccxt names the header BX-RATE-LIMIT-TOKEN');
  assert.equal(header(post, 'BX-RATELIMIT-TOKEN'), undefined, 'and never sends the document\'s BX-RATELIMIT-TOKEN');
  assert.equal(JSON.parse(post.body).rateLimitToken, first.rateLimitToken, 'the token also lands in the command body');
  // The header is optional and the command's other members are not shown, so the order itself stands.
  assert.equal(post.status, 200);
  assert.equal(typeof order.id, 'string');
  t.diagnostic(
    'DIFFERENCE (rate-limit token): ccxt sends BX-RATE-LIMIT-TOKEN (POST only, when given params.rateLimitToken, and copies it into the body); ' +
      'the document\'s header is BX-RATELIMIT-TOKEN ("Optional header on authenticated requests"), so a ccxt client never presents its token. The order itself is accepted',
  );
});

test('BX-NONCE of every ccxt write: within the range, strictly increasing, never reused', (t) => {
  const { wire } = main;
  assert.ok(state.range, 'needs the nonce-range step');
  // "BX-NONCE must lie within [lowerBound, upperBound], be strictly greater than the nonce of the previous request and
  // never be reused." ccxt's nonce is Date.now() * 1000 and its throttle spaces requests by at least 20 ms (its
  // rateLimit), so consecutive writes never share a millisecond.
  const writes = wire.log.filter((r) => r.method === 'POST' && r.path === ORDERS);
  assert.ok(writes.length >= 5);
  const nonces = writes.map((r) => BigInt(header(r, 'BX-NONCE')!));
  for (let i = 0; i < nonces.length; i++) {
    assert.ok(nonces[i] >= BigInt(state.range.lowerBound) && nonces[i] <= BigInt(state.range.upperBound));
    if (i > 0) assert.ok(nonces[i] > nonces[i - 1], `write ${i + 1}'s nonce is greater than write ${i}'s`);
    assert.equal(writes[i].status, 200, 'the reference accepted it');
  }
  t.diagnostic(`BX-NONCE: ${writes.length} writes, all accepted, nonces strictly increasing epoch microseconds`);
});

// Beyond the document: the reference can be started with `requireSignedWrites` (the public exchange's signed writes,
// which the document does not describe). Recorded, not judged: the document says nothing either side must follow.
test('beyond the document: ccxt\'s write signature against a reference started with requireSignedWrites', async (t) => {
  const signed = await deploy({ requireSignedWrites: true });
  try {
    const { exchange, wire, key } = signed;
    await exchange.signIn();
    const listed = await exchange.fetchAccounts();
    exchange.options.tradingAccountId = listed[0].id;
    const { sent } = await exchanged(wire, () =>
      exchange.createOrder(SYMBOL, 'limit', 'buy', 0.001, 1, { timeInForce: 'FOK' }).catch((error: unknown) => error),
    );
    const [post] = sent;
    const timestamp = header(post, 'BX-TIMESTAMP')!;
    const nonce = header(post, 'BX-NONCE')!;
    const message = `${timestamp}${nonce}POST${ORDERS}${post.body}`;
    const plain = createHmac('sha256', key.secret).update(message).digest('hex');
    const digested = createHmac('sha256', key.secret).update(createHash('sha256').update(message).digest('hex')).digest('hex');
    // What ccxt does, independently recomputed: HMAC-SHA256 over the hex SHA-256 digest of the message.
    assert.equal(header(post, 'BX-SIGNATURE'), digested, 'ccxt signs HMAC(secret, hex(sha256(timestamp + nonce + POST + path + body)))');
    assert.notEqual(digested, plain);
    t.diagnostic(
      `signed writes (outside the document): ccxt signs HMAC-SHA256(secret, hex(SHA-256(timestamp + nonce + "POST" + path + body))); ` +
        `the reference with requireSignedWrites answered ${post.status} ${post.response}`,
    );
  } finally {
    await undeploy(signed);
  }
});
