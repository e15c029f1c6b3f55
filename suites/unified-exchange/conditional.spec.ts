/**
 * The conditional rules of the trading operations, as a property: a complete order (accepted) beside the same order
 * with one thing wrong (refused) - a required field left out, price left out of a limit order, posSide left out in
 * hedge mode, a value outside a listed set - and cancel-order and close-positions with their own rules. Each refusal
 * is judged beside its control, the complete request, which the case sends too (mustBeRefused). Orders are priced at
 * settings.markets.farPrices, so that nothing fills on a live market, and each accepted one is cancelled.
 */
import fc from 'fast-check';
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { accepted, answerKind, describeAnswer, mustBeRefused, refused } from '../../harness/answers.ts';
import type { Reply } from '../../harness/http/client.ts';
import { fitTimeout } from '../../harness/budget.ts';
import { depthFactor } from '../../harness/options.ts';
import { Inconclusive, RequirementViolation } from '../../harness/verdicts.ts';
import { CATEGORIES, FUTURES, expectClosePositions, expectPlaceOrder, isFutures, type Category, type Tif } from './model.ts';
import { freshClientOid, prepare, LEASE_WAIT_MS, orderIdOf, ordersOf, reqTags, times, type Orders, type Role } from './orders.ts';
import { test } from './test.ts';

const PLACE_RULES: RequirementId[] = [
  'U-ORDER-REQUIRED', 'U-ORDER-SIDE', 'U-ORDER-TYPE', 'U-ORDER-LIMIT-PRICE', 'U-ORDER-TIF-VALUES', 'U-ORDER-POSSIDE-VALUES',
  'U-ORDER-POSSIDE-HEDGE', 'U-ORDER-MARGINMODE', 'U-ORDER-REDUCEONLY', 'U-ORDER-STP-VALUES', 'U-ORDER-TPSL-TRIGGER-TYPES',
];
const RULES: RequirementId[] = ['U-ORDER-ACK', 'U-ORDER-CATEGORIES', ...PLACE_RULES, 'U-ORDER-REFUSAL-NO-EFFECT', 'U-CANCEL-ONE-OF', 'U-CLOSE-CATEGORY'];
const CASES = 100;
const RATE_LIMITED_CASES = 30;
/** A case sends at most: 4 wrong orders, 2 probes, the control, its cancel, a cancel without ids and 2 closes. */
const REQUESTS_PER_CASE = 11;

/** One thing wrong with a complete order (or with cancel-order, close-positions). Values plainly outside each list. */
type Mutation =
  | { kind: 'drop'; field: 'category' | 'symbol' | 'side' | 'orderType' | 'qty' }
  | { kind: 'value'; field: 'side' | 'orderType' | 'timeInForce' | 'posSide' | 'marginMode' | 'reduceOnly' | 'stpMode' | 'takeProfitTriggerType' | 'stopLossTriggerType'; value: string }
  | { kind: 'no-price' }
  | { kind: 'no-posside' }
  | { kind: 'cancel-without-ids' }
  | { kind: 'close'; body: 'no-category' | 'SPOT' | 'MARGIN' | 'bad-posside' };

/** Fields whose values a futures order alone is judged on (elsewhere refused or ignored, U-NS-OUT-OF-CATEGORY-FIELDS). */
const FUTURES_ONLY = new Set(['posSide', 'marginMode', 'reduceOnly', 'takeProfitTriggerType', 'stopLossTriggerType']);
const needsFutures = (m: Mutation) => m.kind === 'no-posside' || (m.kind === 'value' && FUTURES_ONLY.has(m.field));
const needsTpsl = (m: Mutation) => m.kind === 'value' && (m.field === 'takeProfitTriggerType' || m.field === 'stopLossTriggerType');

const BAD: Record<Extract<Mutation, { kind: 'value' }>['field'], [string, string]> = {
  side: ['hold', 'both'],
  orderType: ['stop', 'trigger'],
  timeInForce: ['day', 'gtd'],
  posSide: ['both', 'net'],
  marginMode: ['cross', 'portfolio'],
  reduceOnly: ['maybe', 'yesno'],
  stpMode: ['cancel_oldest', 'expire_maker'],
  takeProfitTriggerType: ['index_price', 'mark'],
  stopLossTriggerType: ['index_price', 'mark'],
};

/** One branch per rule, so that each rule is drawn as often as the others (a trigger type counts once for both fields). */
function mutations(hedge: boolean, close: boolean): fc.Arbitrary<Mutation> {
  const value = (...fields: Array<keyof typeof BAD>) =>
    fc.constantFrom(...fields).chain((field) => fc.record({ kind: fc.constant('value' as const), field: fc.constant(field), value: fc.constantFrom(...BAD[field]) }));
  return fc.oneof(
    fc.record({ kind: fc.constant('drop' as const), field: fc.constantFrom('category' as const, 'symbol' as const, 'side' as const, 'orderType' as const, 'qty' as const) }),
    value('side'),
    value('orderType'),
    value('timeInForce'),
    value('posSide'),
    value('marginMode'),
    value('reduceOnly'),
    value('stpMode'),
    value('takeProfitTriggerType', 'stopLossTriggerType'),
    fc.constant({ kind: 'no-price' as const }),
    ...(hedge ? [fc.constant({ kind: 'no-posside' as const })] : []),
    fc.constant({ kind: 'cancel-without-ids' as const }),
    ...(close ? [fc.record({ kind: fc.constant('close' as const), body: fc.constantFrom('no-category' as const, 'SPOT' as const, 'MARGIN' as const, 'bad-posside' as const) })] : []),
  );
}

interface Case {
  /** One to four things wrong, each of another kind, each sent alone beside the one control. */
  mutations: Mutation[];
  category: Category;
  side: 'buy' | 'sell';
  tif?: Tif;
  stp?: string;
  marginMode?: string;
  reduceOnly?: 'no';
  owner: number;
}

function cases(hedge: boolean, close: boolean): fc.Arbitrary<Case> {
  return fc.uniqueArray(mutations(hedge, close), { minLength: 1, maxLength: 4, selector: (m) => JSON.stringify(m.kind === 'value' ? [m.kind, m.field] : m.kind === 'drop' ? [m.kind, m.field] : [m.kind]) }).chain((ms) =>
    fc.record({
      mutations: fc.constant(ms),
      // A mutation of a futures-only field needs a futures order to be judged on.
      category: fc.constantFrom(...(ms.some(needsFutures) ? FUTURES : CATEGORIES)),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      // gtc, said or by default: the control must still be open when cancel-order names it (post_only is the trading checks').
      tif: fc.constantFrom(undefined, 'gtc' as const),
      stp: fc.constantFrom(undefined, 'none', 'cancel_taker', 'cancel_maker', 'cancel_both'),
      marginMode: fc.constantFrom(undefined, 'crossed', 'isolated'),
      reduceOnly: fc.constantFrom(undefined, 'no' as const),
      owner: fc.integer({ min: 0, max: 1 }),
    }),
  );
}

/** The complete order of a case: far from the market, with attached take profit and stop loss where a trigger type is to be judged. */
function complete(orders: Orders, c: Case): Record<string, unknown> {
  const { settings } = orders;
  const body = orders.far(c.category, c.side, { tif: c.tif });
  if (c.stp) body.stpMode = c.stp;
  if (isFutures(c.category) && c.marginMode) body.marginMode = c.marginMode;
  if (isFutures(c.category) && c.reduceOnly) body.reduceOnly = c.reduceOnly;
  if (c.mutations.some(needsTpsl)) {
    // On the right sides of both the order's price and the market (U-ORDER-TPSL): a buy far below the market takes
    // profit at the far sell price and stops at half its own price; a sell the other way round.
    const { tick } = settings.markets.precision;
    const half = times(tick, Math.floor(Number(settings.markets.farPrices.buy) / Number(tick) / 2));
    const twice = times(tick, Math.round((Number(settings.markets.farPrices.sell) / Number(tick)) * 2));
    Object.assign(body, c.side === 'buy' ? { takeProfitPrice: settings.markets.farPrices.sell, stopLossPrice: half } : { takeProfitPrice: settings.markets.farPrices.buy, stopLossPrice: twice });
    Object.assign(body, { takeProfitTriggerType: 'mark_price', stopLossTriggerType: 'mark_price' });
  }
  return body;
}

function mutated(body: Record<string, unknown>, m: Mutation): Record<string, unknown> {
  const b: Record<string, unknown> = { ...body, clientOid: freshClientOid() };
  if (m.kind === 'drop') delete b[m.field];
  if (m.kind === 'value') b[m.field] = m.value;
  if (m.kind === 'no-price') delete b.price;
  if (m.kind === 'no-posside') delete b.posSide;
  return b;
}

const describeMutation = (m: Mutation) =>
  m.kind === 'drop' ? `without ${m.field}` : m.kind === 'value' ? `${m.field} ${JSON.stringify(m.value)}` : m.kind === 'close' ? `close-positions ${m.body}` : m.kind;

test.describe('conditional rules of the trading operations', () => {
  test('conditional rules, property: a complete order is accepted, the same order with a required or conditional field missing or a value outside its list is refused and places nothing', { tag: reqTags(...RULES) }, async ({ api, profile, target, writes, identity, property, notApplicable, reading, recorder, note }, testInfo) => {
    const orders = ordersOf({ api, profile, target, writes });
    const hedge = orders.stated('holdMode') ? orders.settings.holdMode === 'hedge' : undefined;
    fitTimeout(testInfo, { requests: CASES * depthFactor() * REQUESTS_PER_CASE, waitMs: LEASE_WAIT_MS }, profile, orders.live);
    // Every case places an order (its control), so the scope's reasons for orders apply to all of them.
    const requirements = await prepare(RULES, { profile, writes, identity, notApplicable, recorder }, 'the conditional rules', (id) => {
      if (!orders.settings.funded) return 'the profile says the accounts hold no funds (settings.funded false): the control, a complete order, would be refused for its balance';
      if (id === 'U-ORDER-POSSIDE-HEDGE' && hedge !== true) return hedge === false ? 'the profile states one-way mode (settings.holdMode)' : 'the profile does not state that the account is in hedge mode (settings.holdMode: hedge)';
      if (id === 'U-CLOSE-CATEGORY' && orders.live && !orders.settings.crossingOrders) return "the control, a valid close-positions, would close the live account's positions (settings.crossingOrders: true allows it)";
      return undefined;
    });
    if (requirements.length === 0) return;
    const close = requirements.includes('U-CLOSE-CATEGORY');
    const owners: Role[] = orders.roles.includes('peer') ? ['trade', 'peer'] : ['trade'];
    // Under a stated per-UID rate limit (paced: orders.ts) the cases are fewer, so that the test stays within seconds.
    const runs = orders.rateLimited ? RATE_LIMITED_CASES : CASES;
    if (orders.rateLimited) note(`the profile states per-UID rate limits (settings.rateLimits): the conditional rules run ${RATE_LIMITED_CASES} cases at the default depth, not ${CASES}`);
    const validationStatus = orders.stated('refusalStatus.validation') ? orders.settings.refusalStatus.validation : undefined;
    // The settings a valid order's form rests on: a refusal of the complete order is held against the target only
    // where the profile states them, or once an order of that category was accepted in this test.
    const form = ['markets.symbols', 'markets.quantity', 'markets.farPrices', 'markets.precision', 'funded'];
    const unstated = form.filter((s) => !orders.stated(s));
    const acceptedIn = new Set<Category>();

    await property({
      id: 'unified-exchange-conditional-rules',
      requirements,
      arbitrary: cases(hedge === true, close),
      runs,
      testing: (c) => ['U-ORDER-ACK', ...c.mutations.map((m) => ruleOf(m, hedge))],
      check: async (c, skip, saw) => {
        // Cases alternate between the two accounts where there are two: a per-UID rate limit then allows twice the cases.
        const who = owners[c.owner % owners.length];
        const base = complete(orders, c);
        const refusals: Array<{ rule: RequirementId; reply: Awaited<ReturnType<Orders['place']>>['reply']; what: string }> = [];
        let probe: Probe | undefined;
        // 1. Each wrong order alone, before the control: a target that wrongly takes one is caught in the act.
        for (const m of c.mutations.filter((x) => x.kind !== 'cancel-without-ids' && x.kind !== 'close')) {
          const body = mutated(base, m);
          const e = expectPlaceOrder(body, hedge);
          if (e.expect !== 'refused') throw new Error(`harness: the model does not refuse ${describeMutation(m)} (${e.why})`);
          const { reply } = await orders.place(body, { credential: who, label: `wrong order: ${describeMutation(m)}` });
          refusals.push({ rule: e.rule, reply, what: `a ${c.category} order ${describeMutation(m)} (${e.why})` });
          // "places nothing": a refused order is not there to cancel by its clientOid (once a case), asked at once;
          // judged once the control's own cancel by its clientOid shows what such a cancel gets (step 3).
          if (!probe && answerKind(reply) === 'refused' && !skip.has('U-ORDER-REFUSAL-NO-EFFECT')) probe = await probeRefused(orders, body, c.category, who);
        }
        // 2. The control: the complete order.
        const control = await orders.place(base, { credential: who, label: `complete order (control): ${c.category} ${c.side} at ${base.price}` });
        const ack = answerKind(control.reply);
        if (ack === 'accepted' && orderIdOf(control.reply)) {
          saw('U-ORDER-ACK');
          acceptedIn.add(c.category);
          if (acceptedIn.size === CATEGORIES.length) saw('U-ORDER-CATEGORIES');
        } else if (ack === 'accepted') {
          // Accepted, whatever the form's settings: the acknowledgement itself lacks the id.
          if (!skip.has('U-ORDER-ACK')) throw new RequirementViolation('U-ORDER-ACK', `a complete ${c.category} limit order was accepted without data.orderId: ${control.reply.text.slice(0, 200)}`, 'data.orderId', [control.reply.exchange]);
        } else if (ack !== 'refused') {
          // A throttle, a server error, a page that is not the API: the order's fate decides nothing (the refusals
          // judged beside it below say so too).
          const why = `a complete ${c.category} order was answered ${describeAnswer(control.reply)}: that decides nothing about the order rules`;
          saw('U-ORDER-ACK', why);
          saw('U-ORDER-CATEGORIES', why);
        } else {
          const doubt = expectPlaceOrder(base, hedge).expect !== 'accepted' ? 'the profile does not state the hold mode (settings.holdMode): a futures order without posSide may be refused in hedge mode'
            : !acceptedIn.has(c.category) && unstated.length ? `no ${c.category} order was accepted yet in this test and the profile leaves ${unstated.map((s) => `settings.${s}`).join(', ')} to the defaults: the refusal may rest on them` : undefined;
          if (doubt) {
            saw('U-ORDER-ACK', `a complete order was not accepted (${control.reply.status}): ${doubt}`);
            saw('U-ORDER-CATEGORIES', `a complete ${c.category} order was not accepted: ${doubt}`);
          } else if (!skip.has('U-ORDER-ACK')) {
            throw new RequirementViolation(['U-ORDER-ACK', 'U-ORDER-CATEGORIES'], `a complete ${c.category} limit order was answered ${control.reply.status} ${control.reply.text.slice(0, 200)}`, 'accepted, with data.orderId', [control.reply.exchange]);
          }
        }
        for (const r of refusals) judge(r.rule, r.reply, r.what, control.reply, saw, validationStatus);
        // 3. cancel-order naming no order, beside the control's own cancellation (which cleans up too): by its orderId
        // where that is the control (of a cancel without ids), else by its clientOid where a refused order's clientOid
        // was probed (the probe's control: the same request, naming an order that is there).
        const ref = control.ref;
        const withoutIds = c.mutations.some((m) => m.kind === 'cancel-without-ids');
        const cancelBy = probe && ref?.clientOid && !withoutIds ? 'clientOid' : 'orderId';
        const cancelControl = async () => (ref?.[cancelBy] ? orders.cancel(ref, cancelBy, `cancel the control by its ${cancelBy}`) : undefined);
        let controlCancel: Reply | undefined;
        if (withoutIds) {
          const noIds = ref ? orders.cancelBody(ref, 'orderId') : {};
          delete noIds.orderId;
          const r = await orders.send(who, { method: 'POST', path: '/api/v3/trade/cancel-order', json: noIds, label: 'cancel-order with neither orderId nor clientOid' });
          controlCancel = await cancelControl();
          if (controlCancel && ref?.orderId) judge('U-CANCEL-ONE-OF', r, 'cancel-order with neither orderId nor clientOid', controlCancel, saw, validationStatus);
          else saw('U-CANCEL-ONE-OF', 'no order was acknowledged with an orderId to cancel as the control');
        } else controlCancel = await cancelControl();
        if (probe) await noEffect(orders, probe, cancelBy === 'clientOid' ? controlCancel : undefined, saw);
        // 4. close-positions outside its categories, beside a valid one.
        const cl = c.mutations.find((m): m is Extract<Mutation, { kind: 'close' }> => m.kind === 'close');
        if (cl) {
          const category = FUTURES.includes(c.category) ? c.category : 'USDT-FUTURES';
          const symbol = orders.symbol(category);
          const body: Record<string, unknown> = cl.body === 'no-category' ? { symbol } : cl.body === 'bad-posside' ? { category, symbol, posSide: 'both' } : { category: cl.body, symbol: orders.symbol(cl.body) };
          const e = expectClosePositions(body);
          if (e.expect !== 'refused') throw new Error(`harness: the model does not refuse close-positions ${cl.body}`);
          const r = await orders.send(who, { method: 'POST', path: '/api/v3/trade/close-positions', json: body, label: `close-positions: ${e.why}` });
          const control = () => orders.send(who, { method: 'POST', path: '/api/v3/trade/close-positions', json: { category, symbol }, label: `close-positions ${category} ${symbol} (control)` });
          let good = await control();
          const closed = answerKind(good);
          if (closed === 'accepted' || closed === 'refused') reading('U-NS-CLOSE-NOTHING', closed);
          if (closed === 'refused' && orders.settings.crossingOrders) {
            // Nothing to close may be refused (U-NS-CLOSE-NOTHING): a position, opened by a buy that crosses the
            // market at once, gives the control something to close.
            const buy = orders.limit({ category, side: 'buy', price: orders.settings.markets.farPrices.sell, tif: 'ioc' });
            await orders.place(buy, { credential: who, mayFill: true, label: `open a ${category} position for the control to close` });
            // The fill may show only after the settle time (U-NS-ORDER-PROCESSING).
            await new Promise((r) => setTimeout(r, orders.settleMs));
            good = await control();
          }
          judge('U-CLOSE-CATEGORY', r, `close-positions: ${e.why}`, good, saw, validationStatus);
        }
      },
    });
  });
});

/** The requirement a mutation breaks (for the property's `testing`). */
function ruleOf(m: Mutation, hedge: boolean | undefined): RequirementId {
  if (m.kind === 'cancel-without-ids') return 'U-CANCEL-ONE-OF';
  if (m.kind === 'close') return 'U-CLOSE-CATEGORY';
  if (m.kind === 'drop') return 'U-ORDER-REQUIRED';
  if (m.kind === 'no-price') return 'U-ORDER-LIMIT-PRICE';
  if (m.kind === 'no-posside') return 'U-ORDER-POSSIDE-HEDGE';
  const e = expectPlaceOrder({ category: 'USDT-FUTURES', symbol: 's', side: 'buy', orderType: 'limit', qty: '1', price: '1', ...(hedge ? { posSide: 'long' } : {}), [m.field]: m.value }, hedge);
  return e.expect === 'refused' ? e.rule : 'U-ORDER-REQUIRED';
}

/** mustBeRefused, with a control the target refused too (or a throttle, a server error) turned into "reached but undecided". */
function judge(rule: RequirementId, reply: Parameters<typeof mustBeRefused>[1], what: string, control: Parameters<typeof mustBeRefused>[1], saw: (id: string, why?: string) => void, status?: number): void {
  try {
    mustBeRefused(rule, reply, what, { control, status });
    saw(rule);
  } catch (e) {
    if (e instanceof Inconclusive) return saw(rule, e.message);
    throw e;
  }
}

/** A refused order's clientOid, asked to cancel: the cancel's answer, judged by noEffect beside the control's own. */
interface Probe {
  reply: Reply;
  what: string;
  ref: { category: Category; symbol: string; credential: Role; clientOid: string };
}

async function probeRefused(orders: Orders, body: Record<string, unknown>, category: Category, credential: Role): Promise<Probe> {
  const ref = { category, symbol: orders.symbol(category), credential, clientOid: String(body.clientOid) };
  const what = `cancel-order by the clientOid ${ref.clientOid} of an order refused for its parameters`;
  return { reply: await orders.cancel(ref, 'clientOid', `is the refused order there? cancel it by its clientOid ${ref.clientOid}`), what, ref };
}

/**
 * A refused order left nothing behind: cancel-order by its clientOid finds no order. That refusal says "no such
 * order" only beside the same cancel of an order that is there (the control's, by its clientOid), accepted; a
 * throttle or a server error says nothing. Should the cancel be accepted, a clientOid never sent is tried too: a target
 * that accepts that one as well cancels "unknown" orders (U-CANCEL-UNKNOWN), which says nothing of this rule.
 */
async function noEffect(orders: Orders, probe: Probe, control: Reply | undefined, saw: (id: string, why?: string) => void): Promise<void> {
  const rule: RequirementId = 'U-ORDER-REFUSAL-NO-EFFECT';
  try {
    if (refused(probe.reply, probe.what)) {
      if (!control) return saw(rule, `${probe.what} was refused, but no order of the case was cancelled by its clientOid beside it (the control order was not acknowledged, or its cancel by orderId was another rule's control): the refusal proves nothing`);
      return judge(rule, probe.reply, probe.what, control, saw);
    }
    const unknown = await orders.cancel({ ...probe.ref, clientOid: freshClientOid() }, 'clientOid', 'cancel-order by a clientOid never sent');
    if (accepted(unknown, 'cancel-order by a clientOid never sent')) return saw(rule, 'cancel-order accepts a clientOid never sent too: whether the refused order was placed cannot be told that way');
    throw new RequirementViolation(rule, `an order refused for its parameters was there to cancel by its clientOid ${probe.ref.clientOid}`, 'no order placed by a refused request', [probe.reply.exchange, unknown.exchange]);
  } catch (e) {
    if (e instanceof Inconclusive) return saw(rule, e.message);
    throw e;
  }
}
