/**
 * Copy trading of lead traders: the pairs eligible, the maximum transferable balance and the transfer between the
 * funding side and the lead account. The routing checks the key's copy-trading permission. U-NS-COPY-BALANCES:
 * funding-account-out, the funding side is the spot (funding) balance and the maximum is what can go out of the lead
 * account; or unified-account-in, the funding side is the unified account and the maximum is what can go into the lead
 * account. Either way no transfer moves more than the maximum, nor more than its source holds.
 */
import { accepted, refused, type Caller, type Outcome, type PartOptions } from '../contract.ts';
import { dec, decimal, text } from '../market/params.ts';
import { isCoin, marketsOf } from '../market/symbols.ts';
import { first, missing, outside } from './check.ts';
import { balanceOf, post, type AccountState, type FundsStore } from './state.ts';

const unifiedIn = (options: PartOptions) => options.reading('U-NS-COPY-BALANCES') === 'unified-account-in';

function maxTransferable(options: PartOptions, state: AccountState, coin: string): number {
  return unifiedIn(options) ? balanceOf(state, 'uta', coin) : (state.lead[coin] ?? 0);
}

export function copyPairs(options: PartOptions): Outcome {
  return accepted(marketsOf(options, 'USDT-FUTURES').map((m) => ({ symbol: m.symbol, baseCoin: m.base, quoteCoin: m.quote, minOpenAmount: '5', maxLeverage: '125' })));
}

export function copyMax(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const coin = text(params.coin);
  if (!coin) return refused('validation', 'coin is required');
  if (!isCoin(coin)) return refused('validation', `coin ${coin} is not listed`);
  return accepted({ coin, maxTransferable: dec(maxTransferable(options, store.account(caller.account.uid), coin)) });
}

export function copyTransfer(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = first(missing(params, ['coin', 'amount', 'type']), outside(params, 'type', ['in', 'out'], true));
  if (bad) return bad;
  const coin = text(params.coin)!;
  if (!isCoin(coin)) return refused('validation', `coin ${coin} is not listed`);
  const amount = decimal(params.amount);
  if (amount === undefined || amount <= 0) return refused('validation', 'amount must be a positive decimal string');
  const state = store.account(caller.account.uid);
  const funding = unifiedIn(options) ? 'uta' : 'spot';
  const into = params.type === 'in';
  const source = into ? balanceOf(state, funding, coin) : (state.lead[coin] ?? 0);
  const over = options.fault('copy-transfer-over-max') ? false : amount > maxTransferable(options, state, coin) || amount > source;
  if (over) return refused('state', `more than the ${dec(Math.min(source, maxTransferable(options, state, coin)))} ${coin} transferable`);
  const now = options.now();
  post(store, state, funding, coin, into ? -amount : amount, into ? 'copy_transfer_out' : 'copy_transfer_in', now);
  state.lead[coin] = (state.lead[coin] ?? 0) + (into ? amount : -amount);
  return accepted({ transferId: store.nextId() });
}
