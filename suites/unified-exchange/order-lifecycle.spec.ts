/**
 * What the operations that name orders do to them, each judged by the orders' records (the lookup) before and after:
 *  - the lookup finds the account's own order, and neither an order it never had nor another account's;
 *  - cancel-order cancels the account's own order, and neither an unknown one nor another account's;
 *  - batch-modify-order moves an order to its new price (amended in place, or replaced by a new order: U-NS-MODIFY-RULES);
 *  - cancel-batch cancels the orders its items name and no other;
 *  - cancel-symbol-order cancels a symbol's orders, or a category's without symbol, and none of another category;
 *  - an order with take profit and stop loss on the right sides is accepted where the same order without them is, and
 *    cancel-strategy-order refuses an id that names no strategy order;
 *  - a reduceOnly buy that would open a position never fills (on a market nobody else trades only).
 * Every other order rests at the profile's far prices (it never trades) and is cancelled when the test ends.
 */
import { randomInt } from 'node:crypto';
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { accepted, judged, mustAccept, mustBeRefused, needAccepted, refused, type Control } from '../../harness/answers.ts';
import { fitTimeout } from '../../harness/budget.ts';
import type { Reply } from '../../harness/http/client.ts';
import { NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import { FUTURES, type Category } from './model.ts';
import { LEASE_WAIT_MS, PLACE, dataOf, ordersOf, prepare, reqTags, times, type Observed, type OrderRef, type Orders, type Role } from './orders.ts';
import { guarded } from './guarded.ts';
import { test } from './test.ts';

const RULES: RequirementId[] = [
  'U-ORDER-LOOKUP-UNKNOWN', 'U-ORDER-LOOKUP-OTHER-ACCOUNT', 'U-CANCEL-BY-ORDERID', 'U-CANCEL-UNKNOWN', 'U-CANCEL-OTHER-ACCOUNT',
  'U-MODIFY-APPLIED', 'U-CANCEL-BATCH', 'U-CANCEL-SYMBOL', 'U-CANCEL-CATEGORY', 'U-ORDER-TPSL', 'U-STRATEGY-ONE-OF', 'U-ORDER-REDUCEONLY',
];
const SPOT: Category = 'SPOT';
const FUT: Category = FUTURES[0];
/** Where an order record may carry its limit price (U-NS-ORDER-RECORD's readings name price and limitPrice). */
const PRICE_MEMBERS = ['price', 'limitPrice', 'orderPrice'];

type Live = OrderRef & { orderId: string };

/** An order id no account was ever given: digits, as the public exchange's are, far beyond any issued. */
const unknownId = () => `9${Array.from({ length: 17 }, () => randomInt(10)).join('')}`;

test('order lifecycle: lookup, cancel, modify, cancel-batch and cancel-symbol-order do what they say to the orders they name, and nothing to any other', { tag: reqTags(...RULES) }, async ({ api, profile, target, writes, identity, verify, notApplicable, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
  const orders = ordersOf({ api, profile, target, writes });
  fitTimeout(testInfo, { requests: 70, waitMs: LEASE_WAIT_MS + 12 * orders.settleMs }, profile, orders.live);
  const left = await prepare(RULES, { profile, writes, identity, notApplicable, recorder }, 'order lifecycle', (id) => {
    if (id !== 'U-ORDER-REDUCEONLY') return undefined;
    if (!orders.settings.funded) return 'the profile says the accounts hold no funds (settings.funded false): the control, the same buy without reduceOnly, would be refused for its balance';
    if (!target.reference && !orders.settings.crossingOrders) return 'a reduceOnly order that would open a position crosses the market: sent only where the profile says nobody else trades it (settings.crossingOrders)';
    return undefined;
  });
  if (left.length === 0) return;
  // A requirement the profile leaves out of scope was marked not applicable by prepare: its step is not run.
  const check = (id: RequirementId, body: () => Promise<void>) => (left.includes(id) ? verify(id, body) : Promise.resolve(false));
  const withCategory = orders.settings.orderIdentity === 'with-category';
  const naming = (ref: OrderRef, by: 'orderId' | 'clientOid' = 'orderId') => orders.cancelBody(ref, by);

  /**
   * Places a far buy (of the trading key, or `credential`'s) and waits until its record shows it open: `live`
   * undefined when it was refused or never showed open; `seen`, the lookup that found it open (a control of the
   * lookups of orders the account does not have). A placement or a lookup that decides nothing is thrown.
   */
  const rest = async (category: Category, credential: Role = 'trade'): Promise<{ live?: Live; seen?: Observed; reply: Reply }> => {
    const label = `a far ${category} buy${credential === 'trade' ? '' : ` of ${credential}`}`;
    const { reply, ref } = await orders.place(orders.far(category, 'buy'), { credential, label });
    if (judged(reply, label) === 'refused' || !ref?.orderId) return { reply };
    const seen = await orders.settle(ref, (o) => o.state === 'open');
    return seen.state === 'open' ? { live: ref as Live, seen, reply } : { reply };
  };
  /** The records of `refs` once the settle time has passed (what an operation did shows by then). */
  const afterwards = async (...refs: OrderRef[]): Promise<Observed[]> => {
    await new Promise((r) => setTimeout(r, orders.settleMs));
    return Promise.all(refs.map(async (ref) => orders.read(await orders.lookup(ref))));
  };
  const stillOpen = (what: string, ...pairs: Array<[Observed, RequirementId[], string]>) => {
    for (const [o, ids, why] of pairs) if (o.state !== 'open') throw new RequirementViolation(ids, `${what}: ${why}, it shows ${JSON.stringify(o.status)}`, 'still open', [o.reply.exchange]);
  };
  const gone = (what: string, ...pairs: Array<[Observed, RequirementId[], string]>) => {
    for (const [o, ids, why] of pairs) if (o.state === 'open') throw new RequirementViolation(ids, `${what}: ${why}, it still shows ${JSON.stringify(o.status)}`, 'no longer open', [o.reply.exchange]);
  };

  const a = await rest(SPOT);
  const b = await rest(SPOT);
  const c = await rest(SPOT);
  const d = await rest(FUT);
  // Another account's requests get an order of their own: a cancel that wrongly reaches it must not take a's away.
  const other = left.includes('U-ORDER-LOOKUP-OTHER-ACCOUNT') || left.includes('U-CANCEL-OTHER-ACCOUNT');
  const e = other ? await rest(SPOT) : { live: undefined };
  // The second account's own order: the control of its refused lookup and cancel of the first account's.
  const p = other ? await rest(SPOT, 'peer') : { live: undefined, seen: undefined };
  const none = (what: string) => new NotTested(`${what} was not acknowledged open (see the exchanges)`);

  await check('U-ORDER-LOOKUP-UNKNOWN', async () => {
    const id = unknownId();
    const what = `the lookup of order ${id}, which the account never had`;
    const r = await orders.lookup({ category: SPOT, symbol: orders.symbol(SPOT), credential: 'trade', orderId: id });
    if (accepted(r, what)) {
      // Answered without an order (data null), or with a record: one of that id, or with a status, is an order.
      const o = orders.read(r);
      if (o.state !== 'absent' && (o.orderId === id || o.state !== 'unknown')) {
        throw new RequirementViolation('U-ORDER-LOOKUP-UNKNOWN', `${what} returned an order showing ${JSON.stringify(o.status)}`, 'refused, or no order', [r.exchange]);
      }
      return;
    }
    // Refused: that says "no such order" only beside the same lookup of an order the account has, answered.
    if (!a.seen) throw none('an order of the account whose lookup is the control');
    mustBeRefused('U-ORDER-LOOKUP-UNKNOWN', r, what, { control: a.seen.reply });
  });

  await check('U-ORDER-LOOKUP-OTHER-ACCOUNT', async () => {
    if (!e.live) throw none('the order to look up');
    const what = `the second account's lookup of order ${e.live.orderId} (the first account's)`;
    const r = await orders.lookup({ ...e.live, credential: 'peer' });
    if (accepted(r, what)) {
      const o = orders.read(r);
      if (o.state !== 'absent' && o.orderId === e.live.orderId) throw new RequirementViolation('U-ORDER-LOOKUP-OTHER-ACCOUNT', `${what} returned it, showing ${JSON.stringify(o.status)}`, 'refused, or not found', [r.exchange]);
      return;
    }
    // Refused: beside the second account's lookup of its own order, answered (a key whose every lookup is refused proves nothing).
    if (!p.seen) throw none("the second account's own order, whose lookup is the control");
    mustBeRefused('U-ORDER-LOOKUP-OTHER-ACCOUNT', r, what, { control: p.seen.reply });
  });

  await check('U-CANCEL-OTHER-ACCOUNT', async () => {
    if (!e.live) throw none('the order to cancel');
    // Refused or not, the order must stay open: the second account's request names an order it does not have.
    const what = `the second account's cancel-order of order ${e.live.orderId} (the first account's)`;
    const r = await orders.send('peer', { method: 'POST', path: '/api/v3/trade/cancel-order', json: naming(e.live), label: what });
    const verdict = judged(r, what);
    const [o] = await afterwards(e.live);
    if (o.state !== 'open') throw new RequirementViolation('U-CANCEL-OTHER-ACCOUNT', `after ${what} (answered ${r.status}), the order shows ${JSON.stringify(o.status)}`, 'still open', [r.exchange, o.reply.exchange]);
    if (verdict === 'accepted') return;
    // Refused, and the order is still there: that proves the rule only if the second account can cancel an order at all.
    if (!p.live) throw none("the second account's own order, whose cancel is the control");
    mustBeRefused('U-CANCEL-OTHER-ACCOUNT', r, what, { control: await orders.cancel(p.live, 'orderId', "the second account cancels its own order (control)") });
  });

  // cancel-order of the account's own live order: the control of the unknown order's refusal below.
  let ownCancel: Reply | undefined;
  await check('U-CANCEL-BY-ORDERID', async () => {
    if (!a.live) throw none('the order to cancel');
    const r = (ownCancel = await orders.cancel(a.live, 'orderId'));
    mustAccept(r, `cancel-order of the account's live order ${a.live.orderId}`);
    const [o] = await afterwards(a.live);
    gone('cancel-order by orderId was accepted', [o, ['U-CANCEL-BY-ORDERID'], `order ${a.live.orderId}`]);
  });

  await check('U-CANCEL-UNKNOWN', async () => {
    const id = unknownId();
    const what = `cancel-order of order ${id}, which the account never had`;
    const r = await orders.send('trade', { method: 'POST', path: '/api/v3/trade/cancel-order', json: naming({ category: SPOT, symbol: orders.symbol(SPOT), credential: 'trade', orderId: id }), label: `cancel order ${id}, which the account never had` });
    // The control: the cancel of an order the account has (U-CANCEL-BY-ORDERID's, else one of its own made here).
    const control = ownCancel ?? (await cancelOfOwnOrder());
    mustBeRefused('U-CANCEL-UNKNOWN', r, what, { control });
  });

  /** The cancel of a far order the account has: the control of a refused cancel when U-CANCEL-BY-ORDERID made none. */
  async function cancelOfOwnOrder(): Promise<Control> {
    const own = await rest(SPOT);
    if (!own.live) throw none('an order of the account whose cancel is the control');
    return orders.cancel(own.live, 'orderId', `cancel order ${own.live.orderId}, the account's own (control)`);
  }

  // batch-modify-order: b moves a tenth further from the market; amended in place it keeps its orderId,
  // replaced (U-NS-MODIFY-RULES) a new order rests at the new price and b is cancelled.
  let moved: Live | undefined = b.live;
  await check('U-MODIFY-APPLIED', async () => {
    if (!b.live) throw none('the order to modify');
    const old = orders.settings.markets.farPrices.buy;
    const price = lower(old, orders.settings.markets.precision.tick);
    const r = await orders.send('trade', { method: 'POST', path: '/api/v3/trade/batch-modify-order', json: [{ ...naming(b.live), price }], label: `move order ${b.live.orderId} from ${old} to ${price}` });
    needAccepted(r, 'batch-modify-order', { untested: true, why: 'what a modification does cannot be judged' });
    const [o] = await afterwards(b.live);
    let record = o;
    if (o.state !== 'open') {
      // Replaced: the new order is the item's other orderId.
      const items = (r.json as { data?: unknown } | undefined)?.data;
      const ids = (Array.isArray(items) ? items : [dataOf(r)]).map((i) => (i as { orderId?: unknown } | undefined)?.orderId).filter((id) => id !== undefined && String(id) !== b.live!.orderId);
      if (ids.length !== 1) throw new NotTested(`order ${b.live.orderId} was no longer open after its modification and the answer names no replacement`);
      moved = { ...b.live, orderId: String(ids[0]) };
      const replacement = moved;
      writes.undo(PLACE, `cancel order ${replacement.orderId} (the replacement of ${b.live.orderId})`, async () => void (await orders.cancel(replacement, 'orderId', `undo: cancel order ${replacement.orderId}`)));
      record = await orders.settle(moved, (x) => x.state === 'open');
    }
    const data = dataOf(record.reply) ?? {};
    const shown = PRICE_MEMBERS.filter((m) => data[m] !== undefined).map((m) => data[m]);
    if (shown.length === 0) throw new NotTested('the order record shows no price member the harness knows (price, limitPrice)');
    if (!shown.some((p) => Number(p) === Number(price))) {
      throw new RequirementViolation('U-MODIFY-APPLIED', `batch-modify-order moving order ${b.live.orderId} to ${price} was accepted, but order ${moved?.orderId} shows price ${JSON.stringify(shown[0])} (${JSON.stringify(record.status)})`, `open at ${price}`, [r.exchange, record.reply.exchange]);
    }
  });

  await check('U-CANCEL-BATCH', async () => {
    if (!c.live || !moved) throw none('two orders, one to cancel and one to leave');
    const r = await orders.send('trade', { method: 'POST', path: '/api/v3/trade/cancel-batch', json: [{ category: SPOT, symbol: orders.symbol(SPOT), ...naming(c.live) }], label: `cancel-batch naming order ${c.live.orderId} only` });
    mustAccept(r, `cancel-batch naming the live order ${c.live.orderId}`);
    const [named, other] = await afterwards(c.live, moved);
    gone('cancel-batch was accepted', [named, ['U-CANCEL-BATCH'], `order ${c.live.orderId}, which it names`]);
    stillOpen('cancel-batch named one order', [other, ['U-CANCEL-BATCH'], `order ${moved.orderId}, which it does not name`]);
    orders.finished(c.live);
  });

  await check('U-CANCEL-SYMBOL', async () => {
    const spot = moved ?? (await rest(SPOT)).live;
    if (!spot || !d.live) throw none(`an open ${SPOT} and an open ${FUT} order`);
    const r = await orders.send('trade', { method: 'POST', path: '/api/v3/trade/cancel-symbol-order', json: { category: SPOT, symbol: orders.symbol(SPOT) }, label: `cancel every ${SPOT} ${orders.symbol(SPOT)} order` });
    mustAccept(r, `cancel-symbol-order of ${SPOT} ${orders.symbol(SPOT)}`);
    const [ofSymbol, ofOther] = await afterwards(spot, d.live);
    gone(`cancel-symbol-order of ${SPOT} ${orders.symbol(SPOT)} was accepted`, [ofSymbol, ['U-CANCEL-SYMBOL'], `order ${spot.orderId} of that symbol`]);
    stillOpen(`cancel-symbol-order of ${SPOT} ${orders.symbol(SPOT)}`, [ofOther, ['U-CANCEL-SYMBOL'], `the ${FUT} order ${d.live.orderId}, of another category`]);
    orders.finished(spot);
  });

  await check('U-CANCEL-CATEGORY', async () => {
    const spot = (await rest(SPOT)).live;
    const fut = d.live && orders.read(await orders.lookup(d.live)).state === 'open' ? d.live : (await rest(FUT)).live;
    if (!spot || !fut) throw none(`an open ${SPOT} and an open ${FUT} order`);
    const r = await orders.send('trade', { method: 'POST', path: '/api/v3/trade/cancel-symbol-order', json: { category: FUT }, label: `cancel every ${FUT} order (no symbol)` });
    mustAccept(r, `cancel-symbol-order of the whole ${FUT} category`);
    const [ofCategory, ofOther] = await afterwards(fut, spot);
    gone(`cancel-symbol-order of the ${FUT} category was accepted`, [ofCategory, ['U-CANCEL-CATEGORY'], `order ${fut.orderId} of that category`]);
    stillOpen(`cancel-symbol-order of the ${FUT} category`, [ofOther, ['U-CANCEL-CATEGORY'], `the ${SPOT} order ${spot.orderId}, of another category`]);
    orders.finished(fut);
  });

  // Take profit and stop loss: a futures buy far below the market takes profit at the far sell price and stops at
  // half its own price, on the right sides of both (U-NS-TPSL-RULES checks one or the other); its control is the
  // same order without them, acknowledged above (d).
  let tpsl: Live | undefined;
  await check('U-ORDER-TPSL', async () => {
    if (!d.live) throw none(`the ${FUT} order without take profit and stop loss (the control)`);
    const { tick } = orders.settings.markets.precision;
    const stop = times(tick, Math.floor(Number(orders.settings.markets.farPrices.buy) / Number(tick) / 2));
    const label = `a far ${FUT} buy with take profit ${orders.settings.markets.farPrices.sell} and stop loss ${stop}`;
    const { reply, ref } = await orders.place({ ...orders.far(FUT, 'buy'), takeProfitPrice: orders.settings.markets.farPrices.sell, stopLossPrice: stop }, { label });
    if (accepted(reply, label)) {
      if (ref?.orderId) tpsl = ref as Live;
      return;
    }
    throw new RequirementViolation('U-ORDER-TPSL', `a ${FUT} buy at ${orders.settings.markets.farPrices.buy} with take profit above and stop loss below both its price and the market was answered ${reply.status} ${reply.text.slice(0, 160)}, where the same order without them was accepted`, 'accepted', [reply.exchange, d.reply.exchange]);
  });

  // reduceOnly: a futures buy that crosses the market at once, with no position to reduce (closed first), must not
  // fill - refused, or cancelled without filling (U-NS-REDUCE-ONLY). Its control, for a refusal, is the same buy
  // without reduceOnly, whose position the test closes when it ends.
  await check('U-ORDER-REDUCEONLY', async () => {
    const symbol = orders.symbol(FUT);
    await orders.send('trade', { method: 'POST', path: '/api/v3/trade/close-positions', json: { category: FUT, symbol }, label: `close any ${FUT} ${symbol} position first` });
    const buy = () => orders.limit({ category: FUT, side: 'buy', price: orders.settings.markets.farPrices.sell, tif: 'gtc' });
    const label = `a reduceOnly ${FUT} buy that crosses the market, with no position to reduce`;
    const { reply, ref } = await orders.place({ ...buy(), reduceOnly: 'yes' }, { mayFill: true, label });
    if (refused(reply, label)) {
      const control = await orders.place(buy(), { mayFill: true, label: `the same buy without reduceOnly (control)` });
      return mustBeRefused('U-ORDER-REDUCEONLY', reply, 'a reduceOnly buy with no position to reduce', { control: control.reply });
    }
    if (!ref?.orderId) throw new NotTested(`the reduceOnly buy was acknowledged without an orderId`);
    const o = await orders.settle(ref, (x) => x.state !== 'open' && x.state !== 'absent');
    if ((o.filled ?? 0) > 0) throw new RequirementViolation('U-ORDER-REDUCEONLY', `a reduceOnly ${FUT} buy with no position to reduce filled ${o.filled} lot(s) (${JSON.stringify(o.status)}): it opened a position`, 'refused, or cancelled without filling', [reply.exchange, o.reply.exchange]);
  });

  await check('U-STRATEGY-ONE-OF', async () => {
    const id = unknownId();
    const extra = withCategory ? { category: FUT, symbol: orders.symbol(FUT) } : {};
    const r = await orders.send('trade', { method: 'POST', path: '/api/v3/trade/cancel-strategy-order', json: { orderId: id, ...extra }, label: `cancel-strategy-order of ${id}, which names no strategy order` });
    const what = `cancel-strategy-order of ${id}, which names no strategy order of the account`;
    // Accepted, it breaks the rule whatever the control; refused, it proves the rule only beside the control.
    if (accepted(r, what)) throw new RequirementViolation('U-STRATEGY-ONE-OF', `${what} was accepted (${r.status}) ${r.text.slice(0, 160)}`, 'a 4xx refusal', [r.exchange]);
    mustBeRefused('U-STRATEGY-ONE-OF', r, what, { control: await strategyControl(orders, tpsl, extra) });
  });
}));

/** A price a tenth below `price`, still far from the market: a whole number where the price is one (any tick takes it). */
function lower(price: string, tick: string): string {
  const n = Number(price);
  if (Number.isInteger(n) && n >= 10) return String(Math.floor(n * 0.9));
  return times(tick, Math.floor((n / Number(tick)) * 0.9));
}

/**
 * The made-right form of a cancel-strategy-order: the id of the take profit the order record carries, where the profile
 * names the member (U-NS-STRATEGY-ORDERS). Where no answer gives such an id there is no control to send, and a refusal
 * of the made-up id proves nothing: not tested, saying why.
 */
async function strategyControl(orders: Orders, tpsl: Live | undefined, extra: Record<string, unknown>): Promise<Control> {
  const member = orders.settings.strategyOrderIds.takeProfit;
  const without = 'a refusal of a made-up strategy order id is judged beside the cancel of a real one, and';
  if (!member || !orders.stated('strategyOrderIds.takeProfit')) throw new NotTested(`${without} no documented answer gives the id of a strategy order (U-NS-STRATEGY-ORDERS), and the profile names no member that does (settings.strategyOrderIds)`);
  if (!tpsl) throw new NotTested(`${without} the order with a take profit was not placed`);
  const lookup = await orders.lookup(tpsl);
  needAccepted(lookup, `the lookup of order ${tpsl.orderId}, which carries the take profit's id`);
  const id = dataOf(lookup)?.[member];
  if (typeof id !== 'string' && typeof id !== 'number') throw new NotTested(`${without} the order record shows no ${member}`);
  return orders.send('trade', { method: 'POST', path: '/api/v3/trade/cancel-strategy-order', json: { orderId: String(id), ...extra }, label: `cancel-strategy-order of the take profit ${id} (control)` });
}
