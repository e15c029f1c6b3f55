/**
 * The unified account: its snapshot, funding assets, information and settings, the account-mode switch, leverage,
 * transfers between account types (and the coins they take), the repayment of liabilities, and the financial records
 * those moves leave. Open points:
 * - U-NS-ACCOUNT-MODE-SWITCH: switch-anytime, any mode at any time, or flat-account-only, only a flat account (no
 *   loans) to another mode;
 * - U-NS-LEVERAGE-LEVEL: symbol-for-futures, USDT- and USDC-FUTURES leverage per symbol
 *   (settings.leverage.symbolLevel), or category-default, the category's default without symbol;
 * - U-NS-LEVERAGE-RANGE: one-to-max, 1 to the maximum (125 futures, 10 margin) with decimals, or whole-to-hundred;
 * - U-NS-TRANSFER-PAIRS: unified-pairs, between uta, spot, p2p and isolated-margin (the types a unified account keeps),
 *   or all-pairs, any two different types;
 * - U-NS-RECORD-MEMBERS: public-exchange-members, or documented-only (other names);
 * - U-NS-FUNDING-ACCOUNT: the funding assets show spot, or p2p (state.ts fundingType);
 * - U-NS-FEES: no-fees, or small-fees, 0.1% of a transfer's amount taken from the source beyond it.
 */
import { accepted, refused, type Caller, type Outcome, type PartOptions } from '../contract.ts';
import { dec, decimal, given, text } from '../market/params.ts';
import { COINS, COIN_PRICES, FUTURES, isCoin, marketOf } from '../market/symbols.ts';
import { first, missing, outside, YES_NO } from './check.ts';
import { isRefusal, pageLimit, pageOf, timeRange, type Refusal } from './paging.ts';
import { ACCOUNT_TYPES, balanceOf, fundingType, isAccountType, post, type AccountType, type FundsStore } from './state.ts';

const MODES = ['basic', 'advanced', 'delta', 'isolated'] as const;
/** The share of a transfer's amount taken as its fee in the small-fees reading of U-NS-FEES. */
export const TRANSFER_FEE = 0.001;
const HIDDEN_FEE = 0.01;
const LEVERAGE_CATEGORIES = ['MARGIN', 'USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'] as const;
const publicMembers = (options: PartOptions) => options.reading('U-NS-RECORD-MEMBERS') !== 'documented-only';

export function accountAssets(options: PartOptions, store: FundsStore, caller: Caller): Outcome {
  const state = store.account(caller.account.uid);
  const coins = [...new Set([...Object.keys(state.balances.uta), ...Object.keys(state.liabilities)])].sort();
  const assets = coins.map((coin) => {
    const available = balanceOf(state, 'uta', coin);
    const debt = state.liabilities[coin] ?? 0;
    return { coin, equity: dec(available - debt), available: dec(available), locked: '0', debt: dec(debt) };
  });
  const usdt = coins.reduce((sum, c) => sum + (balanceOf(state, 'uta', c) - (state.liabilities[c] ?? 0)) * (COIN_PRICES[c] ?? 0), 0);
  return accepted(
    publicMembers(options)
      ? { accountEquity: dec(usdt, 4), usdtEquity: dec(usdt, 4), btcEquity: dec(usdt / COIN_PRICES.BTC!), unrealisedPnl: '0', usdtAvailable: dec(usdt, 4), assets }
      : { equity: dec(usdt, 4), available: dec(usdt, 4), margin: '0', coins: assets },
  );
}

export function fundingAssets(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const state = store.account(caller.account.uid);
  const coin = given(params.coin) ? text(params.coin) : undefined;
  const coins = coin !== undefined ? (isCoin(coin) ? [coin] : []) : COINS;
  return accepted(
    coins.map((c) => {
      // funding-assets-stale: the balance the account was seeded with, whatever has moved since.
      const b = dec(options.fault('funding-assets-stale') ? (store.seeded(caller.account.uid)[c] ?? 0) : balanceOf(state, fundingType(options), c));
      return publicMembers(options) ? { coin: c, available: b, frozen: '0', balance: b } : { asset: c, free: b, locked: '0' };
    }),
  );
}

export function accountInfo(options: PartOptions, caller: Caller): Outcome {
  const { account, permissions } = caller;
  const perms = ['read', ...(permissions.trade ? ['trade'] : []), ...(permissions.copy ? ['copy'] : [])];
  return accepted(
    publicMembers(options)
      ? { uid: account.uid, parentUid: account.masterUid ?? '', inviterCode: '', channel: '', ipWhitelist: [], permissions: perms, accountType: account.broker ? 'broker' : account.masterUid ? 'sub' : 'main' }
      : { uid: account.uid, parent: account.masterUid ?? null, referral: null, source: 'api', allowedIps: [], keyPermissions: perms },
  );
}

export function accountSettings(options: PartOptions, store: FundsStore, caller: Caller): Outcome {
  const state = store.account(caller.account.uid);
  const overrides = Object.entries(state.leverage).map(([key, leverage]) => {
    const [category, symbol, coin, posSide] = key.split('|');
    return { category, ...(symbol ? { symbol } : {}), ...(coin ? { coin } : {}), ...(posSide ? { posSide } : {}), leverage };
  });
  const defaults = { MARGIN: state.leverage['MARGIN|||'] ?? '5', 'USDT-FUTURES': state.leverage['USDT-FUTURES|||'] ?? '20', 'COIN-FUTURES': state.leverage['COIN-FUTURES|||'] ?? '20', 'USDC-FUTURES': state.leverage['USDC-FUTURES|||'] ?? '20' };
  return accepted(
    publicMembers(options)
      ? { holdMode: caller.account.holdMode, accountMode: state.mode, marginMode: 'crossed', defaultLeverage: defaults, overrides }
      : { holdMode: caller.account.holdMode, mode: state.mode, marginType: 'cross', leverageDefaults: defaults, leverageOverrides: overrides },
  );
}

export function adjustAccountMode(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = outside(params, 'mode', MODES, true);
  if (bad) return bad;
  const mode = params.mode as string;
  let uid = caller.account.uid;
  if (given(params.targetUid)) {
    const target = text(params.targetUid);
    const sub = store.subs.find((s) => s.uid === target && s.masterUid === caller.account.uid);
    if (!sub && !options.fault('mode-target-unchecked')) return refused('validation', 'targetUid is not a sub-account of this account');
    uid = target!;
  }
  const state = store.account(uid);
  if (options.reading('U-NS-ACCOUNT-MODE-SWITCH') === 'flat-account-only') {
    if (state.mode === mode) return refused('state', `the account is in ${mode} mode already`);
    if (state.loans.some((l) => !l.closed)) return refused('state', 'the account has ongoing loans');
  }
  state.mode = mode;
  return accepted({ mode, ...(uid !== caller.account.uid ? { targetUid: uid } : {}) });
}

export function setLeverage(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = first(missing(params, ['category', 'leverage']), outside(params, 'category', LEVERAGE_CATEGORIES), outside(params, 'posSide', ['long', 'short']));
  if (bad) return bad;
  const category = params.category as string;
  const leverage = decimal(params.leverage);
  if (leverage === undefined) return refused('validation', 'leverage must be a decimal string');
  if (options.reading('U-NS-LEVERAGE-RANGE') === 'whole-to-hundred') {
    if (!Number.isInteger(leverage) || leverage < 1 || leverage > 100) return refused('validation', 'leverage must be a whole multiplier from 1 to 100');
  } else {
    const max = category === 'MARGIN' ? 10 : 125;
    if (leverage < 1 || leverage > max) return refused('validation', `leverage must be from 1 to ${max}`);
  }
  const symbol = given(params.symbol) ? text(params.symbol) : undefined;
  if (symbol !== undefined && !marketOf(options, category, symbol)) return refused('validation', `symbol ${symbol} is not listed in ${category}`);
  // coin is coin-level leverage in COIN-FUTURES; elsewhere it is ignored (U-NS-OUT-OF-CATEGORY-FIELDS' default).
  const coin = category === 'COIN-FUTURES' && given(params.coin) ? text(params.coin) : undefined;
  if (coin !== undefined && !['BTC', 'ETH'].includes(coin)) return refused('validation', `coin ${coin} has no coin-margined futures`);
  if (options.reading('U-NS-LEVERAGE-LEVEL') === 'symbol-for-futures') {
    const symbolLevel = options.settings.leverage?.symbolLevel ?? ['USDT-FUTURES', 'USDC-FUTURES'];
    if (symbolLevel.includes(category) && symbol === undefined) return refused('validation', `${category} leverage is set per symbol: symbol is required`);
    if (category === 'COIN-FUTURES' && symbol === undefined && coin === undefined) return refused('validation', 'COIN-FUTURES leverage needs symbol or coin');
  }
  // posSide matters in hedge mode only (U-NS-POSSIDE-ONE-WAY's default: ignored in one-way mode).
  const posSide = caller.account.holdMode === 'hedge_mode' && given(params.posSide) ? (params.posSide as string) : '';
  const state = store.account(caller.account.uid);
  const value = dec(leverage, 2);
  state.leverage[[category, symbol ?? '', coin ?? '', posSide].join('|')] = value;
  return accepted({ category, ...(symbol ? { symbol } : {}), ...(coin ? { coin } : {}), ...(posSide ? { posSide } : {}), leverage: value });
}

/** Whether a unified account transfers between two types (U-NS-TRANSFER-PAIRS). */
export function pairAllowed(options: PartOptions, from: AccountType, to: AccountType): boolean {
  if (from === to) return options.fault('transfer-same-type-accepted');
  if (options.reading('U-NS-TRANSFER-PAIRS') === 'all-pairs') return true;
  // A unified account merges the futures and cross-margin accounts into uta; spot, p2p and isolated margin stay apart.
  const kept: readonly AccountType[] = ['uta', 'spot', 'p2p', 'isolated-margin'];
  return kept.includes(from) && kept.includes(to);
}

function pairRefusal(options: PartOptions, params: Record<string, unknown>): Refusal | undefined {
  const bad = first(outside(params, 'fromType', ACCOUNT_TYPES, true), outside(params, 'toType', ACCOUNT_TYPES, true));
  if (bad) return bad;
  if (!pairAllowed(options, params.fromType as AccountType, params.toType as AccountType))
    return refused('validation', `the account does not transfer from ${String(params.fromType)} to ${String(params.toType)}`) as Refusal;
  return undefined;
}

export function transferableCoins(options: PartOptions, params: Record<string, unknown>): Outcome {
  const bad = pairRefusal(options, params);
  return bad ?? accepted([...COINS]);
}

export function transfer(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = first(missing(params, ['fromType', 'toType', 'coin', 'amount']), pairRefusal(options, params), outside(params, 'allowBorrow', YES_NO));
  if (bad) return bad;
  const from = params.fromType as AccountType;
  const to = params.toType as AccountType;
  const isolated = from === 'isolated-margin' || to === 'isolated-margin';
  if (isolated && !given(params.symbol) && !options.fault('isolated-transfer-without-symbol')) return refused('validation', 'symbol is required for an isolated-margin transfer');
  if (isolated && given(params.symbol) && !marketOf(options, 'MARGIN', String(params.symbol))) return refused('validation', `symbol ${String(params.symbol)} is not listed in MARGIN`);
  const coin = text(params.coin)!;
  if (!isCoin(coin)) return refused('validation', `coin ${coin} is not listed`);
  const amount = decimal(params.amount);
  if (amount === undefined || amount <= 0) return refused('validation', 'amount must be a positive decimal string');
  const state = store.account(caller.account.uid);
  const held = balanceOf(state, from, coin);
  const now = options.now();
  // U-NS-FEES small-fees: a share of the amount taken from the source beyond it (settings.fees.transfer states it).
  // transfer-fee-hidden: a fee of 1% the profile does not allow, ten times what the fee reading takes.
  const fee = options.fault('transfer-fee-hidden') ? amount * HIDDEN_FEE : options.reading('U-NS-FEES') === 'small-fees' ? amount * TRANSFER_FEE : 0;
  if (amount + fee > held) {
    if (params.allowBorrow === 'yes' && from === 'uta' && held > 0) {
      // The shortfall is borrowed: a liability that repayLiabilities pays back.
      state.liabilities[coin] = (state.liabilities[coin] ?? 0) + (amount + fee - held);
      post(store, state, from, coin, amount + fee - held, 'borrow', now);
    } else if (!options.fault('transfer-overdraft')) return refused('state', `${from} holds ${dec(held)} ${coin}, less than ${dec(amount + fee)}`);
  }
  // transfer-credits-without-debit creates the amount; transfer-credit-lost destroys it.
  if (!options.fault('transfer-credits-without-debit')) post(store, state, from, coin, -amount, 'transfer_out', now);
  if (fee > 0) post(store, state, from, coin, -fee, 'transfer_fee', now);
  if (!options.fault('transfer-credit-lost')) post(store, state, to, coin, amount, 'transfer_in', now);
  return accepted({ transferId: store.nextId(), clientOid: '' });
}

export function repayLiabilities(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  for (const name of ['repayableCoinList', 'paymentCoinList']) {
    const list = params[name];
    if (!Array.isArray(list) || list.length === 0 || !list.every((c) => typeof c === 'string' && c.length > 0)) return refused('validation', `${name} must be a non-empty array of coins`);
    const unknown = list.find((c) => !isCoin(c));
    if (unknown) return refused('validation', `coin ${String(unknown)} is not listed`);
  }
  const state = store.account(caller.account.uid);
  const now = options.now();
  const items: Array<{ coin: string; repayAmount: string }> = [];
  for (const coin of params.repayableCoinList as string[]) {
    let owed = state.liabilities[coin] ?? 0;
    for (const payment of params.paymentCoinList as string[]) {
      if (owed <= 0) break;
      const rate = (COIN_PRICES[coin] ?? 1) / (COIN_PRICES[payment] ?? 1);
      const pay = Math.min(balanceOf(state, 'uta', payment), owed * rate);
      if (pay <= 0) continue;
      post(store, state, 'uta', payment, -pay, 'repay', now);
      owed -= pay / rate;
    }
    const repaid = (state.liabilities[coin] ?? 0) - Math.max(0, owed);
    if (state.liabilities[coin] !== undefined) state.liabilities[coin] = Math.max(0, owed);
    items.push({ coin, repayAmount: dec(repaid) });
  }
  return accepted({ result: 'success', repayItems: items });
}

export function financialRecords(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = outside(params, 'category', ['SPOT', 'MARGIN', ...FUTURES], true);
  if (bad) return bad;
  const range = timeRange(options, params.startTime, params.endTime, false);
  if (isRefusal(range)) return range;
  const limit = pageLimit(options, params.limit);
  if (isRefusal(limit)) return limit;
  const state = store.account(caller.account.uid);
  const coin = given(params.coin) ? params.coin : undefined;
  const type = given(params.type) ? params.type : undefined;
  const entries = range.empty
    ? []
    : state.ledger
        .filter(
          (e) =>
            (e.category === params.category || options.fault('fin-records-category-ignored')) &&
            (coin === undefined || e.coin === coin || options.fault('fin-records-coin-ignored')) &&
            (type === undefined || e.type === type) &&
            ((e.ts >= range.start && e.ts <= range.end) || options.fault('fin-records-ignore-range')),
        )
        .sort((a, b) => b.ts - a.ts || (a.id < b.id ? 1 : -1));
  const page = pageOf(options, entries, (e) => e.id, params.cursor, limit, false, options.fault('fin-records-cursor-skips'));
  if (isRefusal(page)) return page;
  const list = page.rows.map((e) =>
    publicMembers(options)
      ? { id: e.id, category: e.category, coin: e.coin, type: e.type, amount: dec(e.amount), ts: String(e.ts) }
      : { billId: e.id, market: e.category, asset: e.coin, kind: e.type, change: dec(e.amount), time: String(e.ts) },
  );
  return accepted({ list, ...page.extra });
}
