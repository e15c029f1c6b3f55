/**
 * Seeded faults that put one answer in front of a whole trading operation, whatever the request: an account whose
 * trading is halted, a cancel switched off, a lookup that crashes on an order it cannot find, a gateway in front of
 * the lookup or of place-order that throttles. Each refuses (or throttles) the control of some refusal check of the
 * suite along with what the check sends to be refused, so those checks must end undecided, never passed
 * (Fault.undecided); the issue-43 findings about throttled lookups, repeats and cancels are among them.
 */
import { refused, type Handler, type OperationRequest } from '../contract.ts';
import type { TradingFault } from './catalogue.ts';
import type { Exchange } from './exchange.ts';
import { isOpen } from './orders.ts';

/** The operations an account whose trading is halted may not use (every trading write). */
const TRADING_WRITES = ['placeOrder', 'cancelOrder', 'cancelSymbolOrders', 'batchModifyOrders', 'cancelBatch', 'countdownCancelAll', 'closePositions', 'cancelStrategyOrder'];

export interface BlanketContext {
  x: Exchange;
  on: (name: TradingFault) => boolean;
  /** Whether the first deadline of a countdown armed on the reference has passed. */
  firstDeadlinePassed: () => boolean;
}

/** The operations with the blanket faults that are on put in front of them. */
export function withBlanketFaults(ops: Record<string, Handler>, b: BlanketContext): Record<string, Handler> {
  const out: Record<string, Handler> = {};
  for (const [id, handler] of Object.entries(ops)) out[id] = (req) => before(id, req, b) ?? handler(req);
  // lookup-unknown-500: the lookup dereferences the order it did not find.
  if (b.on('lookup-unknown-500')) {
    const lookup = out.getOrder!;
    out.getOrder = async (req) => {
      const o = await lookup(req);
      if (!o.ok || o.data === null) throw new TypeError("Cannot read properties of undefined (reading 'status')");
      return o;
    };
  }
  return out;
}

/** The answer a fault gives instead of the operation's, if one does. */
function before(id: string, req: OperationRequest, { x, on, firstDeadlinePassed }: BlanketContext) {
  const uid = req.caller.account.uid;
  if (on('trading-halted') && TRADING_WRITES.includes(id)) return refused('permission', 'trading is halted for this account');
  if (on('cancels-refused') && (id === 'cancelOrder' || id === 'cancelStrategyOrder')) return refused('permission', 'cancellations by id are switched off for this account');
  if (id === 'getOrder') {
    if (on('lookups-refused')) return refused('permission', 'order lookups are switched off for this key');
    // Once a countdown's first deadline has passed, a gateway throttles every lookup (and the timer never fires).
    if (on('countdown-never-fires-lookups-throttled') && firstDeadlinePassed()) return refused('throttle', 'Too many requests.');
  }
  if (id === 'placeOrder') {
    const clientOid = typeof req.params.clientOid === 'string' ? req.params.clientOid : undefined;
    // A gateway that takes a repeated clientOid for a client's retry storm, and throttles it.
    if (on('repeat-throttled') && clientOid !== undefined && x.clientOidOwner(uid, clientOid)) return refused('throttle', 'Too many requests.');
    // One open order per market and account: a second is refused, whatever it is.
    if (on('second-open-order-refused') && x.ordersOf(uid).some((o) => isOpen(o) && o.category === req.params.category && o.symbol === req.params.symbol)) {
      return refused('state', 'the account already has an open order in this market');
    }
  }
  // refused-order-placed-cancels-throttled: every cancel-order meets a gateway's throttle.
  if (on('refused-order-placed-cancels-throttled') && id === 'cancelOrder') return refused('throttle', 'Too many requests.');
  return undefined;
}
