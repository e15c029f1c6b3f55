/**
 * The funds part's seeded faults and the readings of the open points it implements (the routing concatenates them with
 * the other parts' catalogues). The first reading of each point is the reference's default; `settings` is what a tester
 * of a deployment taking the reading states in its profile (interfaces/unified-exchange/settings.ts). Points whose
 * readings market data shares (paging, time ranges, record members) are listed here once.
 */
import type { Fault } from '../../types.ts';
import type { OpenPointReadings } from '../../readings.ts';
import { BOOK_ADDRESS } from './withdrawals.ts';

/**
 * Each fault breaks one rule of the fund operations, and names the group of operations it changes (`part`), so that the
 * self-test may run faults of different groups that meet different checks together. The first ones are judged by the
 * fund rules' property (suites/unified-exchange/funds-conditional.spec.ts): a wrong request it takes, or, for the two
 * effects judged beside the controls, a repeated withdrawal and a loan repaid in full; the comments below say which
 * check judges the others.
 */
const UNFUNDED_SENDS_NO_TRANSFER = 'unfunded accounts (settings.funded false) have nothing to transfer: the conservation property sends none';

export const fundsFaults = [
  {
    name: 'chain-not-required',
    part: 'funds/withdrawals',
    description: 'An on_chain withdrawal without chain is accepted (and withdraws) instead of being refused.',
    violates: ['U-WITHDRAW-CHAIN'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts have no funds: the reference refuses the request for its balance after the skipped rule, and no control is sent' },
  },
  {
    name: 'withdraw-clientoid-twice',
    part: 'funds/withdrawals',
    description: 'A second withdrawal with the clientOid of an earlier one withdraws again, under a new orderId.',
    violates: ['U-WITHDRAW-IDEMPOTENT'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts have no funds: the reference refuses the request for its balance after the skipped rule, and no control is sent' },
  },
  {
    name: 'loan-without-amount-accepted',
    part: 'funds/loans',
    description: 'A loan with neither pledgeAmount nor loanAmount is accepted and lends the coin\'s minimum.',
    violates: ['U-LOAN-BORROW-AMOUNT'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts have no funds: the reference refuses the request for its balance after the skipped rule, and no control is sent' },
  },
  {
    name: 'repay-amount-not-required',
    part: 'funds/loans',
    description: 'A loan repayment with repayAll no and no amount is accepted and repays the whole loan.',
    violates: ['U-LOAN-REPAY-AMOUNT'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts have no funds: the reference refuses the request for its balance after the skipped rule, and no control is sent' },
  },
  {
    name: 'loan-repaid-still-ongoing',
    part: 'funds/loans',
    description: 'A loan repaid in full stays among the ongoing loans (with loanAmount 0).',
    violates: ['U-LOAN-REPAY-ALL'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts have no funds: the reference refuses the request for its balance after the skipped rule, and no control is sent' },
  },
  {
    name: 'fixed-ad-without-price-accepted',
    part: 'funds/p2p',
    description: 'A fixed-price advertisement without price is accepted and published at the market price.',
    violates: ['U-P2P-CREATE-FIXED-PRICE'],
  },
  {
    name: 'floating-ad-without-premium-accepted',
    part: 'funds/p2p',
    description: 'A floating-price advertisement without premium is accepted and published at the market price.',
    violates: ['U-P2P-CREATE-FLOATING-PREMIUM'],
  },
  {
    name: 'ad-amounts-unchecked',
    part: 'funds/p2p',
    description: 'An advertisement whose minAmount exceeds its maxAmount is accepted.',
    violates: ['U-P2P-CREATE-AMOUNTS'],
  },
  {
    name: 'isolated-transfer-without-symbol',
    part: 'funds/transfers',
    description: 'A transfer from or to isolated-margin without symbol is accepted and moves the funds.',
    violates: ['U-TRANSFER-ISOLATED-SYMBOL'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts have no funds: the reference refuses the request for its balance after the skipped rule, and no control is sent' },
  },
  {
    name: 'transfer-overdraft',
    part: 'funds/transfers',
    description: 'A transfer of more than the source account holds is accepted, leaving a negative balance.',
    violates: ['U-TRANSFER-BALANCE'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts have no funds: the reference refuses the request for its balance after the skipped rule, and no control is sent' },
  },
  {
    name: 'mode-target-unchecked',
    part: 'funds/accounts',
    description: "adjust-account-mode takes any targetUid, switching the mode of an account that is not the master's sub-account.",
    violates: ['U-ACCT-MODE-TARGET'],
  },
  {
    name: 'earn-min-ignored',
    part: 'funds/earn',
    description: "An earn subscription below the product's minSubscribeAmount is accepted.",
    violates: ['U-EARN-SUBSCRIBE-MIN'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts have no funds: the reference refuses the request for its balance after the skipped rule, and no control is sent' },
  },
  {
    name: 'copy-transfer-over-max',
    part: 'funds/copy',
    description: 'A copy-trading transfer of more than the maximum transferable balance is accepted.',
    violates: ['U-COPY-TRANSFER-MAX'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts make copyTransfer a write the profile (settings.funded false) leaves unsent' },
  },
  {
    name: 'withdraw-records-ignore-range',
    part: 'funds/withdrawals',
    description: 'The withdrawal records list every withdrawal of the account, whatever startTime and endTime say.',
    violates: ['U-RECORDS-IN-RANGE'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts have no funds: no withdrawal is made to look up' },
  },
  {
    name: 'withdraw-orderid-filter-wrong',
    part: 'funds/withdrawals',
    description: "The withdrawal records' orderId filter compares with the clientOid: a withdrawal is never found by its orderId.",
    violates: ['U-WITHDRAW-RECORDED'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts have no funds: no withdrawal is made to look up' },
  },
  // Judged by the conservation property (suites/unified-exchange/funds-conservation.spec.ts).
  {
    name: 'transfer-credits-without-debit',
    part: 'funds/transfers',
    description: 'A transfer credits the destination without debiting the source: every transfer creates its amount.',
    violates: ['U-FUNDS-CONSERVED'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': UNFUNDED_SENDS_NO_TRANSFER },
  },
  {
    name: 'transfer-credit-lost',
    part: 'funds/transfers',
    description: 'A transfer debits the source and never credits the destination: every transfer destroys its amount.',
    violates: ['U-FUNDS-CONSERVED'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': UNFUNDED_SENDS_NO_TRANSFER },
  },
  {
    name: 'funding-assets-stale',
    part: 'funds/transfers',
    description: 'The funding assets show what the account was first funded with, whatever has moved since.',
    violates: ['U-FUNDS-CONSERVED'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': UNFUNDED_SENDS_NO_TRANSFER },
  },
  {
    name: 'transfer-same-type-accepted',
    part: 'funds/transfers',
    description: 'A transfer whose toType is its fromType is accepted (and moves nothing) instead of being refused.',
    violates: ['U-TRANSFER-SAME-TYPE'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': UNFUNDED_SENDS_NO_TRANSFER },
  },
  // Judged by the paging checks (suites/unified-exchange/paging.spec.ts): a list walked in small pages must give every
  // record once, the same records as one page that holds them all.
  {
    name: 'sub-list-drops-newest',
    part: 'funds/accounts',
    description: 'The sub-account list stops one short: the newest sub-account is never listed.',
    violates: ['U-SUB-LISTED'],
  },
  {
    name: 'sub-list-cursor-skips',
    part: 'funds/accounts',
    description: 'The sub-account list resumes one record past its cursor: each later page skips a sub-account.',
    violates: ['U-SUB-LISTED'],
  },
  {
    name: 'broker-list-cursor-skips',
    part: 'funds/broker',
    description: 'The broker sub-account list resumes one record past its cursor: each later page skips one.',
    violates: ['U-BROKER-LISTED'],
  },
  {
    name: 'fin-records-cursor-skips',
    part: 'funds/records',
    description: 'The financial records resume one record past their cursor: each later page skips an entry.',
    violates: ['U-FIN-RECORDS-PAGING'],
  },
  {
    name: 'earn-records-pages-overlap',
    part: 'funds/earn',
    description: 'The earn records repeat the last record of a page at the top of the next.',
    violates: ['U-EARN-RECORDS-PAGING'],
  },
  {
    name: 'ad-list-pages-repeat',
    part: 'funds/p2p',
    description: 'The advertisement list repeats the last advertisement of a page at the top of the next.',
    violates: ['U-P2P-LIST-PAGING'],
  },
  {
    name: 'ad-not-listed',
    part: 'funds/p2p',
    description: 'Advertisements the accounts publish are accepted and stored, but ad-list shows the seeded market alone.',
    violates: ['U-P2P-LISTED'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'a profile of unfunded accounts (settings.funded false) lets no advertisement be published: the listing is not applicable' },
  },
  // Judged by the records' comparisons (suites/unified-exchange/records.spec.ts): answers that must select different
  // records share one.
  {
    name: 'deposit-records-ignore-range',
    part: 'funds/deposits',
    description: 'The deposit records list every deposit of the account, whatever startTime and endTime say.',
    violates: ['U-RECORDS-IN-RANGE'],
  },
  {
    name: 'fin-records-ignore-range',
    part: 'funds/records',
    description: 'The financial records list every entry of the category, whatever startTime and endTime say.',
    violates: ['U-RECORDS-IN-RANGE'],
  },
  {
    name: 'deposit-records-orderid-ignored',
    part: 'funds/deposits',
    description: 'The deposit records ignore their orderId filter: every deposit is listed for any orderId.',
    violates: ['U-RECORDS-FILTERED'],
  },
  {
    name: 'fin-records-coin-ignored',
    part: 'funds/records',
    description: 'The financial records ignore their coin filter: every coin\'s entries are listed for any coin.',
    violates: ['U-RECORDS-FILTERED'],
  },
  {
    name: 'fin-records-category-ignored',
    part: 'funds/records',
    description: 'The financial records ignore their category: the SPOT entries are listed for MARGIN too.',
    violates: ['U-RECORDS-FILTERED'],
  },
  {
    name: 'deposit-records-coin-ignored',
    part: 'funds/deposits',
    description: 'The deposit records ignore their coin filter: every coin\'s deposits are listed for any coin.',
    violates: ['U-RECORDS-FILTERED'],
  },
  {
    name: 'loan-history-status-ignored',
    part: 'funds/loans',
    description: 'The loan history ignores its status filter: every loan is listed for any status.',
    violates: ['U-RECORDS-FILTERED'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts take no loan: the history holds none to filter' },
  },
  {
    name: 'broker-list-status-ignored',
    part: 'funds/broker',
    description: 'The broker sub-account list ignores its status filter: the normal sub-accounts are listed as frozen too.',
    violates: ['U-RECORDS-FILTERED'],
  },
  // Judged by the earn redemption (suites/unified-exchange/earn-redemption.spec.ts).
  {
    name: 'earn-redeem-beyond-held',
    part: 'funds/earn',
    description: 'A redemption of more than the subscriptions hold is accepted: it empties them and credits the whole amount asked.',
    violates: ['U-EARN-REDEEM-HELD'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts subscribe nothing: there is nothing to redeem' },
  },
  {
    name: 'earn-records-type-ignored',
    part: 'funds/earn',
    description: 'The earn records ignore their type: subscriptions and redemptions are listed for every type.',
    violates: ['U-RECORDS-FILTERED'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts subscribe nothing: the earn records hold none to filter' },
  },
  {
    name: 'earn-records-ignore-range',
    part: 'funds/earn',
    description: 'The earn records list every record of the type, whatever startTime and endTime say.',
    violates: ['U-RECORDS-IN-RANGE'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts subscribe nothing: the earn records hold none to compare' },
  },
  {
    name: 'earn-redeem-to-unified-refused',
    part: 'funds/earn',
    description: 'A redemption with receiveAccount unified is refused as if the value were not listed.',
    violates: ['U-EARN-REDEEM'],
    // Its control refused too, the redemption beyond the holdings proves nothing.
    undecided: ['U-EARN-REDEEM-HELD'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts subscribe nothing: there is nothing to redeem' },
  },
  // Judged by the conservation property.
  {
    name: 'earn-subscribe-not-debited',
    part: 'funds/earn',
    description: 'An earn subscription is held without taking its amount from the paying account: each one creates it.',
    violates: ['U-FUNDS-CONSERVED'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': UNFUNDED_SENDS_NO_TRANSFER },
  },
  {
    name: 'earn-redeem-credited-twice',
    part: 'funds/earn',
    description: 'A redemption credits the receiving account twice.',
    violates: ['U-FUNDS-CONSERVED'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': UNFUNDED_SENDS_NO_TRANSFER },
  },
  {
    name: 'loan-not-credited',
    part: 'funds/loans',
    description: 'A loan is granted (and its collateral pledged) but the borrowed coin is never paid out.',
    violates: ['U-FUNDS-CONSERVED'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': UNFUNDED_SENDS_NO_TRANSFER },
  },
  {
    name: 'repay-not-debited',
    part: 'funds/loans',
    description: 'A loan repaid with the borrowed coin is closed without taking the coin from the account.',
    violates: ['U-FUNDS-CONSERVED'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': UNFUNDED_SENDS_NO_TRANSFER },
  },
  {
    name: 'other-client-moves-funds',
    part: 'funds/transfers',
    // A profile that states the accounts are not the harness's alone (settings.exclusiveAccounts: false).
    profile: 'reference-unified-amounts.yaml',
    description: 'Not a bug: another client of the account moves 0.37 of the quote coin from uta into the funding account each time the account assets are read, as a person or a bot using the same account would.',
    violates: [],
    // Funds moved by another client cannot be told from a target that moves them wrongly: conservation is
    // inconclusive on an account the profile says others use, never failed (issue 43: it failed). The property stops
    // there, so the same-type transfers it was judging beside are left undecided too.
    undecided: ['U-FUNDS-CONSERVED', 'U-TRANSFER-SAME-TYPE'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': UNFUNDED_SENDS_NO_TRANSFER },
  },
  {
    name: 'transfer-fee-hidden',
    part: 'funds/transfers',
    description: 'A transfer takes 1% of its amount from the source beyond it, a fee no profile allows.',
    violates: ['U-FUNDS-CONSERVED'],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': UNFUNDED_SENDS_NO_TRANSFER },
  },
] as const satisfies readonly Fault[];

export const fundsReadings = [
  {
    point: 'U-NS-ACCOUNT-STATE',
    readings: [
      { name: 'funded', settings: { funded: true } },
      { name: 'unfunded', settings: { funded: false }, leavesLittleToJudge: 'no order, transfer or other fund write can be made right, so no control is sent' },
    ],
  },
  { point: 'U-NS-ACCOUNT-MODE-SWITCH', readings: [{ name: 'switch-anytime' }, { name: 'flat-account-only' }] },
  {
    point: 'U-NS-LEVERAGE-LEVEL',
    readings: [
      { name: 'symbol-for-futures', settings: { leverage: { symbolLevel: ['USDT-FUTURES', 'USDC-FUTURES'] } } },
      { name: 'category-default', settings: { leverage: { symbolLevel: [] } } },
    ],
  },
  { point: 'U-NS-LEVERAGE-RANGE', readings: [{ name: 'one-to-max' }, { name: 'whole-to-hundred' }] },
  {
    point: 'U-NS-TRANSFER-PAIRS',
    readings: [
      { name: 'unified-pairs', settings: { transferPair: { fromType: 'spot', toType: 'p2p' } } },
      { name: 'all-pairs', settings: { transferPair: { fromType: 'spot', toType: 'usdt-futures' } } },
    ],
  },
  {
    point: 'U-NS-WITHDRAW-ADDRESS',
    readings: [
      { name: 'uid-or-chain-address', settings: { withdraw: { address: BOOK_ADDRESS, chain: 'TRC20' } } },
      { name: 'address-book-only', settings: { withdraw: { address: BOOK_ADDRESS, chain: 'TRC20' } } },
    ],
  },
  { point: 'U-NS-DEPOSIT-ADDRESS-SIZE', readings: [{ name: 'single-address' }, { name: 'address-list' }] },
  {
    point: 'U-NS-SUB-NAMES',
    readings: [
      { name: 'lowercase-eight', settings: { subNames: { pattern: '^[a-z]{8}$' } } },
      { name: 'alphanumeric-unique', settings: { subNames: { pattern: '^[A-Za-z0-9]{1,16}$' } } },
    ],
  },
  { point: 'U-NS-COPY-BALANCES', readings: [{ name: 'funding-account-out' }, { name: 'unified-account-in' }] },
  {
    point: 'U-NS-EARN-PRODUCTS',
    readings: [
      { name: 'nested-sub-products', settings: { earn: { products: 'nested' } } },
      { name: 'flat-products', settings: { earn: { products: 'flat' } } },
    ],
  },
  {
    point: 'U-NS-EARN-COIN',
    readings: [
      { name: 'multi-coin-products', settings: { earn: { coinProducts: 'multi-coin' } } },
      { name: 'never-needed', settings: { earn: { coinProducts: 'never' } } },
    ],
  },
  { point: 'U-NS-REDEEM-TYPES', readings: [{ name: 'fast-at-once' }, { name: 'both-at-once' }] },
  { point: 'U-NS-LOAN-TERMS', readings: [{ name: 'ltv-limited' }, { name: 'collateral-covers' }] },
  { point: 'U-NS-LOAN-BOTH-AMOUNTS', readings: [{ name: 'refused' }, { name: 'loan-amount-wins' }] },
  {
    point: 'U-NS-P2P-MERCHANT',
    readings: [
      { name: 'merchant-only', settings: { p2p: { merchant: true } } },
      { name: 'any-account', settings: { p2p: { merchant: true } } },
    ],
  },
  {
    point: 'U-NS-P2P-PAY-METHODS',
    readings: [
      { name: 'known-ids-only', settings: { p2p: { payMethodId: '1' } } },
      { name: 'unchecked', settings: { p2p: { payMethodId: '1' } } },
    ],
  },
  {
    point: 'U-NS-PAY-TIME-LIMIT',
    readings: [
      { name: 'listed-minutes-strings', settings: { p2p: { payTimeLimit: 'minutes-strings' } } },
      { name: 'integer-range', settings: { p2p: { payTimeLimit: 'integers' } } },
    ],
  },
  { point: 'U-NS-PREMIUM-FORMAT', readings: [{ name: 'signed-percent' }, { name: 'percent-of-market' }] },
  { point: 'U-NS-P2P-LIST-SIDE', readings: [{ name: 'advertised-side' }, { name: 'taker-side' }] },
  {
    point: 'U-NS-P2P-PAGING',
    readings: [
      { name: 'one-based', settings: { p2p: { firstPage: 1 } } },
      { name: 'zero-based', settings: { p2p: { firstPage: 0 } } },
    ],
  },
  {
    point: 'U-NS-CURSOR-PAGING',
    readings: [
      { name: 'next-cursor-member', settings: { paging: { cursor: 'next-cursor' } } },
      { name: 'last-id', settings: { paging: { cursor: 'last-id' } } },
    ],
  },
  {
    point: 'U-NS-PAGE-LIMITS',
    readings: [
      { name: 'hundred-capped', settings: { paging: { maxLimit: 100, overMax: 'capped' } } },
      { name: 'refused-above-max', settings: { paging: { maxLimit: 100, overMax: 'refused' } } },
    ],
  },
  // The unbounded reading has no settings: settings.timeRange.maxSpanDays absent says it, and a deep merge cannot
  // take the default's 90 away (see the report).
  { point: 'U-NS-TIME-RANGE', readings: [{ name: 'ninety-days', settings: { timeRange: { maxSpanDays: 90 } } }, { name: 'unbounded', settings: { timeRange: { maxSpanDays: 0 } } }] },
  { point: 'U-NS-REVERSED-RANGE', readings: [{ name: 'refused' }, { name: 'empty' }] },
  // Documented-only funding assets hold what is available under free (balances.ts).
  { point: 'U-NS-RECORD-MEMBERS', readings: [{ name: 'public-exchange-members' }, { name: 'documented-only', settings: { balances: { available: { funding: 'free' } } } }] },
  {
    point: 'U-NS-FUNDING-ACCOUNT',
    readings: [
      { name: 'spot-is-funding', settings: { balances: { fundingType: 'spot' } } },
      { name: 'p2p-is-funding', settings: { balances: { fundingType: 'p2p' } } },
    ],
  },
  {
    point: 'U-NS-LOAN-ACCOUNT',
    readings: [
      { name: 'unified-account', settings: { balances: { loans: 'uta' } } },
      { name: 'funding-account', settings: { balances: { loans: 'funding' } } },
    ],
  },
  {
    point: 'U-NS-FEES',
    readings: [
      { name: 'no-fees', settings: { fees: { transfer: 0 } } },
      // The profile states the fees' shares (balances.ts TRANSFER_FEE, earn.ts FAST_FEE).
      { name: 'small-fees', settings: { fees: { transfer: 0.001, redeemEarn: 0.001 } } },
    ],
  },
] as const satisfies readonly OpenPointReadings[];
