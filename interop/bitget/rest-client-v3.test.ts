// Real-client interoperability of the unified exchange: bitget-api's RestClientV3, unmodified, against the embedded
// reference in its default readings (the public exchange's signing, envelope and paths). The SDK signs, sends and
// parses as shipped; each step asserts what the document says of the answer it got.
//
// Run from the repository's root: node --import tsx/esm --test interop/bitget/rest-client-v3.test.ts
// (bitget-api resolves from interop/bitget/node_modules: `npm ci --prefix interop/bitget` first, or `npm run test:interop`).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { RestClientV3 } from 'bitget-api';
import { start } from '../../mocks/unified-exchange/server.ts';
import { unifiedExchangeEntry, type UnifiedExchangeSettings } from '../../interfaces/unified-exchange/settings.ts';

const KEY = { apiKey: 'interop-key', secret: 'interop-secret', passphrase: 'interop-passphrase' };
const SECRETS = { trade_apiKey: KEY.apiKey, trade_secret: KEY.secret, trade_passphrase: KEY.passphrase };
/** A buy far below the reference's market, so that it rests. */
const FAR_BUY = '1000';

let reference: { url: string; close(): Promise<void> };
let client: RestClientV3;

before(async () => {
  const settings = Value.Default(unifiedExchangeEntry().properties.settings, {}) as UnifiedExchangeSettings;
  reference = await start({ settings, reference: {}, secrets: SECRETS, host: '127.0.0.1', port: 0 });
  client = new RestClientV3({ apiKey: KEY.apiKey, apiSecret: KEY.secret, apiPass: KEY.passphrase, baseUrl: reference.url });
});
after(async () => reference?.close());

/** What the SDK threw, with the body it got: its own error says only "Bad Request". */
async function sdk<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    const body = (e as { body?: unknown }).body;
    throw new Error(`${what}: ${(e as Error).message ?? e} ${JSON.stringify(body ?? e).slice(0, 400)}`);
  }
}

/** Every success of the public exchange's envelope: code "00000" and the payload in data. */
function succeeded<T extends { code: string; data: unknown }>(answer: T): T['data'] {
  assert.equal(answer.code, '00000', `a success carries code "00000": ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.data;
}

test('server time: close to this machine clock, as a string of milliseconds', async () => {
  const data = succeeded(await sdk('getServerTime', () => client.getServerTime())) as { serverTime: string };
  assert.equal(typeof data.serverTime, 'string');
  assert.ok(Math.abs(Number(data.serverTime) - Date.now()) < 5000, `server time ${data.serverTime} within 5 s of ${Date.now()}`);
});

test('market data: the order book best first, candles at most 1000 and on their interval', async () => {
  // The document names the sides bids and asks; the SDK's type says a and b (the public exchange's names), but the
  // SDK hands the body over as it came, so the document's names are what a client of this deployment reads.
  const book = succeeded(await sdk('getOrderBook', () => client.getOrderBook({ category: 'SPOT', symbol: 'BTCUSDT' }))) as unknown as { asks: string[][]; bids: string[][] };
  assert.ok(book.asks.length > 0 && book.bids.length > 0, 'both sides hold levels');
  const asks = book.asks.map((l) => Number(l[0]));
  const bids = book.bids.map((l) => Number(l[0]));
  assert.deepEqual(asks, [...asks].sort((x, y) => x - y), 'asks lowest first');
  assert.deepEqual(bids, [...bids].sort((x, y) => y - x), 'bids highest first');
  const candles = succeeded(await sdk('getCandles', () => client.getCandles({ category: 'SPOT', symbol: 'BTCUSDT', interval: '1m', limit: '5000' } as never))) as string[][];
  assert.ok(candles.length > 0 && candles.length <= 1000, `${candles.length} candles, at most 1000`);
  const starts = candles.map((c) => Number(c[0])).sort((x, y) => x - y);
  for (let i = 1; i < starts.length; i++) assert.equal((starts[i] - starts[i - 1]) % 60_000, 0, 'one-minute candles start on the minute grid');
});

test('account reads: assets and account info, signed by the client', async () => {
  succeeded(await sdk('getBalances', () => client.getBalances()));
  succeeded(await sdk('getAccountInfo', () => client.getAccountInfo()));
});

// The document's lookup takes orderId (its status member is `status`; the SDK's type, the public exchange's, says
// orderStatus, but the SDK hands the body over as it came).
test('an order: placed with a clientOid, looked up by its id, cancelled', async () => {
  const clientOid = `interop-${Date.now()}`;
  const placed = succeeded(
    await sdk('submitNewOrder', () => client.submitNewOrder({ category: 'SPOT', symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', qty: '0.001', price: FAR_BUY, timeInForce: 'gtc', clientOid } as never)),
  ) as { orderId: string; clientOid: string };
  assert.equal(typeof placed.orderId, 'string');
  const byId = succeeded(await sdk('getOrderInfo', () => client.getOrderInfo({ orderId: placed.orderId } as never))) as unknown as { orderId: string; status: string };
  assert.equal(byId.orderId, placed.orderId);
  assert.equal(byId.status, 'live', 'a resting order with nothing filled is live');
  succeeded(await sdk('cancelOrder', () => client.cancelOrder({ orderId: placed.orderId } as never)));
  const after = succeeded(await sdk('getOrderInfo', () => client.getOrderInfo({ orderId: placed.orderId } as never))) as unknown as { status: string };
  assert.equal(after.status, 'cancelled');
});

test('the countdown: armed for 5 seconds, then disarmed with "0"', async () => {
  succeeded(await sdk('countdownCancelAll', () => client.countdownCancelAll({ countdown: '5' } as never)));
  succeeded(await sdk('countdownCancelAll', () => client.countdownCancelAll({ countdown: '0' } as never)));
});
