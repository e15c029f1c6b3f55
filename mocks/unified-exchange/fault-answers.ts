// The seeded faults that spoil a success answer after its part made it (routing/catalogue.ts): amounts written as JSON
// numbers, the payload put beside the envelope's members instead of in data. Refusals are left alone.
import type { RoutingFault } from './choices.ts';
import type { Op } from './operations.ts';
import type { Reply } from './replies.ts';

/** The operations whose answers U-CONV-STRINGS names, and the amount members it names. */
const STRING_AMOUNT_OPERATIONS = new Set(['getTickers', 'getMarketFills', 'getCandles', 'getHistoryCandles', 'getOngoingLoans', 'getEarnProducts', 'listP2pAds']);
const AMOUNT_MEMBERS = new Set(['lastPr', 'price', 'size', 'loanAmount', 'minSubscribeAmount', 'quantity']);
const CANDLE_OPERATIONS = new Set(['getCandles', 'getHistoryCandles']);
/** The snapshots whose payload the fault payload-outside-data moves out of data. */
const SNAPSHOTS = new Set(['getAccountAssets', 'getFundingAssets']);

export function distorted(op: Op, reply: Reply, on: RoutingFault): Reply {
  if (reply.status >= 300 || !reply.body || typeof reply.body !== 'object') return reply;
  const body = reply.body as Record<string, unknown>;
  if (on('numbers-not-strings') && STRING_AMOUNT_OPERATIONS.has(op.id)) {
    return { ...reply, body: { ...body, data: CANDLE_OPERATIONS.has(op.id) ? candlesAsNumbers(body.data) : amountsAsNumbers(body.data) } };
  }
  if (on('payload-outside-data') && SNAPSHOTS.has(op.id)) {
    const { data, ...envelope } = body;
    const payload = data && typeof data === 'object' && !Array.isArray(data) ? data : { assets: data };
    return { ...reply, body: { ...envelope, ...payload } };
  }
  return reply;
}

function amountsAsNumbers(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => amountsAsNumbers(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, amountsAsNumbers(v, k)]));
  return key && AMOUNT_MEMBERS.has(key) && typeof value === 'string' && value !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
}

/** A candle's open, high, low, close and volume (elements 1 to 5) as numbers; its timestamp stays. */
function candlesAsNumbers(data: unknown): unknown {
  const asNumbers = (candle: unknown) => (Array.isArray(candle) ? candle.map((v, i) => (i >= 1 && i <= 5 && typeof v === 'string' && Number.isFinite(Number(v)) ? Number(v) : v)) : candle);
  if (Array.isArray(data)) return data.map(asNumbers);
  return data;
}
