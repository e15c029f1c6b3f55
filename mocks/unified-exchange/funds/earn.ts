/**
 * Earn ("elite") products: seeded products, subscriptions held per account, redemptions and the records of both. Open
 * points:
 * - U-NS-EARN-PRODUCTS: nested-sub-products, each product lists its lock-duration sub-products (nested; a redemption
 *   names the sub-product subscribed to), or flat-products, each product is one lock duration whose productSubId is its
 *   productId (flat; a redemption names the subscription by its orderId). Ids are chosen so that the spec's examples
 *   (productSubId "1", productId "1") name a listed product in both;
 * - U-NS-EARN-COIN: multi-coin-products, only the multi-coin product needs coin, or never-needed (coin ignored);
 * - U-NS-REDEEM-TYPES: fast-at-once, fast credits at once and standard at the end of the lock, or both-at-once;
 * - U-NS-FEES: fast keeps nothing back (no-fees), or 0.1% (small-fees);
 * - U-NS-TIME-RANGE, U-NS-CURSOR-PAGING, U-NS-PAGE-LIMITS, U-NS-LIST-SHAPE for the records.
 */
import { accepted, refused, type Caller, type Outcome, type PartOptions } from '../contract.ts';
import { listData } from '../market/lists.ts';
import { dec, decimal, given } from '../market/params.ts';
import { first, missing, outside, YES_NO } from './check.ts';
import { isRefusal, pageLimit, pageOf, timeRange } from './paging.ts';
import { balanceOf, post, type EarnRecord, type FundsStore } from './state.ts';

interface SubProduct {
  productSubId: string;
  lockDays: number;
  annualRate: string;
}
interface Product {
  productId: string;
  coins: string[];
  minSubscribeAmount: string;
  subs: SubProduct[];
}

const NESTED: readonly Product[] = [
  { productId: '1', coins: ['USDT'], minSubscribeAmount: '10', subs: [{ productSubId: '1', lockDays: 0, annualRate: '0.03' }, { productSubId: '2', lockDays: 30, annualRate: '0.06' }] },
  { productId: '2', coins: ['BTC'], minSubscribeAmount: '0.001', subs: [{ productSubId: '3', lockDays: 0, annualRate: '0.01' }, { productSubId: '4', lockDays: 90, annualRate: '0.025' }] },
  { productId: '3', coins: ['USDT', 'USDC'], minSubscribeAmount: '10', subs: [{ productSubId: '5', lockDays: 14, annualRate: '0.07' }] },
];
const FAST_FEE = 0.001;
const fastFee = (options: PartOptions) => (options.reading('U-NS-FEES') === 'small-fees' ? FAST_FEE : 0);
const DAY = 86_400_000;

const flat = (options: PartOptions) => options.reading('U-NS-EARN-PRODUCTS') === 'flat-products';
const coinNeeded = (options: PartOptions, product: Product) => options.reading('U-NS-EARN-COIN') !== 'never-needed' && product.coins.length > 1;

/** The products as listed: nested, or one product per sub-product (its productSubId its productId). */
function products(options: PartOptions): Product[] {
  if (!flat(options)) return [...NESTED];
  return NESTED.flatMap((p) => p.subs.map((s) => ({ productId: s.productSubId, coins: p.coins, minSubscribeAmount: p.minSubscribeAmount, subs: [s] })));
}

const productOf = (options: PartOptions, productId: unknown) => products(options).find((p) => p.productId === productId);
const productOfSub = (options: PartOptions, productSubId: unknown) => products(options).find((p) => p.subs.some((s) => s.productSubId === productSubId));

export function earnProducts(options: PartOptions): Outcome {
  const rows = products(options).map((p) => {
    const best = p.subs.reduce((a, b) => (Number(b.annualRate) > Number(a.annualRate) ? b : a));
    const base = { productId: p.productId, coin: p.coins[0], ...(p.coins.length > 1 ? { coins: p.coins } : {}), annualRate: best.annualRate, minSubscribeAmount: p.minSubscribeAmount };
    if (flat(options)) return { ...base, productSubId: p.subs[0]!.productSubId, lockDays: String(p.subs[0]!.lockDays) };
    return { ...base, lockDurations: p.subs.map((s) => String(s.lockDays)), subProducts: p.subs.map((s) => ({ productSubId: s.productSubId, lockDays: String(s.lockDays), annualRate: s.annualRate })) };
  });
  return accepted(listData(options, 'getEarnProducts', rows));
}

/** The coin a subscription or redemption is in: given where the product needs it, else the product's first. */
function coinFor(options: PartOptions, product: Product, value: unknown) {
  if (!coinNeeded(options, product)) return { coin: product.coins[0]! };
  if (!given(value)) return { refusal: refused('validation', `product ${product.productId} needs coin (one of ${product.coins.join(', ')})`) };
  if (!product.coins.includes(value as string)) return { refusal: refused('validation', `product ${product.productId} takes ${product.coins.join(', ')}`) };
  return { coin: value as string };
}

export function subscribe(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = first(missing(params, ['productSubId', 'amount']), outside(params, 'paymentAccount', ['spot', 'unified']));
  if (bad) return bad;
  const product = productOfSub(options, params.productSubId);
  if (!product) return refused('not-found', `no product has the sub-product ${String(params.productSubId)}`);
  const amount = decimal(params.amount);
  if (amount === undefined || amount <= 0) return refused('validation', 'amount must be a positive decimal string');
  if (amount < Number(product.minSubscribeAmount) && !options.fault('earn-min-ignored')) return refused('state', `the least subscription is ${product.minSubscribeAmount}`);
  const chosen = coinFor(options, product, params.coin);
  if (chosen.refusal) return chosen.refusal;
  const coin = chosen.coin!;
  const from = params.paymentAccount === 'spot' ? 'spot' : 'uta';
  const state = store.account(caller.account.uid);
  if (balanceOf(state, from, coin) < amount) return refused('state', `the ${from} account holds less than ${dec(amount)} ${coin}`);
  const now = options.now();
  // earn-subscribe-not-debited: the subscription is held and nothing is taken for it.
  if (!options.fault('earn-subscribe-not-debited')) post(store, state, from, coin, -amount, 'earn_subscribe', now);
  const orderId = store.nextId();
  state.subscriptions.push({ orderId, productId: product.productId, productSubId: String(params.productSubId), coin, amount, ts: now });
  state.earnRecords.push({ id: orderId, type: 'subscribe', productId: product.productId, productSubId: String(params.productSubId), coin, amount, ts: now, status: 'success' });
  return accepted({ orderId, productId: product.productId, productSubId: String(params.productSubId) });
}

export function subscribeInfo(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const product = given(params.productId) ? productOf(options, params.productId) : undefined;
  if (!given(params.productId)) return refused('validation', 'productId is required');
  if (!product) return refused('not-found', `no product ${String(params.productId)}`);
  const state = store.account(caller.account.uid);
  return accepted({
    productId: product.productId,
    coins: product.coins,
    minSubscribeAmount: product.minSubscribeAmount,
    maxSubscribeAmount: '1000000',
    available: dec(balanceOf(state, 'uta', product.coins[0]!)),
    subProducts: product.subs.map((s) => ({ productSubId: s.productSubId, lockDays: String(s.lockDays), annualRate: s.annualRate })),
  });
}

/** What a redemption draws from: the subscriptions of a sub-product (nested), or one subscription by orderId (flat). */
function holdings(options: PartOptions, store: FundsStore, uid: string, productId: string, productSubId: string) {
  const state = store.account(uid);
  return state.subscriptions.filter((s) => s.productId === productId && s.amount > 0 && (flat(options) ? s.orderId === productSubId : s.productSubId === productSubId));
}

export function redeem(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = first(
    missing(params, ['productId', 'productSubId', 'redeemType', 'amount', 'receiveAccount']),
    outside(params, 'redeemType', ['fast', 'standard'], true),
    outside(params, 'receiveAccount', ['spot', 'unified'], true),
    outside(params, 'advancedSettle', YES_NO),
  );
  if (bad) return bad;
  if (params.receiveAccount === 'unified' && options.fault('earn-redeem-to-unified-refused')) return refused('validation', 'receiveAccount must be spot or unified');
  const product = productOf(options, params.productId);
  if (!product) return refused('not-found', `no product ${String(params.productId)}`);
  const chosen = coinFor(options, product, params.coin);
  if (chosen.refusal) return chosen.refusal;
  const amount = decimal(params.amount);
  if (amount === undefined || amount <= 0) return refused('validation', 'amount must be a positive decimal string');
  const held = holdings(options, store, caller.account.uid, product.productId, String(params.productSubId));
  const total = held.reduce((sum, s) => sum + s.amount, 0);
  // earn-redeem-beyond-held: the whole holding is redeemed, and the amount asked credited.
  if (amount > total && !options.fault('earn-redeem-beyond-held')) return refused('state', `the subscription holds ${dec(total)}, less than ${dec(amount)}`);
  if (held.length === 0) return refused('state', `nothing is held in ${String(params.productSubId)}`);
  const state = store.account(caller.account.uid);
  let left = amount;
  for (const s of held) {
    const take = Math.min(s.amount, left);
    s.amount -= take;
    left -= take;
    if (left <= 0) break;
  }
  const coin = held[0]!.coin;
  const sub = product.subs.find((s) => s.productSubId === held[0]!.productSubId) ?? product.subs[0]!;
  const fast = params.redeemType === 'fast';
  const now = options.now();
  // Standard redemption of a locked product waits for the end of the lock, unless both types credit at once.
  const atOnce = fast || sub.lockDays === 0 || options.reading('U-NS-REDEEM-TYPES') === 'both-at-once';
  const credited = fast ? amount * (1 - fastFee(options)) : amount;
  const to = params.receiveAccount === 'spot' ? 'spot' : 'uta';
  if (atOnce) post(store, state, to, coin, credited, 'earn_redeem', now);
  // earn-redeem-credited-twice: the credit is posted again.
  if (atOnce && options.fault('earn-redeem-credited-twice')) post(store, state, to, coin, credited, 'earn_redeem', now);
  const id = store.nextId();
  const record: EarnRecord = { id, type: 'redeem', productId: product.productId, productSubId: String(params.productSubId), coin, amount: credited, ts: now, status: atOnce ? 'success' : 'pending' };
  state.earnRecords.push(record);
  return accepted({ orderId: id, status: record.status, ...(atOnce ? {} : { settleTime: String(now + sub.lockDays * DAY) }) });
}

export function redeemInfo(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  if (!given(params.productId)) return refused('validation', 'productId is required');
  const product = productOf(options, params.productId);
  if (!product) return refused('not-found', `no product ${String(params.productId)}`);
  const state = store.account(caller.account.uid);
  const held = state.subscriptions.filter((s) => s.productId === product.productId && s.amount > 0);
  const redeemable = flat(options)
    ? held.map((s) => ({ productSubId: s.orderId, coin: s.coin, amount: dec(s.amount) }))
    : product.subs.map((sub) => ({ productSubId: sub.productSubId, coin: product.coins[0], amount: dec(held.filter((s) => s.productSubId === sub.productSubId).reduce((a, s) => a + s.amount, 0)) }));
  return accepted({ productId: product.productId, redeemTypes: ['fast', 'standard'], fastRedeemFeeRate: dec(fastFee(options)), redeemable });
}

export function earnRecords(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = outside(params, 'type', ['subscribe', 'redeem', 'interest'], true);
  if (bad) return bad;
  const range = timeRange(options, params.startTime, params.endTime, false);
  if (isRefusal(range)) return range;
  const limit = pageLimit(options, params.limit);
  if (isRefusal(limit)) return limit;
  const state = store.account(caller.account.uid);
  const rows = range.empty ? [] : state.earnRecords.filter((r) => (r.type === params.type || options.fault('earn-records-type-ignored')) && ((r.ts >= range.start && r.ts <= range.end) || options.fault('earn-records-ignore-range'))).sort((a, b) => b.ts - a.ts || (a.id < b.id ? 1 : -1));
  const page = pageOf(options, rows, (r) => r.id, params.cursor, limit, options.fault('earn-records-pages-overlap'));
  if (isRefusal(page)) return page;
  const list = page.rows.map((r) => ({ orderId: r.id, type: r.type, productId: r.productId, productSubId: r.productSubId, coin: r.coin, amount: dec(r.amount), status: r.status, ts: String(r.ts) }));
  return accepted(listData(options, 'getEarnRecords', list, page.extra));
}

