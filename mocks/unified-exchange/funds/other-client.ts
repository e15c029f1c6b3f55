/**
 * The seeded fault other-client-moves-funds: not a bug of the deployment, but a second client of the same account (a
 * person, a trading bot) that moves some of the quote coin from the unified account into the funding account each
 * time the account assets are read. The funds only move, and only by that client's doing: a harness that compares
 * balances with what it moved itself must not take this for the target's (settings.exclusiveAccounts).
 */
import type { Caller, PartOptions } from '../contract.ts';
import { balanceOf, fundingType, type FundsStore } from './state.ts';

/** What the other client moves each time: a small amount no check's own amounts share. */
const MOVED = 0.37;

export function anotherClientMoves(options: PartOptions, store: FundsStore, caller: Caller): void {
  const coin = options.settings.markets?.coins?.quote ?? 'USDT';
  const state = store.account(caller.account.uid);
  if (balanceOf(state, 'uta', coin) < MOVED) return;
  const to = fundingType(options);
  state.balances.uta[coin] = balanceOf(state, 'uta', coin) - MOVED;
  state.balances[to][coin] = balanceOf(state, to, coin) + MOVED;
}
