/**
 * Complete requests of the fund-moving operations, from the profile (settings.markets, transferPair, p2p, withdraw):
 * what the conditional rules' property (funds-conditional.spec.ts) sends as its controls, and breaks one rule of for
 * its cases. Amounts are the profile's (settings.amounts, one unit of the quote coin by default), so that a control that
 * is taken moves no more than the tester allows.
 */
import { freshClientOid, type Settings } from './requests.ts';

/** An amount far beyond what any account holds or may move (U-TRANSFER-BALANCE, U-COPY-TRANSFER-MAX). */
export const BEYOND_ANY_BALANCE = '1000000000000';

/** The rows of a list answer: data itself, the member the profile names (settings.lists), or data's first array. */
export function rowsOf(json: unknown, operationId: string, s: Settings): Array<Record<string, unknown>> {
  const data = (json as { data?: unknown } | undefined)?.data;
  if (Array.isArray(data)) return data as Array<Record<string, unknown>>;
  if (!data || typeof data !== 'object') return [];
  const member = s.lists?.[operationId];
  if (member !== undefined) {
    const rows = member === '' ? data : (data as Record<string, unknown>)[member];
    return Array.isArray(rows) ? (rows as Array<Record<string, unknown>>) : [];
  }
  const rows = Object.values(data as Record<string, unknown>).find(Array.isArray);
  return (rows as Array<Record<string, unknown>> | undefined) ?? [];
}

/** A string or number id as a string. */
export const idText = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);

/** The first value of a member anywhere in a JSON value (depth first), as an id. */
export function findMember(v: unknown, name: string): string | undefined {
  if (!v || typeof v !== 'object') return undefined;
  if (!Array.isArray(v) && name in (v as Record<string, unknown>)) {
    const hit = idText((v as Record<string, unknown>)[name]);
    if (hit) return hit;
  }
  for (const child of Object.values(v as Record<string, unknown>)) {
    const hit = findMember(child, name);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * The first earn product of one coin with a minimum, from an elite-product answer: its sub-product (the nested
 * sub-product, or, where the profile states flat products, the product itself) and its minSubscribeAmount. A product
 * that takes several coins may need coin (U-NS-EARN-COIN): only one of a single coin is taken (of `coin`, if given).
 */
export function minimumEarnProduct(json: unknown, s: Settings, flat: boolean, coin?: string): { productId: string; productSubId: string; min: string } | undefined {
  for (const row of rowsOf(json, 'getEarnProducts', s)) {
    const min = typeof row.minSubscribeAmount === 'string' ? row.minSubscribeAmount : undefined;
    if (!min || !(Number(min) > 0) || (Array.isArray(row.coins) && row.coins.length > 1)) continue;
    if (coin !== undefined && row.coin !== coin) continue;
    const productId = idText(row.productId);
    const sub = flat ? productId : (findMember(row, 'productSubId') ?? productId);
    if (sub && productId) return { productId, productSubId: sub, min };
  }
  return undefined;
}

/** Every string and number in a JSON value (of a member so named, if `name` is given): where an id may be shown. */
function valuesIn(v: unknown, name?: string, out = new Set<string>()): Set<string> {
  if (v && typeof v === 'object') {
    for (const [k, child] of Object.entries(v)) {
      if ((typeof child === 'string' || typeof child === 'number') && (name === undefined || k === name)) out.add(String(child));
      else valuesIn(child, name, out);
    }
  }
  return out;
}

/**
 * The productSubId a redemption of a subscription names, which is open (U-NS-EARN-PRODUCTS): the sub-product, or the
 * subscription's orderId. The one the profile states (`flat`); else the one the redemption information (`info`, its
 * data) shows, the orderId anywhere or the sub-product as a productSubId; else both, to try in turn.
 */
export function redemptionIds(subId: string, orderId: string, flat: boolean | undefined, info?: unknown): string[] {
  if (flat !== undefined) return [flat ? orderId : subId];
  if (valuesIn(info).has(orderId)) return [orderId];
  if (valuesIn(info, 'productSubId').has(subId)) return [subId];
  return [...new Set([subId, orderId])];
}

/** Half of a positive decimal string, as a decimal string (never in exponent form). */
export function halfOf(decimal: string): string {
  const places = (decimal.split('.')[1] ?? '').length + 1;
  return (Number(decimal) / 2).toFixed(places).replace(/\.?0+$/, '');
}

/** An on-chain withdrawal of the profile's amount of the quote coin to `address`, with its chain (the profile's). */
export const withdrawal = (s: Settings, address: string): Record<string, unknown> => ({
  coin: s.markets.coins.quote,
  transferType: 'on_chain',
  address,
  chain: s.withdraw.chain,
  size: s.amounts.withdraw,
  clientOid: freshClientOid(),
});

/** The account type funds leave from: the profile's pair's source, unless that is isolated margin itself. */
export const transferSource = (s: Settings): string => (s.transferPair.fromType === 'isolated-margin' ? s.transferPair.toType : s.transferPair.fromType);

/** A transfer of the profile's amount of the quote coin into isolated margin, for the profile's MARGIN symbol. */
export const isolatedTransfer = (s: Settings, amount = s.amounts.transfer): Record<string, unknown> => ({
  fromType: transferSource(s),
  toType: 'isolated-margin',
  coin: s.markets.coins.quote,
  amount,
  symbol: s.markets.symbols.MARGIN,
});

/** A transfer along the profile's pair (settings.transferPair). */
export const pairTransfer = (s: Settings, amount = s.amounts.transfer): Record<string, unknown> => ({ fromType: s.transferPair.fromType, toType: s.transferPair.toType, coin: s.markets.coins.quote, amount });

/** The transfer that undoes an accepted one: the same amount the other way. */
export const reverseTransfer = (t: Record<string, unknown>): Record<string, unknown> => ({ ...t, fromType: t.toType, toType: t.fromType });

/** A loan of the quote coin against the base coin, flexible, by the profile's loanAmount (by default twice the reference's smallest USDT loan). */
export const loan = (s: Settings): Record<string, unknown> => ({ loanCoin: s.markets.coins.quote, pledgeCoin: s.markets.coins.base, daily: 'FLEXIBLE', loanAmount: s.amounts.loan });

/** A buy advertisement of the quote coin for USD (it offers nothing of the account's), fixed at 1 or floating at 2%. */
export function advertisement(s: Settings, priceType: 'fixed' | 'floating'): Record<string, unknown> {
  return {
    token: s.markets.coins.quote,
    fiat: 'USD',
    side: 'buy',
    priceType,
    // U-NS-PREMIUM-FORMAT: "2" is a premium both readings take (2% above the market, or 2% of it).
    ...(priceType === 'fixed' ? { price: '1' } : { premium: '2' }),
    minAmount: '10',
    maxAmount: '100',
    quantity: '100',
    payMethodIds: [{ payMethodId: s.p2p.payMethodId }],
    payTimeLimit: s.p2p.payTimeLimit === 'integers' ? 15 : '15',
  };
}
