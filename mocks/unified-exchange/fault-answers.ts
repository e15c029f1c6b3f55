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
  // The fault: a path renamed, the old one redirected (to where nothing is served).
  if (on('margin-loans-moved') && op.id === 'getMarginLoans') return { status: 301, body: { msg: 'Moved Permanently' }, headers: { location: MOVED_MARGIN_LOANS } };
  // The fault: a proxy in front of open interest labels its answers as text.
  if (on('open-interest-text-plain') && op.id === 'getOpenInterest') return { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } };
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

/** Where the fault margin-loans-moved sends margin-loans (nothing is served there). */
const MOVED_MARGIN_LOANS = '/api/v3/margin/loans';

/**
 * The faults that spoil a refusal: a validation refusal of a market-data read redirected to an error page
 * (bad-input-redirected); an authentication refusal written from the success template, its code "00000"
 * (auth-refusal-success-code), whatever the error body's reading.
 */
export function distortedRefusal(op: Op | undefined, kind: 'auth' | 'validation', reply: Reply, on: RoutingFault): Reply {
  if (reply.status < 400) return reply;
  if (kind === 'validation' && on('bad-input-redirected') && op?.public && op.id !== 'getServerTime') {
    return { status: 303, body: { msg: 'See Other' }, headers: { location: '/api/v3/public/error' } };
  }
  if (kind === 'auth' && on('auth-refusal-success-code') && reply.body && typeof reply.body === 'object' && !Array.isArray(reply.body)) {
    return { ...reply, body: { ...(reply.body as Record<string, unknown>), code: '00000' } };
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
