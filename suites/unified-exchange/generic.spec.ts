/**
 * The generic checks of the registry on every unified-exchange operation, signed through the suite's authentication
 * step (auth.ts). What the spec's schemas cannot give comes from the profile (requests.ts): its symbols, coins and far
 * prices, an order the check placed first for the lookup and the cancels, the key of the role an operation serves
 * (copy, broker) or refuses (read, trade). Fund-moving writes are sent only where settings.fundWrites names them;
 * every order a check places is cancelled when the test ends, and the operations that cancel every open order are sent
 * while holding the open-orders lease (open-orders.ts).
 */
import { defineGenericChecks, specRequest, type GenericContext, type OperationSource } from '../../harness/generic/define.ts';
import type { Prepared } from '../../harness/generic/request-checks.ts';
import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import type { Operation } from '../../harness/spec/types.ts';
import { isAccepted, needAccepted } from '../../harness/answers.ts';
import { Inconclusive } from '../../harness/verdicts.ts';
import type { KeyRole } from '../../interfaces/unified-exchange/settings.ts';
import { test } from './test.ts';
import { hasRole } from './auth.ts';
import { tradeKeyLacksCopyTrading } from './profile.ts';
import { loan, pairTransfer, reverseTransfer } from './fund-requests.ts';
import { repayInFull } from './fund-undo.ts';
import { takeOpenOrders } from './open-orders.ts';
import { takeBrokerRate } from './patient.ts';
import { FUNDS_LEASE, takeLease } from './leases.ts';
import {
  FUND_WRITES, cancelRequest, farOrder, freshClientOid, freshSubName, fundWriteForbidden, lookupRequest, orderIdOf, orderRef, placeRequest, readQuery, roleOf, servedOp, tickBelow, type Settings,
} from './requests.ts';

defineGenericChecks(test, { source: unifiedSource });

/** Operations that cancel every open order of a category or of the account: another test's too. */
const CANCEL_ALL = new Set(['cancelSymbolOrders', 'countdownCancelAll']);

/** The broker operations: their requests of a second are counted per UID (held under the broker-rate lease). */
const BROKER_OPS = new Set(['listBrokerSubAccounts', 'createBrokerSubAccount']);

/** The spec's x-refused-roles -> the profile's key that carries the role. */
const ROLE_KEYS: Record<string, KeyRole> = { readKey: 'read', tradeKey: 'trade', nonBrokerKey: 'trade' };

function unifiedSource(ctx: GenericContext): OperationSource {
  const s = ctx.settings as Settings;
  const spec = ctx.spec;
  let releaseOrders: (() => void) | undefined;
  let releaseBroker: (() => void) | undefined;
  let releaseFunds: (() => void) | undefined;
  const release = () => {
    releaseOrders?.();
    releaseOrders = undefined;
    releaseBroker?.();
    releaseBroker = undefined;
    releaseFunds?.();
    releaseFunds = undefined;
  };
  let lookupOrder: Promise<string> | undefined;
  let productId: Promise<string | undefined> | undefined;

  /** Cancels an order (by clientOid, or its orderId once known) when the test ends, whatever the checks did with it. */
  const cancelAtEnd = (ref: { clientOid?: string; orderId?: string }) =>
    ctx.writes.undo('POST /api/v3/trade/place-order', `cancel order ${ref.orderId ?? ref.clientOid}`, async () => {
      await ctx.api.send({ ...cancelRequest(spec, s, ref), label: `undo: cancel order ${ref.orderId ?? ref.clientOid}` });
    });

  /** A far-priced order of the trading key, placed for a check to look up, modify or cancel. */
  const placeOne = async (why: string, order = farOrder(s, { clientOid: freshClientOid() })): Promise<string> => {
    const r = await ctx.api.send({ ...placeRequest(spec, order), label: `an order to ${why}` });
    // A throttle or a server error is the environment's (Undecided), a refusal leaves the check nothing to judge.
    needAccepted(r, `the order to ${why}`);
    const id = orderIdOf(r.json);
    if (!id) throw new Inconclusive(`the order to ${why} was acknowledged without data.orderId: ${r.text.slice(0, 200)}`);
    cancelAtEnd({ orderId: id });
    return id;
  };

  const noOrders = (): Prepared | undefined => {
    if (!hasRole(ctx.secrets, 'trade')) return { notApplicable: 'it needs an order placed first, and the profile names no trading key (credentials.trade)' };
    if (!ctx.writes.allowed) return { notApplicable: 'it needs an order placed first, and the profile does not allow writes' };
    if (!s.funded) return { notApplicable: 'it needs an order placed first, and the profile says the accounts hold no funds (settings.funded false)' };
    return undefined;
  };

  const signed = (op: Operation, role: KeyRole, json: unknown): Prepared => ({ request: { method: op.method, path: op.path, json, authenticate: true, credential: role } });

  /** The first productId elite-product lists, for the subscription and redemption information. */
  const someProduct = () =>
    (productId ??= (async () => {
      const r = await ctx.api.send({ method: 'GET', path: servedOp(spec, 'getEarnProducts').path, authenticate: true, label: 'an earn product to ask about' });
      const data = (r.json as { data?: unknown } | undefined)?.data;
      const rows = Array.isArray(data) ? data : Object.values((data as Record<string, unknown>) ?? {}).find(Array.isArray);
      const id = (rows as Array<{ productId?: unknown }> | undefined)?.[0]?.productId;
      return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
    })());

  async function valid(original: Operation, credential?: string): Promise<Prepared | undefined> {
    const id = original.operationId!;
    // Where this target serves the operation (a relocated path: the order lookup, the copy-trading operations).
    const op = servedOp(spec, id);
    if (!CANCEL_ALL.has(id)) release();
    // The broker key's requests wait while another check fills its second on purpose (U-LIMIT-BROKER-RATE).
    if (BROKER_OPS.has(id)) releaseBroker ??= await takeBrokerRate(ctx.identity, `${op.key} with the broker key`);
    const forbidden = fundWriteForbidden(op, s);
    if (forbidden) return { notApplicable: forbidden };
    // A fund-moving write waits while another check compares the account's balances (the conservation property).
    if (id in FUND_WRITES) releaseFunds ??= await takeLease(ctx.identity, FUNDS_LEASE, `${op.key} moves the account's funds`);
    const role = (credential ?? roleOf(op, ctx.secrets)) as KeyRole;
    if (op.security.length && !hasRole(ctx.secrets, role)) return { notApplicable: `the profile names no ${role} key (credentials.${role})` };
    // A profile with a read-only key alone sends no write as a valid request, nor what the document refuses such a key (scope.ts).
    if (role === 'read' && !credential && (op.write || op.refusedRoles.includes('readKey'))) {
      return { notApplicable: 'the profile names no trading key (credentials.trade), only a read-only one: the operation writes, or the document refuses it to a read-only key' };
    }
    const m = s.markets;
    switch (id) {
      case 'placeOrder':
        return { request: placeRequest(spec, farOrder(s, { clientOid: freshClientOid() }), role) };
      case 'getOrder': {
        const why = noOrders();
        if (why) return why;
        return { request: lookupRequest(spec, s, await (lookupOrder ??= placeOne('look up')), role) };
      }
      case 'cancelOrder': {
        const why = noOrders();
        return why ?? { request: cancelRequest(spec, s, { orderId: await placeOne('cancel') }, role) };
      }
      case 'cancelBatch': {
        const why = noOrders();
        return why ?? signed(op, role, [{ category: 'SPOT', symbol: m.symbols.SPOT, orderId: await placeOne('cancel in a batch') }]);
      }
      case 'batchModifyOrders': {
        const why = noOrders();
        return why ?? signed(op, role, [{ orderId: await placeOne('modify'), price: tickBelow(m.farPrices.buy, m.precision.tick) }]);
      }
      case 'cancelStrategyOrder':
        return strategyOrder(role);
      case 'cancelSymbolOrders':
        return signed(op, role, { category: 'SPOT', symbol: m.symbols.SPOT });
      case 'countdownCancelAll':
        // "0" disarms: the one value every reading of the range takes, and it cancels nothing.
        return signed(op, role, { countdown: '0' });
      case 'closePositions':
        return signed(op, role, { category: 'USDT-FUTURES', symbol: m.symbols['USDT-FUTURES'] });
      case 'setLeverage':
        return signed(op, role, { category: 'USDT-FUTURES', leverage: '5', ...(s.leverage.symbolLevel.includes('USDT-FUTURES') ? { symbol: m.symbols['USDT-FUTURES'] } : {}) });
      // The amounts the profile sets (settings.amounts); afterWrite moves them back, and repays the loan, at once.
      case 'transfer':
        return signed(op, role, pairTransfer(s));
      case 'copyTransfer':
        return signed(op, role, { coin: m.coins.quote, amount: s.amounts.copyTransfer, type: 'in' });
      case 'borrow':
        return signed(op, role, loan(s));
      case 'createSubAccount':
        return signed(op, role, { username: freshSubName() });
      case 'createBrokerSubAccount':
        return signed(op, role, { subaccountName: freshSubName(), label: 'conformance' });
      case 'withdraw': {
        const w = s.withdraw;
        if (w.toUid) return signed(op, role, { coin: m.coins.quote, transferType: 'internal_transfer', address: w.toUid, size: s.amounts.withdraw, clientOid: freshClientOid() });
        if (w.address) return signed(op, role, { coin: m.coins.quote, transferType: 'on_chain', address: w.address, chain: w.chain, size: s.amounts.withdraw, clientOid: freshClientOid() });
        return { notApplicable: 'the profile names no account or address a withdrawal may go to (settings.withdraw)' };
      }
      case 'createP2pAd':
        return signed(op, role, {
          token: m.coins.quote, fiat: 'USD', side: 'sell', priceType: 'fixed', price: '1', minAmount: '10', maxAmount: '100', quantity: '100',
          payMethodIds: [{ payMethodId: s.p2p.payMethodId }], payTimeLimit: s.p2p.payTimeLimit === 'integers' ? 15 : '15',
        });
      case 'getEarnSubscribeInfo':
      case 'getEarnRedeemInfo': {
        const product = await someProduct();
        return specRequest(spec, op, product ? { productId: product } : {}, role);
      }
      default: {
        const query = readQuery(id, s);
        return specRequest(spec, op, query ?? {}, op.security.length ? role : undefined);
      }
    }
  }

  /**
   * Undoes an accepted fund write at once, while the check still holds the funds lease: another check may compare the
   * account's balances as soon as it lets go, and the end of the test comes after. A transfer and a copy-trading
   * transfer are moved back, a loan is repaid in full; what could not be undone now is tried again when the test ends.
   */
  async function undoNow(op: Operation, request: RequestSpec, reply: Reply): Promise<void> {
    const operationId = op.operationId;
    const json = (request.json ?? {}) as Record<string, unknown>;
    const credential = request.credential ?? 'trade';
    const path = request.path.split('?')[0]!;
    const moveBack = (body: Record<string, unknown>, what: string) => async () => {
      const r = await ctx.api.send({ method: 'POST', path, json: body, authenticate: true, credential, label: `undo: ${what}` });
      // Not taken (a refusal, a throttle): thrown, and the undo is tried again when the test ends.
      needAccepted(r, `undo: ${what}`);
    };
    let undo: (() => Promise<void>) | undefined;
    let what = '';
    if (operationId === 'transfer' && json.fromType && json.toType && json.amount) {
      what = `move ${String(json.amount)} ${String(json.coin)} back from ${String(json.toType)} to ${String(json.fromType)}`;
      undo = moveBack(reverseTransfer(json), what);
    } else if (operationId === 'copyTransfer' && (json.type === 'in' || json.type === 'out') && json.amount) {
      what = `move ${String(json.amount)} ${String(json.coin)} back ${json.type === 'in' ? 'out of' : 'into'} the copy-trading account`;
      undo = moveBack({ ...json, type: json.type === 'in' ? 'out' : 'in' }, what);
    } else if (operationId === 'borrow') {
      const orderId = orderIdOf(reply.json);
      what = `repay loan ${orderId} in full`;
      if (orderId) undo = async () => {
        if (!(await repayInFull(ctx.api, { kind: 'loan', credential, orderId }, 'undo'))) throw new Error(`${what} was refused`);
      };
    }
    if (!undo) return;
    try {
      await undo();
    } catch {
      ctx.writes.undo(op.key, what, undo);
    }
  }

  /**
   * A take-profit order's id, where the profile names the order record's member that carries it (U-NS-STRATEGY-ORDERS):
   * a far futures buy with a take profit far above and a stop loss below it, looked up for the trigger's id.
   */
  async function strategyOrder(role: KeyRole): Promise<Prepared> {
    const member = s.strategyOrderIds.takeProfit;
    if (!member) return { notApplicable: 'no documented operation shows the id of a take-profit or plan order, and the profile names no order-record member that does (settings.strategyOrderIds)' };
    const why = noOrders();
    if (why) return why;
    // The stop loss a tick below the far buy price: below both the order's price and the market.
    const order = { ...farOrder(s, { category: 'USDT-FUTURES', clientOid: freshClientOid() }), takeProfitPrice: s.markets.farPrices.sell, stopLossPrice: tickBelow(s.markets.farPrices.buy, s.markets.precision.tick) };
    const orderId = await placeOne('attach a take profit to', order);
    const r = await ctx.api.send({ ...lookupRequest(spec, s, orderId), label: 'the take-profit order id' });
    const tp = (r.json as { data?: Record<string, unknown> } | undefined)?.data?.[member];
    if (typeof tp !== 'string' && typeof tp !== 'number') throw new Error(`the order record carries no ${member} (settings.strategyOrderIds.takeProfit): ${r.text.slice(0, 200)}`);
    return { request: { method: 'POST', path: servedOp(spec, 'cancelStrategyOrder').path, json: orderRef(s, { orderId: String(tp) }, 'USDT-FUTURES'), authenticate: true, credential: role } };
  }

  return {
    valid,
    otherRole: (role) => {
      const key = ROLE_KEYS[role];
      if (!key) return { missing: `no key of the role ${role}` };
      // The trade key carries "a key without copy-trading permission" only where the profile says it lacks it.
      if (role === 'tradeKey' && !tradeKeyLacksCopyTrading(ctx.profile)) return { missing: 'the profile does not say its trade key lacks copy-trading permission (settings.tradeKeyCopyTrading: false)' };
      return hasRole(ctx.secrets, key) ? { credential: key } : { missing: `the profile names no ${key} key (credentials.${key}), which carries the role ${role}` };
    },
    beforeWrite: async (op: Operation, request: RequestSpec) => {
      if (CANCEL_ALL.has(op.operationId!)) releaseOrders ??= await takeOpenOrders(ctx.identity, `${op.key} cancels every open order`);
      else release();
      // An order sent with a clientOid (every valid one, and a refused role's) is cancelled by it should a target take it.
      const clientOid = (request.json as { clientOid?: unknown } | undefined)?.clientOid;
      if (op.operationId === 'placeOrder' && typeof clientOid === 'string') cancelAtEnd({ clientOid });
    },
    afterWrite: async (op: Operation, request: RequestSpec, reply: Reply) => {
      if (isAccepted(reply)) await undoNow(op, request, reply);
    },
    done: async () => release(),
    // A fund-moving write the profile does not name gets no request at all: a broken target could take a wrong one.
    writeForbidden: (op: Operation) => fundWriteForbidden(op, s),
  };
}
