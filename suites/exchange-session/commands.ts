/** The bodies of the order and cancel commands as the profile names their members (settings.order). */
import type { Side, TimeInForce } from '../../harness/models/limit-book.ts';
import type { ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';
import { runScoped } from '../../harness/run-scoped.ts';

/**
 * A trading account's id as the listing gave it: a string or a JSON number (not shown), sent back in commands as it
 * came, so that a deployment that takes only one of them gets what it gave.
 */
export type AccountId = string | number;

export interface OrderSpec {
  account: AccountId;
  side: Side;
  price: string;
  quantity: string;
  tif: TimeInForce;
  symbol?: string;
}

/** An order a conforming target accepts and that can never rest or trade: an IOC priced far from the market. */
export function harmlessOrder(settings: ExchangeSessionSettings, account: AccountId): OrderSpec {
  return { account, side: 'buy', price: settings.order.farPrices.buy, quantity: settings.order.quantityStep, tif: 'IOC' };
}

/** The command body of an order. */
export function orderCommand(settings: ExchangeSessionSettings, o: OrderSpec): Record<string, unknown> {
  const { fields, constants, sides, numbersAsStrings, symbol } = settings.order;
  const num = (v: string) => (numbersAsStrings ? v : Number(v));
  return {
    ...constants,
    [fields.symbol]: o.symbol ?? symbol,
    [fields.side]: o.side === 'buy' ? sides.buy : sides.sell,
    [fields.price]: num(o.price),
    [fields.quantity]: num(o.quantity),
    timeInForce: o.tif,
    [fields.tradingAccountId]: o.account,
    ...(fields.clientOrderId ? { [fields.clientOrderId]: freshClientOrderId() } : {}),
  };
}

/** The cancel command as settings.order.cancel shapes it, its placeholders filled in. */
export function cancelCommand(settings: ExchangeSessionSettings, o: { orderId: string; account: AccountId; symbol: string }): Record<string, string> {
  const fill = (v: string) => v.replace('{orderId}', o.orderId).replace('{symbol}', o.symbol).replace('{tradingAccountId}', String(o.account));
  return Object.fromEntries(Object.entries(settings.order.cancel).map(([name, v]) => [name, fill(v)]));
}

/** Whether the profile gives a way to cancel an order, so that one that may rest can be sent. */
export function canCancel(settings: ExchangeSessionSettings): boolean {
  return settings.order.cancelBy === 'delete' || settings.paths.command !== undefined;
}

const clientOrders = runScoped(() => ({ count: 0 }));

/** A client order id no other order of this run has: a positive integer as a string (19 digits at most). */
function freshClientOrderId(): string {
  const made = clientOrders();
  made.count = (made.count + 1) % 1000;
  return `${Date.now()}${String(process.pid % 1000).padStart(3, '0')}${String(made.count).padStart(3, '0')}`;
}
