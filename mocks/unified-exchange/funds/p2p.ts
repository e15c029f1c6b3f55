/**
 * Peer-to-peer advertisements: a seeded market of other merchants' advertisements (25 per token, fiat and side, so that
 * paging is observable) and the ones accounts publish, listed in publication order (advId ascending: a page never
 * shifts while new ones are added at the end). Open points:
 * - U-NS-P2P-MERCHANT: merchant-only, only P2P merchants (here: every main account; a sub-account is none) publish, or
 *   any-account;
 * - U-NS-P2P-PAY-METHODS: known-ids-only, the payMethodIds the exchange knows (and no userPayMethodId, as no account
 *   has registered one), or unchecked, any string;
 * - U-NS-PAY-TIME-LIMIT: listed-minutes-strings, a string of "15", "30", "45" or "60", or integer-range, a JSON integer
 *   from 10 to 120;
 * - U-NS-PREMIUM-FORMAT: signed-percent, "1.5" is 1.5% above the market price (from -99 to 99), or percent-of-market,
 *   "101.5" is 101.5% of it (1 to 200);
 * - U-NS-P2P-LIST-SIDE: advertised-side, side=buy lists the buy advertisements, or taker-side, the sell ones (those
 *   a buyer takes);
 * - U-NS-P2P-PAGING: one-based, the first page is 1 (0 refused), or zero-based; U-NS-PAGE-LIMITS for limit;
 *   U-NS-LIST-SHAPE.
 */
import { accepted, refused, type Caller, type Outcome, type PartOptions } from '../contract.ts';
import { listData } from '../market/lists.ts';
import { dec, decimal, given, text, unit, whole } from '../market/params.ts';
import { COIN_PRICES, isCoin } from '../market/symbols.ts';
import { first, missing, outside } from './check.ts';
import { isRefusal, pageLimit } from './paging.ts';
import { balanceOf, type Ad, type FundsStore } from './state.ts';

const FIATS: Readonly<Record<string, number>> = { USD: 1, EUR: 0.92, GBP: 0.79 };
const KNOWN_PAY_METHODS = ['1', '2', '3', '4', '5'];
const MINUTES = ['15', '30', '45', '60'];

const publicMembers = (options: PartOptions) => options.reading('U-NS-RECORD-MEMBERS') !== 'documented-only';
const marketPrice = (token: string, fiat: string) => (COIN_PRICES[token] ?? 1) * (FIATS[fiat] ?? 1);

/** The seeded advertisements of other merchants, made once. */
function seed(store: FundsStore, now: number): void {
  if (store.ads.length > 0) return;
  for (const token of ['USDT', 'BTC']) {
    for (const side of ['buy', 'sell'] as const) {
      for (let i = 0; i < 25; i++) {
        const seedText = `${token}|${side}|${i}`;
        const price = marketPrice(token, 'USD') * (0.98 + 0.05 * unit(seedText));
        store.ads.push({
          advId: store.nextId(),
          ownerUid: `merchant-${i % 7}`,
          token,
          fiat: 'USD',
          side,
          priceType: 'fixed',
          price,
          minAmount: '10',
          maxAmount: '5000',
          quantity: dec((2000 + 8000 * unit(`${seedText}|q`)) / marketPrice(token, 'USD'), token === 'BTC' ? 6 : 2),
          payMethodIds: [{ payMethodId: KNOWN_PAY_METHODS[i % KNOWN_PAY_METHODS.length]! }],
          payTimeLimit: '15',
          remark: '',
          ts: now - (25 - i) * 60_000,
        });
      }
    }
  }
}

function adRow(options: PartOptions, ad: Ad) {
  const price = dec(ad.price, ad.token === 'BTC' ? 2 : 4);
  return publicMembers(options)
    ? { advId: ad.advId, token: ad.token, fiat: ad.fiat, side: ad.side, priceType: ad.priceType, price, ...(ad.premium ? { premium: ad.premium } : {}), quantity: ad.quantity, minAmount: ad.minAmount, maxAmount: ad.maxAmount, payMethodIds: ad.payMethodIds, payTimeLimit: String(ad.payTimeLimit), remark: ad.remark, ctime: String(ad.ts) }
    : { advId: ad.advId, asset: ad.token, currency: ad.fiat, direction: ad.side, price, quantity: ad.quantity, limits: { min: ad.minAmount, max: ad.maxAmount }, created: String(ad.ts) };
}

export function listAds(options: PartOptions, store: FundsStore, params: Record<string, unknown>): Outcome {
  const bad = first(missing(params, ['token', 'fiat', 'side', 'pageNum', 'limit']), outside(params, 'side', ['buy', 'sell'], true));
  if (bad) return bad;
  const pageNum = whole(params.pageNum);
  const firstPage = options.reading('U-NS-P2P-PAGING') === 'zero-based' ? 0 : 1;
  if (pageNum === undefined || pageNum < firstPage) return refused('validation', `pageNum counts from ${firstPage}`);
  const limit = pageLimit(options, params.limit);
  if (isRefusal(limit)) return limit;
  seed(store, options.now());
  const side = options.reading('U-NS-P2P-LIST-SIDE') === 'taker-side' ? (params.side === 'buy' ? 'sell' : 'buy') : params.side;
  // ad-not-listed: the accounts' own advertisements are kept out of the list.
  const matching = store.ads.filter((a) => a.token === params.token && a.fiat === params.fiat && a.side === side && !(options.fault('ad-not-listed') && !a.ownerUid.startsWith('merchant-')));
  // ad-list-pages-repeat: each page after the first starts on the last advertisement of the one before.
  const from = Math.max(0, (pageNum - firstPage) * limit - (options.fault('ad-list-pages-repeat') && pageNum > firstPage ? 1 : 0));
  const rows = matching.slice(from, from + limit).map((a) => adRow(options, a));
  return accepted(listData(options, 'listP2pAds', rows, { total: String(matching.length) }));
}

/** The price of a floating advertisement from its premium, or the refusal of a premium the reading does not take. */
function floatingPrice(options: PartOptions, premium: unknown, market: number): number | undefined {
  if (typeof premium !== 'string' || !/^-?[0-9]+(\.[0-9]+)?$/.test(premium)) return undefined;
  const p = Number(premium);
  if (options.reading('U-NS-PREMIUM-FORMAT') === 'percent-of-market') return p >= 1 && p <= 200 ? (market * p) / 100 : undefined;
  return p >= -99 && p <= 99 ? market * (1 + p / 100) : undefined;
}

export function createAd(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  if (options.reading('U-NS-P2P-MERCHANT') === 'merchant-only' && (caller.account.masterUid || options.settings.p2p?.merchant === false))
    return refused('permission', 'only P2P merchants publish advertisements');
  const bad = first(
    missing(params, ['token', 'fiat', 'side', 'priceType', 'minAmount', 'maxAmount', 'quantity', 'payMethodIds', 'payTimeLimit']),
    outside(params, 'side', ['buy', 'sell'], true),
    outside(params, 'priceType', ['fixed', 'floating'], true),
  );
  if (bad) return bad;
  const token = text(params.token)!;
  const fiat = text(params.fiat)!;
  if (!isCoin(token)) return refused('validation', `token ${token} is not listed`);
  if (!(fiat in FIATS)) return refused('validation', `fiat ${fiat} is not listed`);
  const market = marketPrice(token, fiat);

  let price: number;
  if (params.priceType === 'fixed') {
    if (!given(params.price) && !options.fault('fixed-ad-without-price-accepted')) return refused('validation', 'price is required for a fixed-price advertisement');
    const n = given(params.price) ? decimal(params.price) : market;
    if (n === undefined || n <= 0) return refused('validation', 'price must be a positive decimal string');
    price = n;
  } else {
    if (!given(params.premium) && !options.fault('floating-ad-without-premium-accepted')) return refused('validation', 'premium is required for a floating-price advertisement');
    // floating-ad-without-premium-accepted: an advertisement without premium floats at the market price.
    const n = given(params.premium) ? floatingPrice(options, params.premium, market) : market;
    if (n === undefined) return refused('validation', 'premium is not a percentage this deployment takes');
    price = n;
  }

  const min = decimal(params.minAmount);
  const max = decimal(params.maxAmount);
  const quantity = decimal(params.quantity);
  if (min === undefined || max === undefined || quantity === undefined || quantity <= 0) return refused('validation', 'minAmount, maxAmount and quantity are positive decimal strings');
  if (min > max && !options.fault('ad-amounts-unchecked')) return refused('validation', 'minAmount exceeds maxAmount');

  const methods = params.payMethodIds;
  if (!Array.isArray(methods) || methods.length === 0) return refused('validation', 'payMethodIds is a non-empty array of objects');
  for (const m of methods) {
    if (typeof m !== 'object' || m === null || Array.isArray(m) || typeof (m as Record<string, unknown>).payMethodId !== 'string' || (m as Record<string, string>).payMethodId === '')
      return refused('validation', 'each payMethodIds entry is an object with a string payMethodId');
    const { payMethodId, userPayMethodId } = m as Record<string, unknown>;
    if (userPayMethodId !== undefined && typeof userPayMethodId !== 'string') return refused('validation', 'userPayMethodId is a string');
    if (options.reading('U-NS-P2P-PAY-METHODS') === 'known-ids-only') {
      const known = [...KNOWN_PAY_METHODS, options.settings.p2p?.payMethodId ?? '1'];
      if (!known.includes(payMethodId as string)) return refused('validation', `payMethodId ${String(payMethodId)} is unknown`);
      if (userPayMethodId) return refused('validation', `userPayMethodId ${String(userPayMethodId)} is not one of the account's`);
    }
  }

  const limitValue = params.payTimeLimit;
  if (options.reading('U-NS-PAY-TIME-LIMIT') === 'integer-range') {
    if (typeof limitValue !== 'number' || !Number.isInteger(limitValue) || limitValue < 10 || limitValue > 120) return refused('validation', 'payTimeLimit is a whole number of minutes from 10 to 120');
  } else if (typeof limitValue !== 'string' || !MINUTES.includes(limitValue)) return refused('validation', `payTimeLimit is one of ${MINUTES.map((m) => `"${m}"`).join(', ')}`);

  // A sell advertisement offers the account's crypto: it must hold it.
  if (params.side === 'sell') {
    const state = store.account(caller.account.uid);
    const held = balanceOf(state, 'spot', token) + balanceOf(state, 'p2p', token) + balanceOf(state, 'uta', token);
    if (held < quantity) return refused('state', `the account holds less than ${dec(quantity)} ${token}`);
  }
  seed(store, options.now());
  const ad: Ad = {
    advId: store.nextId(),
    ownerUid: caller.account.uid,
    token,
    fiat,
    side: params.side as 'buy' | 'sell',
    priceType: params.priceType as 'fixed' | 'floating',
    price,
    ...(given(params.premium) && params.priceType === 'floating' ? { premium: String(params.premium) } : {}),
    minAmount: String(params.minAmount),
    maxAmount: String(params.maxAmount),
    quantity: String(params.quantity),
    payMethodIds: methods as Ad['payMethodIds'],
    payTimeLimit: limitValue as string | number,
    remark: typeof params.remark === 'string' ? params.remark : '',
    ts: options.now(),
  };
  store.ads.push(ad);
  return accepted({ advId: ad.advId });
}
