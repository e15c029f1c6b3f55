/** Undoing an order an interrupted run left resting (npm run restore): cancel it, unless it is no longer open. */
import { accepted } from '../../harness/answers.ts';
import type { RestoreContext } from '../../harness/interface.ts';
import { pathOf } from './auth.ts';
import { cancelCommand, type AccountId } from './commands.ts';
import { stateOf } from './model.ts';
import type { ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';

export interface OrderUndo {
  kind: 'order';
  /** The pool key that placed it (its name in the profile's credentials). */
  key: string;
  orderId: string;
  account: AccountId;
  symbol: string;
}

export async function restoreOrder(undo: OrderUndo, ctx: RestoreContext): Promise<'restored' | 'nothing' | { conflict: string }> {
  const settings = ctx.settings as ExchangeSessionSettings;
  const as = { authenticate: true, credential: undo.key } as const;
  // A deployment that keeps orders per trading account asks for it beside the id (the profile's extras name it).
  ctx.client.learn('tradingAccountId', String(undo.account));
  const orderPath = pathOf(settings, 'order', undo.orderId);
  const lookup = await ctx.client.send({ method: 'GET', path: orderPath, ...as, label: `is order ${undo.orderId} still open?` });
  const status = (lookup.json as Record<string, unknown> | undefined)?.[settings.orderRecord.status];
  // Only a record the API gives says the order is done; a lookup refused, or one that decides nothing (thrown), does not.
  if (accepted(lookup, `the lookup of order ${undo.orderId}`) && stateOf(status, settings.orderRecord.statuses) !== 'open') return 'nothing';
  const label = `cancel order ${undo.orderId}`;
  let r;
  if (settings.order.cancelBy === 'delete') r = await ctx.client.send({ method: 'DELETE', path: orderPath, ...as, label });
  else if (settings.paths.command === undefined) return { conflict: `order ${undo.orderId} may still rest and the profile names no cancel command` };
  else r = await ctx.client.send({ method: 'POST', path: pathOf(settings, 'command'), json: cancelCommand(settings, undo), ...as, label });
  if (accepted(r, label)) return 'restored';
  throw new Error(`the cancel of order ${undo.orderId} was answered ${r.status} ${r.text.slice(0, 200)}`);
}
