/**
 * place-order: the checks of the document's table and of the readings where it is silent, then the order's effect
 * (exchange.ts submit) at once or after the acknowledgement (U-NS-ORDER-PROCESSING). The routing already checked
 * types, enums and required members against the spec; the checks that rest on other members (price for a limit
 * order), on the account (posSide in hedge mode, reduce-only, clientOid) or on the book (post_only) are here.
 * The order of the checks is this reference's own: which refusal wins when two apply is not shown.
 */
import { accepted, refused, type OperationRequest, type Outcome } from '../contract.ts';
import { amount, isRefusal, minNotional, text, type Ctx, type Refusal } from './context.ts';
import { times, type Dec } from './decimal.ts';
import { isFutures } from './markets.ts';
import { wouldTake } from './matching.ts';
import { isOpen, type Order, type PosSide, type Side, type StpMode, type TimeInForce } from './orders.ts';

const TIFS = ['gtc', 'ioc', 'fok', 'post_only'] as const;
const STP_MODES = ['none', 'cancel_taker', 'cancel_maker', 'cancel_both'] as const;
const TRIGGER_TYPES = ['mark_price', 'last_price'] as const;

const oneOf = <T extends string>(values: readonly T[], v: unknown): v is T => typeof v === 'string' && (values as readonly string[]).includes(v);

/**
 * The fault order-body-unchecked (with the routing, which lets the body through unchecked): whatever the order is
 * missing or gets wrong is made up instead of refused, as a lenient parser would, and the order is placed.
 */
function lenient(ctx: Ctx, params: Record<string, unknown>): Record<string, unknown> {
  const out = { ...params };
  const symbols = ctx.symbols as Record<string, string>;
  if (symbols[String(out.category)] === undefined) out.category = 'SPOT';
  out.symbol = symbols[String(out.category)];
  if (out.side !== 'buy' && out.side !== 'sell') out.side = 'buy';
  if (out.orderType !== 'limit' && out.orderType !== 'market') out.orderType = 'limit';
  if (out.orderType === 'limit' && out.price === undefined) out.price = '1000';
  if (typeof out.qty !== 'string') out.qty = '0.001';
  if (out.timeInForce !== undefined && !oneOf(TIFS, out.timeInForce)) out.timeInForce = 'gtc';
  if (out.stpMode !== undefined && !oneOf(STP_MODES, out.stpMode)) delete out.stpMode;
  for (const member of ['marginMode', 'posSide', 'reduceOnly', 'takeProfitTriggerType', 'stopLossTriggerType']) delete out[member];
  return out;
}

export function placeOrder(ctx: Ctx, req: OperationRequest): Outcome {
  const { caller } = req;
  const { x, reading, on } = ctx;
  // A routing fault (routing/catalogue.ts) that this part honours too: its own checks would still refuse the order.
  const params = (on as (name: string) => boolean)('order-body-unchecked') ? lenient(ctx, req.params) : req.params;
  const uid = caller.account.uid;

  // ---- market and the order's shape ------------------------------------------------------------------------------
  const category = text(params.category) ?? '';
  const symbol = text(params.symbol) ?? '';
  const listed = (ctx.symbols as Record<string, string>)[category];
  if (listed === undefined || (category === 'MARGIN' && on('margin-orders-refused'))) return refused('validation', `category ${category} is not one of the category values`);
  if (listed !== symbol) return refused('validation', `symbol ${symbol} is not listed in ${category}`);
  const book = x.book(category, symbol)!;
  if (ctx.settings.funded === false) return refused('state', 'insufficient balance');
  const side = params.side;
  if (side !== 'buy' && side !== 'sell') return refused('validation', 'side must be buy or sell');
  if (params.orderType !== 'limit' && params.orderType !== 'market') return refused('validation', 'orderType must be limit or market');
  let orderType: 'limit' | 'market' = params.orderType;
  const futures = isFutures(category);

  let price: Dec | undefined;
  if (orderType === 'limit') {
    if (params.price === undefined || params.price === null || params.price === '') {
      // The fault takes a limit order without price as a market order.
      if (!on('limit-price-not-required')) return refused('validation', 'price is required for a limit order');
      orderType = 'market';
    } else {
      const p = amount(ctx, 'price', params.price, 'price');
      if (isRefusal(p)) return p;
      price = p;
    }
  } else if (params.price !== undefined && reading('U-NS-MARKET-ORDER-PRICE') === 'refused') {
    return refused('validation', 'a market order takes no price');
  }

  const quoteQty = orderType === 'market' && side === 'buy' && !futures && reading('U-NS-MARKET-BUY-QTY') === 'quote-for-spot-buys';
  const qty = amount(ctx, 'qty', params.qty, quoteQty ? 'price' : 'qty');
  if (isRefusal(qty)) return qty;

  let timeInForce: TimeInForce = 'gtc';
  if (params.timeInForce !== undefined) {
    if (!oneOf(TIFS, params.timeInForce)) return refused('validation', 'timeInForce must be gtc, ioc, fok or post_only');
    timeInForce = params.timeInForce;
  }

  // ---- fields of one category only (U-NS-OUT-OF-CATEGORY-FIELDS): marginMode and posSide are futures', and
  // reduceOnly is not SPOT's (a MARGIN order reduces a borrowed position) -------------------------------------------
  const outOfCategory = [...(futures ? [] : ['marginMode', 'posSide']), ...(category === 'SPOT' ? ['reduceOnly'] : [])].filter((f) => params[f] !== undefined);
  if (outOfCategory.length && reading('U-NS-OUT-OF-CATEGORY-FIELDS') === 'refused') return refused('validation', `${outOfCategory.join(', ')} do not apply to ${category} orders`);
  const given = (f: string) => params[f] !== undefined && !outOfCategory.includes(f);

  let marginMode: Order['marginMode'];
  if (futures) {
    if (given('marginMode') && params.marginMode !== 'crossed' && params.marginMode !== 'isolated') return refused('validation', 'marginMode must be crossed or isolated');
    marginMode = given('marginMode') ? (params.marginMode as Order['marginMode']) : 'crossed';
  }

  let posSide: PosSide | undefined;
  if (futures) {
    // The account says (the routing builds it from settings.holdMode); the hedge reading says so too when a profile leaves it unstated.
    const hedge = caller.account.holdMode === 'hedge_mode' || reading('U-NS-HOLD-MODE') === 'hedge';
    if (given('posSide') && params.posSide !== 'long' && params.posSide !== 'short') return refused('validation', 'posSide must be long or short');
    if (hedge) {
      if (!given('posSide')) {
        if (!on('posside-not-required-in-hedge')) return refused('validation', 'posSide is required in hedge mode');
        posSide = side === 'buy' ? 'long' : 'short';
      } else posSide = params.posSide as PosSide;
    } else if (given('posSide') && reading('U-NS-POSSIDE-ONE-WAY') === 'refused') {
      return refused('validation', 'posSide is only for hedge mode');
    }
  }

  if (given('reduceOnly') && params.reduceOnly !== 'yes' && params.reduceOnly !== 'no') return refused('validation', 'reduceOnly must be yes or no');
  const reduceOnly = given('reduceOnly') && params.reduceOnly === 'yes' && !on('reduce-only-opens');

  const stpUnchecked = on('stp-value-unchecked') && params.stpMode !== undefined && !oneOf(STP_MODES, params.stpMode);
  if (params.stpMode !== undefined && !oneOf(STP_MODES, params.stpMode) && !stpUnchecked) return refused('validation', 'stpMode must be none, cancel_taker, cancel_maker or cancel_both');
  const stpMode: StpMode = stpUnchecked ? 'none' : ((params.stpMode as StpMode | undefined) ?? (reading('U-NS-STP-DEFAULT') === 'cancel-taker-per-master' ? 'cancel_taker' : 'none'));

  // ---- precision beyond the tick and step: the smallest SPOT order (tick-step-minimum) ---------------------------
  if (category === 'SPOT' && reading('U-NS-MARKET-PRECISION') === 'tick-step-minimum') {
    const reference = price ?? book.against(side)[0]?.price ?? book.marketPrice();
    const worth = quoteQty ? qty : times(qty, reference);
    if (worth < minNotional(ctx)) return refused('validation', 'the order is worth less than the smallest order value');
  }

  // ---- take profit and stop loss (U-NS-TPSL-RULES) ---------------------------------------------------------------
  const tpsl = takeProfitStopLoss(ctx, params, { futures, side, price: price ?? book.marketPrice(), market: book.marketPrice() });
  if (isRefusal(tpsl)) return tpsl;

  // ---- the clientOid (U-NS-CLIENTOID-REPEAT) ---------------------------------------------------------------------
  const clientOid = text(params.clientOid);
  if (clientOid !== undefined && !on('clientoid-reused')) {
    const prior = x.clientOidOwner(uid, clientOid);
    if (prior) {
      switch (reading('U-NS-CLIENTOID-REPEAT')) {
        case 'refused-duplicate':
          return refused('state', `clientOid ${clientOid} was used before`);
        case 'same-answer':
          return accepted({ orderId: prior.orderId, clientOid });
        case 'reusable-once-finished':
          if (isOpen(prior)) return refused('state', `clientOid ${clientOid} belongs to an open order`);
      }
    }
  }

  // ---- what the book and the positions say, at the acknowledgement -----------------------------------------------
  const t = ctx.now();
  const order: Order = {
    orderId: x.newId(),
    uid,
    group: caller.account.masterUid ?? uid,
    ...(clientOid !== undefined ? { clientOid } : {}),
    category,
    symbol,
    side,
    orderType,
    ...(price !== undefined ? { price } : {}),
    qty,
    quoteQty,
    filled: 0n,
    value: 0n,
    timeInForce,
    ...(params.timeInForce === undefined ? { tifDefaulted: true } : {}),
    stpMode,
    ...(posSide ? { posSide } : {}),
    ...(marginMode ? { marginMode } : {}),
    reduceOnly,
    state: 'pending',
    rejected: false,
    createdTime: t,
    updatedTime: t,
    seq: 0,
  };
  if (timeInForce === 'post_only' && on('post-only-maker-refused')) return refused('state', 'post_only orders are not taken');
  const postOnlyTakes = timeInForce === 'post_only' && !on('post-only-takes') && wouldTake(book, order);
  if (postOnlyTakes && reading('U-NS-POST-ONLY-REJECTION') === 'refused') return refused('state', 'post_only order would match as taker');
  // reduceOnly: it may shrink a position, never open, increase or reverse one (MARGIN keeps no positions here).
  const reduceRefused = reduceOnly && (order.qty > x.positions.reducible(uid, category, symbol, side, posSide));
  if (reduceRefused && reading('U-NS-REDUCE-ONLY') === 'refused') return refused('state', 'reduceOnly order would open or increase a position');

  x.register(order);
  for (const s of tpsl) {
    const id = x.newId();
    x.strategy.set(id, { orderId: id, uid, parentOrderId: order.orderId, kind: s.kind, triggerPrice: s.price, triggerType: s.triggerType, state: 'live' });
    if (s.kind === 'take_profit') order.tpOrderId = id;
    else order.slOrderId = id;
  }
  ctx.settle.later(() => {
    if (reduceRefused) {
      // The cancelled reading: acknowledged, then cancelled at once with nothing filled.
      order.rejected = true;
      x.cancel(order);
    } else x.submit(order);
  });
  return accepted({ ...(on('ack-without-order-id') ? {} : { orderId: order.orderId }), ...(clientOid !== undefined ? { clientOid } : {}) });
}

const refusal = (msg: string) => refused('validation', msg) as Refusal;

interface Trigger {
  kind: 'take_profit' | 'stop_loss';
  price: Dec;
  triggerType: 'mark_price' | 'last_price';
}

/**
 * The take profit and stop loss attached at placement. A buy profits as the price rises: its take profit must lie
 * above, its stop loss below (the other way for a sell), against the order's own price (futures-side-checked) or the
 * market's (checked-against-market); any-category-unchecked takes them anywhere.
 */
function takeProfitStopLoss(ctx: Ctx, params: Record<string, unknown>, o: { futures: boolean; side: Side; price: Dec; market: Dec }): Trigger[] | Refusal {
  const out: Trigger[] = [];
  for (const [kind, member, typeMember] of [
    ['take_profit', 'takeProfitPrice', 'takeProfitTriggerType'],
    ['stop_loss', 'stopLossPrice', 'stopLossTriggerType'],
  ] as const) {
    if (params[typeMember] !== undefined && !oneOf(TRIGGER_TYPES, params[typeMember])) return refusal(`${typeMember} must be mark_price or last_price`);
    if (params[member] === undefined) continue;
    if (ctx.on('tpsl-refused')) return refusal('take-profit and stop-loss are not taken');
    const price = amount(ctx, member, params[member], 'price');
    if (isRefusal(price)) return price;
    out.push({ kind, price, triggerType: (params[typeMember] as Trigger['triggerType'] | undefined) ?? 'mark_price' });
  }
  if (!out.length) return out;
  const rules = ctx.reading('U-NS-TPSL-RULES');
  if (rules === 'any-category-unchecked') return out;
  if (!o.futures) return refusal('take-profit and stop-loss attach to futures orders only');
  const against = rules === 'checked-against-market' ? o.market : o.price;
  const up = o.side === 'buy';
  for (const t of out) {
    // A take profit lies on the side the order profits towards, a stop loss on the other; never at the price itself.
    const towardsProfit = up ? t.price > against : t.price < against;
    const right = t.price !== against && (t.kind === 'take_profit' ? towardsProfit : !towardsProfit);
    if (!right) return refusal(`${t.kind === 'take_profit' ? 'takeProfitPrice' : 'stopLossPrice'} is on the wrong side of ${rules === 'checked-against-market' ? 'the market price' : 'the order price'}`);
  }
  return out;
}
