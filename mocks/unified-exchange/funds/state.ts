/**
 * The funds part's state: per account (UID) its balances by account type, its liabilities, its copy-trading lead
 * balance, its account mode and leverage, and the records of what it did (ledger, deposits, withdrawals, earn, loans);
 * across accounts the names taken, the sub-accounts, the broker sub-accounts and the P2P advertisements.
 *
 * Shallow on purpose (the full semantics are a later issue): balances are plain numbers per coin, nothing here talks to
 * trading's balances, and an account is seeded the first time it is seen, as U-NS-ACCOUNT-STATE says: funded, 100000
 * USDT and 10 BTC in the unified account, in spot (the default transfer pair, settings.transferPair, moves from spot)
 * and in the funding account where that is p2p (U-NS-FUNDING-ACCOUNT), and 1000 USDT in the copy-trading lead
 * account; unfunded, nothing at all.
 */
import type { PartOptions } from '../contract.ts';

export const ACCOUNT_TYPES = ['spot', 'p2p', 'coin-futures', 'usdt-futures', 'usdc-futures', 'crossed-margin', 'isolated-margin', 'uta'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const isAccountType = (v: unknown): v is AccountType => (ACCOUNT_TYPES as readonly unknown[]).includes(v);

/** The category a ledger entry of an account type is filed under (financial records take a category). */
export const CATEGORY_OF: Record<AccountType, string> = {
  spot: 'SPOT',
  p2p: 'SPOT',
  uta: 'SPOT',
  'crossed-margin': 'MARGIN',
  'isolated-margin': 'MARGIN',
  'coin-futures': 'COIN-FUTURES',
  'usdt-futures': 'USDT-FUTURES',
  'usdc-futures': 'USDC-FUTURES',
};

export interface LedgerEntry {
  id: string;
  category: string;
  coin: string;
  type: string;
  /** Signed: what the entry added to (or took from) the balance. */
  amount: number;
  ts: number;
}

export interface Deposit {
  orderId: string;
  coin: string;
  chain: string;
  size: number;
  address: string;
  ts: number;
  status: 'success';
}

export interface Withdrawal {
  orderId: string;
  clientOid?: string;
  coin: string;
  transferType: string;
  address: string;
  chain?: string;
  tag?: string;
  size: number;
  ts: number;
  status: 'success';
}

export interface Subscription {
  orderId: string;
  productId: string;
  productSubId: string;
  coin: string;
  amount: number;
  ts: number;
}

export interface EarnRecord {
  id: string;
  type: 'subscribe' | 'redeem' | 'interest';
  productId: string;
  productSubId: string;
  coin: string;
  amount: number;
  ts: number;
  status: 'success' | 'pending';
}

export interface Loan {
  orderId: string;
  loanCoin: string;
  pledgeCoin: string;
  daily: string;
  loanAmount: number;
  pledgeAmount: number;
  ts: number;
  /** Absent while the loan is ongoing; REPAY once repaid in full. */
  closed?: { status: 'REPAY'; ts: number };
}

export interface AccountState {
  uid: string;
  balances: Record<AccountType, Record<string, number>>;
  /** What transfers with allowBorrow yes borrowed, by coin: the liabilities repay pays. */
  liabilities: Record<string, number>;
  /** The copy-trading lead account's balances. */
  lead: Record<string, number>;
  mode: string;
  /** Leverage set, by "category|symbol|coin|posSide". */
  leverage: Record<string, string>;
  ledger: LedgerEntry[];
  deposits: Deposit[];
  withdrawals: Withdrawal[];
  subscriptions: Subscription[];
  earnRecords: EarnRecord[];
  loans: Loan[];
}

export interface SubAccount {
  uid: string;
  masterUid: string;
  username: string;
  accountMode: string;
  note: string;
  ts: number;
}

export interface BrokerSub {
  subUid: string;
  brokerUid: string;
  subaccountName: string;
  label: string;
  status: 'normal' | 'freeze';
  ts: number;
}

export interface Ad {
  advId: string;
  ownerUid: string;
  token: string;
  fiat: string;
  side: 'buy' | 'sell';
  priceType: 'fixed' | 'floating';
  price: number;
  premium?: string;
  minAmount: string;
  maxAmount: string;
  quantity: string;
  payMethodIds: Array<{ payMethodId: string; userPayMethodId?: string }>;
  payTimeLimit: string | number;
  remark: string;
  ts: number;
}

const SEED: Record<string, number> = { USDT: 100000, BTC: 10 };

/**
 * The account type the funding assets show and withdrawals are paid from (U-NS-FUNDING-ACCOUNT): spot, or p2p (the
 * public exchange's funding account was once its P2P account).
 */
export const fundingType = (options: PartOptions): AccountType => (options.reading('U-NS-FUNDING-ACCOUNT') === 'p2p-is-funding' ? 'p2p' : 'spot');

export class FundsStore {
  private readonly accounts = new Map<string, AccountState>();
  private id = 0;
  private uidCounter = 0;
  /** Names taken, across the exchange (U-NS-SUB-NAMES lowercase-eight). */
  readonly names = new Set<string>();
  readonly subs: SubAccount[] = [];
  readonly brokerSubs: BrokerSub[] = [];
  readonly ads: Ad[] = [];

  constructor(private readonly options: PartOptions) {}

  /** A new id: a string of 13 digits, never reused within the run, below 2^53 so the integers reading of U-NS-ID-TYPES loses nothing. */
  nextId(): string {
    return String(3_000_000_000_000 + ++this.id);
  }

  /** A new account uid (sub-accounts): ten digits, apart from the routing's. */
  nextUid(): string {
    return String(6_000_000_000 + ++this.uidCounter);
  }

  /** An account's state, seeded the first time it is seen. */
  account(uid: string): AccountState {
    let state = this.accounts.get(uid);
    if (state) return state;
    const now = this.options.now();
    const funded = this.funded();
    const balances = Object.fromEntries(ACCOUNT_TYPES.map((t) => [t, {}])) as AccountState['balances'];
    state = { uid, balances, liabilities: {}, lead: {}, mode: 'basic', leverage: {}, ledger: [], deposits: [], withdrawals: [], subscriptions: [], earnRecords: [], loans: [] };
    if (funded) {
      // The seeding deposits are the records an account starts with: an hour before it was first seen.
      const at = now - 3_600_000;
      for (const [coin, amount] of Object.entries(SEED)) {
        balances.uta[coin] = amount;
        balances.spot[coin] = amount;
        balances[fundingType(this.options)][coin] = amount;
        const deposit: Deposit = { orderId: this.nextId(), coin, chain: coin === 'BTC' ? 'BTC' : 'TRC20', size: amount * 2, address: `seed-${uid}-${coin}`, ts: at, status: 'success' };
        state.deposits.push(deposit);
        state.ledger.push({ id: this.nextId(), category: 'SPOT', coin, type: 'deposit', amount: amount * 2, ts: at });
      }
      state.lead.USDT = 1000;
    }
    this.accounts.set(uid, state);
    return state;
  }

  /** What an account's funding balance held when it was first seen (a fault's stale read shows it). */
  seeded(_uid: string): Record<string, number> {
    return this.funded() ? SEED : {};
  }

  /** Whether accounts are seeded with funds (U-NS-ACCOUNT-STATE funded, and settings.funded not false). */
  private funded(): boolean {
    return this.options.reading('U-NS-ACCOUNT-STATE') !== 'unfunded' && this.options.settings.funded !== false;
  }

  /** Whether a uid is an account this part has seen or made (an internal transfer's target). */
  known(uid: string): boolean {
    return this.accounts.has(uid) || this.subs.some((s) => s.uid === uid) || this.brokerSubs.some((s) => s.subUid === uid);
  }
}

/** The balance of a coin in an account type. */
export const balanceOf = (state: AccountState, type: AccountType, coin: string): number => state.balances[type][coin] ?? 0;

/** Moves `amount` into (positive) or out of (negative) an account type's coin, recording it in the ledger. */
export function post(store: FundsStore, state: AccountState, type: AccountType, coin: string, amount: number, entryType: string, ts: number): void {
  const next = (state.balances[type][coin] ?? 0) + amount;
  state.balances[type][coin] = Math.abs(next) < 1e-12 ? 0 : next;
  state.ledger.push({ id: store.nextId(), category: CATEGORY_OF[type], coin, type: entryType, amount, ts });
}
