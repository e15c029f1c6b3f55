/**
 * Crypto loans: borrowing a coin against a pledged one, the ongoing loans, repayment and the history. Shallow: a loan
 * accrues no interest and its LTV follows the reference prices (COIN_PRICES), which never move. Open points:
 * - U-NS-LOAN-TERMS: ltv-limited, the amount not given is derived at a 50% initial LTV, a loan below the coin's minimum
 *   or above 65% is refused; or collateral-covers, derived at 80% and refused only where the collateral is worth less
 *   than the loan;
 * - U-NS-LOAN-BOTH-AMOUNTS: a loan giving both pledgeAmount and loanAmount is refused, or (loan-amount-wins) loanAmount
 *   decides;
 * - U-NS-LOAN-ACCOUNT: the loan is paid into uta and repaid from it (unified-account), or paid into the funding
 *   account and repaid from it (funding-account); the collateral is pledged from uta in both;
 * - U-NS-LIST-SHAPE, U-NS-RECORD-MEMBERS, U-NS-TIME-RANGE (history).
 */
import { accepted, refused, type Caller, type Outcome, type PartOptions } from '../contract.ts';
import { listData } from '../market/lists.ts';
import { dec, decimal, given, text } from '../market/params.ts';
import { COIN_PRICES } from '../market/symbols.ts';
import { first, missing, outside, YES_NO } from './check.ts';
import { isRefusal, timeRange } from './paging.ts';
import { balanceOf, fundingType, post, type AccountType, type FundsStore, type Loan } from './state.ts';

const LOANABLE: Readonly<Record<string, number>> = { USDT: 10, USDC: 10, ETH: 0.01, BTC: 0.0005 };
const PLEDGEABLE = ['BTC', 'ETH', 'USDT', 'USDC'];
const HOURLY: Readonly<Record<string, string>> = { FLEXIBLE: '0.000006', SEVEN: '0.000004', THIRTY: '0.000005' };
const DAILY = ['SEVEN', 'THIRTY', 'FLEXIBLE'] as const;

/** Where a loan is paid and repaid (U-NS-LOAN-ACCOUNT). */
const loanAccount = (options: PartOptions): AccountType => (options.reading('U-NS-LOAN-ACCOUNT') === 'funding-account' ? fundingType(options) : 'uta');
const publicMembers = (options: PartOptions) => options.reading('U-NS-RECORD-MEMBERS') !== 'documented-only';
const value = (coin: string, amount: number) => amount * (COIN_PRICES[coin] ?? 0);
const ltvOf = (loan: Loan) => value(loan.loanCoin, loan.loanAmount) / value(loan.pledgeCoin, loan.pledgeAmount);

export function loanCoins(options: PartOptions, params: Record<string, unknown>): Outcome {
  const coin = given(params.coin) ? text(params.coin) : undefined;
  const loanInfos = Object.entries(LOANABLE)
    .filter(([c]) => coin === undefined || c === coin)
    .map(([c, min]) => ({ coin: c, flexibleHourlyRate: HOURLY.FLEXIBLE, sevenHourlyRate: HOURLY.SEVEN, thirtyHourlyRate: HOURLY.THIRTY, minAmount: dec(min), maxAmount: dec(1_000_000 / (COIN_PRICES[c] ?? 1)) }));
  const pledgeInfos = PLEDGEABLE.filter((c) => coin === undefined || c === coin).map((c) => ({ coin: c, initRate: '0.65', supRate: '0.8', forceRate: '0.91' }));
  return accepted(publicMembers(options) ? { loanInfos, pledgeInfos } : { borrowable: loanInfos, collateral: pledgeInfos });
}

export function borrow(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = first(missing(params, ['loanCoin', 'pledgeCoin', 'daily']), outside(params, 'daily', DAILY, true));
  if (bad) return bad;
  const loanCoin = text(params.loanCoin)!;
  const pledgeCoin = text(params.pledgeCoin)!;
  if (!(loanCoin in LOANABLE)) return refused('validation', `${loanCoin} is not lent`);
  if (!PLEDGEABLE.includes(pledgeCoin)) return refused('validation', `${pledgeCoin} is not taken as collateral`);
  if (loanCoin === pledgeCoin) return refused('validation', 'the loan and the collateral are different coins');
  const hasPledge = given(params.pledgeAmount);
  let hasLoan = given(params.loanAmount);
  if (!hasPledge && !hasLoan) {
    if (!options.fault('loan-without-amount-accepted')) return refused('validation', 'pledgeAmount or loanAmount is required');
    hasLoan = true;
  }
  if (hasPledge && hasLoan && options.reading('U-NS-LOAN-BOTH-AMOUNTS') === 'refused') return refused('validation', 'give pledgeAmount or loanAmount, not both');
  const limited = options.reading('U-NS-LOAN-TERMS') !== 'collateral-covers';
  const initial = limited ? 0.5 : 0.8;
  let loanAmount: number;
  let pledgeAmount: number;
  if (hasLoan) {
    // loanAmount decides (alone, or both given in the loan-amount-wins reading); the collateral is what it needs.
    const n = given(params.loanAmount) ? decimal(params.loanAmount) : LOANABLE[loanCoin];
    if (n === undefined || n <= 0) return refused('validation', 'loanAmount must be a positive decimal string');
    loanAmount = n;
    pledgeAmount = value(loanCoin, n) / initial / (COIN_PRICES[pledgeCoin] ?? 1);
  } else {
    const n = decimal(params.pledgeAmount);
    if (n === undefined || n <= 0) return refused('validation', 'pledgeAmount must be a positive decimal string');
    pledgeAmount = n;
    loanAmount = (value(pledgeCoin, n) * initial) / (COIN_PRICES[loanCoin] ?? 1);
  }
  if (limited && loanAmount < LOANABLE[loanCoin]!) return refused('state', `the least ${loanCoin} loan is ${dec(LOANABLE[loanCoin]!)}`);
  if (value(loanCoin, loanAmount) > value(pledgeCoin, pledgeAmount) * (limited ? 0.65 : 1)) return refused('state', 'the collateral does not cover the loan');
  const state = store.account(caller.account.uid);
  if (balanceOf(state, 'uta', pledgeCoin) < pledgeAmount) return refused('state', `the account holds less than ${dec(pledgeAmount)} ${pledgeCoin} to pledge`);
  const now = options.now();
  post(store, state, 'uta', pledgeCoin, -pledgeAmount, 'loan_pledge', now);
  // loan-not-credited: the loan is granted and never paid out.
  if (!options.fault('loan-not-credited')) post(store, state, loanAccount(options), loanCoin, loanAmount, 'loan_borrow', now);
  const loan: Loan = { orderId: store.nextId(), loanCoin, pledgeCoin, daily: String(params.daily), loanAmount, pledgeAmount, ts: now };
  state.loans.push(loan);
  return accepted({ orderId: loan.orderId });
}

function loanRow(options: PartOptions, loan: Loan) {
  const ltv = dec(ltvOf(loan), 4);
  return publicMembers(options)
    ? { orderId: loan.orderId, loanCoin: loan.loanCoin, pledgeCoin: loan.pledgeCoin, daily: loan.daily, loanAmount: dec(loan.loanAmount), pledgeAmount: dec(loan.pledgeAmount), currentLTV: ltv, hourlyInterestRate: HOURLY[loan.daily], borrowTime: String(loan.ts) }
    : { orderId: loan.orderId, loanAmount: dec(loan.loanAmount), currentLTV: ltv, borrowed: loan.loanCoin, collateral: loan.pledgeCoin, collateralAmount: dec(loan.pledgeAmount), term: loan.daily, opened: String(loan.ts) };
}

export function ongoingLoans(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const state = store.account(caller.account.uid);
  const rows = state.loans
    .filter((l) => (!l.closed || options.fault('loan-repaid-still-ongoing')) && (!given(params.orderId) || l.orderId === params.orderId))
    .filter((l) => (!given(params.loanCoin) || l.loanCoin === params.loanCoin) && (!given(params.pledgeCoin) || l.pledgeCoin === params.pledgeCoin))
    .sort((a, b) => b.ts - a.ts)
    .map((l) => loanRow(options, l));
  return accepted(listData(options, 'getOngoingLoans', rows));
}

export function repayLoan(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = first(
    missing(params, ['orderId', 'method', 'repayAll']),
    outside(params, 'method', ['borrowed_coin', 'collateral'], true),
    outside(params, 'repayAll', YES_NO, true),
    outside(params, 'repayUnlock', YES_NO),
  );
  if (bad) return bad;
  const all = params.repayAll === 'yes';
  // repay-amount-not-required: a partial repayment without amount is read as repaying it all.
  if (!all && !given(params.amount) && !options.fault('repay-amount-not-required')) return refused('validation', 'amount is required when repayAll is no');
  const state = store.account(caller.account.uid);
  const loan = state.loans.find((l) => l.orderId === params.orderId && !l.closed);
  if (!loan) return refused('not-found', `no ongoing loan ${String(params.orderId)}`);
  let amount = loan.loanAmount;
  if (!all && given(params.amount)) {
    const n = decimal(params.amount);
    if (n === undefined || n <= 0) return refused('validation', 'amount must be a positive decimal string');
    if (n > loan.loanAmount) return refused('state', `the loan owes ${dec(loan.loanAmount)} ${loan.loanCoin}, less than ${dec(n)}`);
    amount = n;
  }
  const now = options.now();
  if (params.method === 'collateral') {
    const pledge = value(loan.loanCoin, amount) / (COIN_PRICES[loan.pledgeCoin] ?? 1);
    if (pledge > loan.pledgeAmount) return refused('state', 'the collateral does not cover the repayment');
    loan.pledgeAmount -= pledge;
  } else {
    const from = loanAccount(options);
    if (balanceOf(state, from, loan.loanCoin) < amount) return refused('state', `the ${from} account holds less than ${dec(amount)} ${loan.loanCoin}`);
    // repay-not-debited: the loan is closed and nothing is taken for it.
    if (!options.fault('repay-not-debited')) post(store, state, from, loan.loanCoin, -amount, 'loan_repay', now);
  }
  loan.loanAmount -= amount;
  if (loan.loanAmount <= 1e-12) {
    loan.loanAmount = 0;
    loan.closed = { status: 'REPAY', ts: now };
    post(store, state, 'uta', loan.pledgeCoin, loan.pledgeAmount, 'loan_unlock', now);
  } else if (params.repayUnlock === 'yes') {
    // Unlock what the rest of the loan no longer needs at the initial LTV.
    const needed = value(loan.loanCoin, loan.loanAmount) / 0.5 / (COIN_PRICES[loan.pledgeCoin] ?? 1);
    const free = Math.max(0, loan.pledgeAmount - needed);
    loan.pledgeAmount -= free;
    if (free > 0) post(store, state, 'uta', loan.pledgeCoin, free, 'loan_unlock', now);
  }
  return accepted({ orderId: loan.orderId, repayAmount: dec(amount), remaining: dec(loan.loanAmount), status: loan.closed ? 'REPAY' : 'BORROWING' });
}

export function loanHistory(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = outside(params, 'status', ['ROLLBACK', 'FORCE', 'REPAY']);
  if (bad) return bad;
  const range = timeRange(options, params.startTime, params.endTime, true);
  if (isRefusal(range)) return range;
  const state = store.account(caller.account.uid);
  const rows = range.empty
    ? []
    : state.loans
        .filter((l) => l.ts >= range.start && l.ts <= range.end && (!given(params.orderId) || l.orderId === params.orderId) && (!given(params.loanCoin) || l.loanCoin === params.loanCoin))
        .filter((l) => !given(params.status) || l.closed?.status === params.status || options.fault('loan-history-status-ignored'))
        .sort((a, b) => b.ts - a.ts)
        .map((l) => ({ ...loanRow(options, l), status: l.closed?.status ?? 'BORROWING', ...(l.closed ? { repayTime: String(l.closed.ts) } : {}) }));
  return accepted(listData(options, 'getLoanHistory', rows));
}
