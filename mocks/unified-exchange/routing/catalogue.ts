// The routing's share of the unified-exchange reference's catalogues: the open points settled by what every request
// passes (signing, permissions, the envelope, statuses, validation, rate limits, the relocated paths) and the seeded
// faults of those guards. The parts' own entries live in trading/, market/ and funds/; ../faults.ts and ../readings.ts
// put them together. The first reading of each point is the reference's default, and never changes.
import type { Fault } from '../../types.ts';
import type { OpenPointReadings } from '../../readings.ts';

/** The other header names of U-NS-SIGNING x-api-headers-hex. */
export const X_API_HEADERS = { key: 'X-API-KEY', sign: 'X-API-SIGNATURE', timestamp: 'X-API-TIMESTAMP', passphrase: 'X-API-PASSPHRASE' } as const;
/** Where U-NS-ORDER-LOOKUP-PATH order-detail-query serves the lookup. */
export const ORDER_DETAIL_PATH = '/api/v3/trade/order-detail';
/** Where U-NS-COPY-PATHS copy-paths serves the copy-trading operations. */
export const COPY_PATHS = {
  copyTradingPairs: '/api/v3/copy/trading-pairs',
  copyMaxTransferable: '/api/v3/copy/max-transferable',
  copyTransfer: '/api/v3/copy/transfer',
} as const;

export const routingReadings = [
  // ---- authentication and signing ---------------------------------------------------------------------------------
  {
    point: 'U-NS-SIGNING',
    readings: [
      { name: 'access-hmac-sha256-base64' },
      { name: 'access-hmac-sha256-hex', settings: { signing: { encoding: 'hex' } }, neededToConnect: true },
      { name: 'x-api-headers-hex', settings: { signing: { headers: X_API_HEADERS, encoding: 'hex' } }, neededToConnect: true },
    ],
  },
  { point: 'U-NS-SIGNED-QUERY', readings: [{ name: 'query-as-sent' }, { name: 'sorted-query', settings: { signing: { query: 'sorted' } }, neededToConnect: true }] },
  {
    point: 'U-NS-TIMESTAMP-WINDOW',
    readings: [
      { name: 'thirty-seconds' },
      { name: 'unchecked', settings: { signing: { timestampWindowMs: 0 } } },
      { name: 'five-minutes', settings: { signing: { timestampWindowMs: 300000 } } },
    ],
  },
  { point: 'U-NS-PUBLIC-WITH-CREDENTIALS', readings: [{ name: 'ignored' }, { name: 'checked-when-given' }] },
  { point: 'U-NS-ACCOUNT-PERMISSIONS', readings: [{ name: 'key-only' }, { name: 'write-permissions', settings: { permissions: 'write-permissions' } }] },
  { point: 'U-NS-LOOKUP-PERMISSION', readings: [{ name: 'read-key-allowed' }, { name: 'trading-permission' }] },
  { point: 'U-NS-LEAD-TRADER', readings: [{ name: 'lead-traders-only' }, { name: 'any-copy-key' }] },
  { point: 'U-NS-CHECK-ORDER', readings: [{ name: 'credential-permission-parameters' }, { name: 'parameters-before-permission' }] },
  { point: 'U-NS-AUTH-BEFORE-ROUTE', readings: [{ name: 'route-first' }, { name: 'credential-first' }] },

  // ---- envelope, errors, statuses ---------------------------------------------------------------------------------
  // code-in-http-200 is not implemented: the harness cannot tell its refusals yet.
  { point: 'U-NS-ENVELOPE', readings: [{ name: 'code-00000' }, { name: 'http-status-only', settings: { envelope: 'http-status-only' } }] },
  { point: 'U-NS-ERROR-BODY', readings: [{ name: 'code-msg' }, { name: 'problem-details' }, { name: 'error-string' }] },
  { point: 'U-NS-SUCCESS-STATUS', readings: [{ name: 'ok-200' }, { name: 'created-201' }] },
  {
    point: 'U-NS-AUTH-STATUS',
    readings: [{ name: 'unauthorized-401' }, { name: 'bad-request-400', settings: { refusalStatus: { auth: 400 } } }, { name: 'forbidden-403', settings: { refusalStatus: { auth: 403 } } }],
  },
  {
    point: 'U-NS-PERMISSION-STATUS',
    readings: [{ name: 'forbidden-403' }, { name: 'bad-request-400', settings: { refusalStatus: { permission: 400 } } }, { name: 'unauthorized-401', settings: { refusalStatus: { permission: 401 } } }],
  },
  { point: 'U-NS-VALIDATION-STATUS', readings: [{ name: 'bad-request-400' }, { name: 'unprocessable-422', settings: { refusalStatus: { validation: 422 } } }] },
  // conflict-409 gives several statuses (409, 422, 404): a tester could not state one.
  { point: 'U-NS-STATE-STATUS', readings: [{ name: 'bad-request-400' }, { name: 'conflict-409' }] },
  { point: 'U-NS-WRONG-METHOD', readings: [{ name: 'not-found' }, { name: 'method-not-allowed' }] },
  { point: 'U-NS-REQUEST-CONTENT-TYPE', readings: [{ name: 'ignored' }, { name: 'json-required' }] },
  { point: 'U-NS-UNKNOWN-MEMBERS', readings: [{ name: 'ignored' }, { name: 'refused' }] },
  { point: 'U-NS-NUMBER-INPUT', readings: [{ name: 'accepted' }, { name: 'refused' }] },

  // ---- rate limits ------------------------------------------------------------------------------------------------
  { point: 'U-NS-THROTTLE-STATUS', readings: [{ name: 'too-many-requests-429' }, { name: 'bad-request-with-code', settings: { refusalStatus: { throttle: 400 } } }] },
  { point: 'U-NS-BROKER-RATE-SCOPE', readings: [{ name: 'per-operation' }, { name: 'shared', settings: { brokerRate: { scope: 'shared' } } }] },
  { point: 'U-NS-BROKER-RATE-WINDOW', readings: [{ name: 'fixed-second' }, { name: 'sliding-second' }] },
  { point: 'U-NS-RATE-LIMITS', readings: [{ name: 'none' }, { name: 'per-uid-and-ip', settings: { rateLimits: 'per-uid-and-ip' } }] },

  // ---- paths, categories, ids -------------------------------------------------------------------------------------
  { point: 'U-NS-ORDER-LOOKUP-PATH', readings: [{ name: 'order-info-query' }, { name: 'order-detail-query', settings: { paths: { orderInfo: ORDER_DETAIL_PATH } } }] },
  { point: 'U-NS-COPY-PATHS', readings: [{ name: 'copy-futures-paths' }, { name: 'copy-paths', settings: { paths: COPY_PATHS } }] },
  { point: 'U-NS-UNLISTED-CATEGORY', readings: [{ name: 'refused' }, { name: 'empty', settings: { unlistedCategory: 'empty' } }] },
  { point: 'U-NS-ID-TYPES', readings: [{ name: 'strings' }, { name: 'integers' }] },
] as const satisfies readonly OpenPointReadings[];

/**
 * Most guards are on every request's way, and their faults run alone (no Fault.part): a credential let through lets
 * the generic checks' probes act on the account, in any part. Some change answers only to requests that one part's
 * checks send, and name that part, so that the self-test may pair them with another part's fault: one operation of
 * a part (a market read's category, a funds path), or a permission let through, which lands in the part whose write
 * it lets through (the read key's order rests on the account's market; a copy transfer or a broker sub-account is
 * the funds part's).
 */

// Each fault is one guard a plausible deployment gets wrong. `violates` must fail against reference.yaml; what else a
// fault may make fail is in `collateral`, with the reason beside it.
export const routingFaults = [
  // ---- credentials --------------------------------------------------------------------------------------------------
  {
    name: 'public-asks-credentials',
    part: 'market',
    description:
      'The authentication filter\'s list of public paths was written before score-weights and fee-group were added: those two market-data operations refuse a request without credentials.',
    violates: ['U-AUTH-PUBLIC', 'U-GEN-VALID-ACCEPTED'],
    // Their own checks send no credentials; the refusal checks of the two lose their control.
    collateral: ['U-MKT-SCORE-WEIGHTS', 'U-MKT-FEE-GROUP'],
    undecided: ['U-MKT-FEE-GROUP-REQUIRED', 'U-MKT-GROUP-CATEGORY'],
  },
  {
    name: 'unknown-key-accepted',
    description: 'A key the deployment never issued falls back to the default account: any signed request with a made-up key and secret is served as account A.',
    violates: ['U-AUTH-UNKNOWN-KEY', 'U-GEN-AUTH'],
  },
  {
    name: 'any-signature-accepted',
    description: 'The signature header must be present but its value is never verified (the key and the passphrase still are).',
    violates: ['U-AUTH-SECRET', 'U-AUTH-TAMPERED'],
    // The generic check's wrong or missing credential may be this very one.
    collateral: ['U-GEN-AUTH'],
  },
  {
    name: 'query-not-signed',
    description:
      'For clients that sign the path alone, the verifier also takes a signature whose text leaves the query string out (timestamp + METHOD + path + body): a query added after signing goes through.',
    violates: ['U-AUTH-TAMPERED'],
  },
  {
    name: 'missing-key-default-account',
    description: 'A development shortcut left on: a request without the key header skips the key lookup and the signature check and is served as the default account.',
    violates: ['U-AUTH-REQUIRED', 'U-GEN-AUTH'],
  },
  {
    name: 'wrong-passphrase-accepted',
    description: 'The passphrase header must be present but is never compared with the key\'s.',
    violates: ['U-AUTH-PASSPHRASE'],
    // The generic check's wrong or missing credential may be this very one.
    collateral: ['U-GEN-AUTH'],
  },
  {
    name: 'missing-passphrase-accepted',
    description: 'A request without the passphrase header is served (a passphrase given is still compared).',
    violates: ['U-AUTH-REQUIRED'],
    // The generic check's wrong or missing credential may be this very one.
    collateral: ['U-GEN-AUTH'],
  },

  // ---- permissions --------------------------------------------------------------------------------------------------
  {
    name: 'read-key-trades',
    part: 'trading',
    description: 'The trading permission is never checked: a read-only key places and cancels orders.',
    violates: ['U-AUTH-TRADE', 'U-GEN-ROLE'],
    // The read key's refused writes then take effect.
    collateral: ['U-AUTH-PERMISSION-NO-EFFECT'],
    // Without funds no order is placed: the trading-permission checks need one accepted.
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts have no order accepted, the control of every trading-permission refusal' },
  },
  {
    name: 'permission-checked-after-write',
    part: 'trading',
    description: 'A trading write by a key without trading permission is carried out first and refused afterwards: the answer is a refusal, the order is placed (or cancelled) all the same.',
    violates: ['U-AUTH-PERMISSION-NO-EFFECT'],
    // Without funds no order is placed: the trading-permission checks need one accepted.
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts have no order accepted, the control of every trading-permission refusal' },
  },
  {
    name: 'copy-open-to-trade-key',
    part: 'funds',
    description: 'The copy-trading operations check for trading permission instead of futures copy-trading permission: the trade key is served (the read key is still refused).',
    violates: ['U-AUTH-COPY', 'U-GEN-ROLE'],
    // A trade key's copy transfer then moves funds.
    collateral: ['U-AUTH-PERMISSION-NO-EFFECT'],
  },
  {
    name: 'broker-open-to-non-broker',
    part: 'funds',
    description: 'The broker operations check only that the key belongs to a master account, not that the account is of the broker user type.',
    violates: ['U-AUTH-BROKER', 'U-GEN-ROLE'],
    // A non-broker's create-sub then creates a sub-account.
    collateral: ['U-AUTH-PERMISSION-NO-EFFECT'],
  },
  {
    name: 'broker-open-to-broker-subs',
    part: 'funds',
    description: "The broker operations check the user type of the key's master account: a broker master account's sub-account passes.",
    violates: ['U-AUTH-BROKER-SUB'],
  },

  // ---- answers ------------------------------------------------------------------------------------------------------
  {
    name: 'numbers-not-strings',
    description: 'The market-data, loan, earn and P2P answers write amounts and prices (lastPr, price, size, a candle\'s open to volume, loanAmount, minSubscribeAmount, quantity) as JSON numbers.',
    violates: ['U-CONV-STRINGS', 'U-GEN-SCHEMA'],
    // Their own checks read the same members as decimal strings.
    collateral: ['U-MKT-TICKERS', 'U-MKT-FILLS', 'U-MKT-CANDLES', 'U-MKT-HISTORY-CANDLES-SAME', 'U-LOAN-ONGOING', 'U-EARN-PRODUCTS', 'U-P2P-LIST'],
  },
  {
    name: 'payload-outside-data',
    description: 'The account snapshots (assets, funding assets) put their payload beside code and msg at the top of the answer, with no data member.',
    violates: ['U-CONV-DATA', 'U-GEN-SCHEMA'],
    collateral: ['U-ACCT-ASSETS', 'U-ACCT-FUNDING-ASSETS'],
  },

  {
    name: 'auth-refusal-success-code',
    description: 'The authentication filter writes its refusals from the success template: HTTP 401 (or the status of its reading), but code "00000".',
    violates: ['U-ENV-INDICATOR'],
    // Only a profile that states the envelope (settings.envelope) lets a check judge the code.
    profile: 'reference-unified-stated.yaml',
    keepsDefault: { 'U-NS-ENVELOPE': 'a deployment that tells success by the HTTP status alone has no code to get wrong' },
  },
  // ---- whole groups of operations refused (issue 43): each refuses the controls of refusal checks too, which must then
  // end inconclusive or not tested, never passed.
  {
    name: 'every-key-refused',
    description: "The signature check hashes another text than the document's: every signed request is refused 401, however it is signed.",
    violates: [],
    // The credential and permission refusals are judged beside the same request correctly signed: refused too. The
    // refusal checks of private reads (the loan history's and the broker list's status) lose their controls as well.
    undecided: [
      'U-AUTH-REQUIRED', 'U-AUTH-UNKNOWN-KEY', 'U-AUTH-SECRET', 'U-AUTH-PASSPHRASE', 'U-AUTH-TAMPERED', 'U-AUTH-TIMESTAMP-STALE', 'U-AUTH-COPY',
      'U-AUTH-BROKER', 'U-AUTH-BROKER-SUB', 'U-LOAN-HISTORY-STATUS', 'U-BROKER-LIST-STATUS',
    ],
  },
  {
    name: 'market-reads-refused',
    part: 'market',
    description: 'The market data needs a subscription the accounts do not have: every /api/v3/market/ read is refused 403, whatever it asks.',
    violates: [],
    // A read without symbol, with a category it does not list or a limit over 1000, refused: so is the same read made
    // right; and a read refused without credentials is refused signed too.
    undecided: ['U-MKT-BOOK-REQUIRED', 'U-MKT-CATEGORY-UNLISTED', 'U-LIMIT-CANDLES-OVER', 'U-AUTH-PUBLIC'],
  },
  {
    name: 'fund-writes-refused',
    part: 'funds',
    description: 'The account may not move funds: every fund-moving or account-creating write (transfers, withdrawals, loans, earn, P2P, copy trading, sub-accounts) is refused 403, whatever it carries.',
    violates: [],
    // Each fund rule's refusal is judged beside the same request made right, refused too; conservation is seen only on
    // funds an accepted write moved (issue 43: it passed on refusals alone).
    undecided: [
      'U-WITHDRAW-CHAIN', 'U-TRANSFER-ISOLATED-SYMBOL', 'U-TRANSFER-BALANCE', 'U-LOAN-BORROW-AMOUNT', 'U-LOAN-REPAY-AMOUNT', 'U-P2P-CREATE-FIXED-PRICE',
      'U-P2P-CREATE-FLOATING-PREMIUM', 'U-P2P-CREATE-AMOUNTS', 'U-EARN-SUBSCRIBE-MIN', 'U-COPY-TRANSFER-MAX', 'U-ACCT-MODE-TARGET', 'U-WITHDRAW-IDEMPOTENT',
      'U-WITHDRAW-RECORDED', 'U-LOAN-REPAY-ALL', 'U-TRANSFER-SAME-TYPE', 'U-FUNDS-CONSERVED', 'U-EARN-REDEEM-HELD', 'U-EARN-REDEEM',
    ],
    keepsDefault: { 'U-NS-ACCOUNT-STATE': 'unfunded accounts refuse the fund writes for their balance already: the fault would change nothing' },
  },
  {
    name: 'margin-loans-moved',
    part: 'funds',
    description: 'margin-loans was renamed: the documented path answers 301 Moved Permanently to /api/v3/margin/loans, where nothing is served.',
    // A redirect is not the API answering (issue 43): no verdict may rest on it, so the generic checks of the
    // operation are left undecided.
    violates: [],
    undecided: ['U-GEN-VALID-ACCEPTED', 'U-GEN-CONTENT-TYPE', 'U-GEN-SCHEMA'],
  },
  {
    name: 'open-interest-text-plain',
    part: 'market',
    description: 'A proxy in front of open interest labels its JSON answers text/plain.',
    violates: ['U-GEN-CONTENT-TYPE'],
    // A body that is not labelled JSON may not be held to its schema.
    collateral: ['U-GEN-SCHEMA'],
  },

  // ---- validation ---------------------------------------------------------------------------------------------------
  {
    name: 'category-not-checked',
    part: 'market',
    description: 'A market-data read with a category value the operation does not list (MARGIN for tickers, SPOT for open interest) is served with the records of a category it does list.',
    violates: ['U-MKT-CATEGORY-UNLISTED'],
    collateral: ['U-MKT-FUND-HISTORY-REQUIRED', 'U-MKT-GROUP-CATEGORY'],
  },
  {
    name: 'required-not-checked',
    part: 'market',
    description: 'orderbook, candles and history-candles do not require symbol: without it they serve the profile\'s symbol of the category.',
    violates: ['U-MKT-BOOK-REQUIRED'],
  },
  {
    name: 'enum-not-checked',
    description: 'The status filters of broker sub-list and borrow-history and the group of fee-group are not checked against their values: an unknown value is dropped and the unfiltered list served.',
    violates: ['U-BROKER-LIST-STATUS', 'U-LOAN-HISTORY-STATUS', 'U-MKT-FEE-GROUP-REQUIRED'],
  },
  {
    name: 'order-body-unchecked',
    description: "The trading operations' bodies are not checked against the spec's schemas: a missing member, a value outside its list or a category the operation does not take reaches the trading part, which places what it can.",
    violates: ['U-ORDER-REQUIRED', 'U-ORDER-SIDE', 'U-ORDER-TYPE', 'U-ORDER-LIMIT-PRICE', 'U-ORDER-TIF-VALUES', 'U-ORDER-POSSIDE-VALUES', 'U-ORDER-REDUCEONLY', 'U-ORDER-TPSL-TRIGGER-TYPES'],
    // marginMode cases come up in the default readings' quick-depth cases, not always in the other readings'.
    collateral: ['U-ORDER-MARGINMODE', 'U-ORDER-CATEGORIES', 'U-ORDER-STP-VALUES', 'U-CANCEL-ONE-OF', 'U-CLOSE-CATEGORY', 'U-COUNTDOWN-REQUIRED', 'U-GEN-NO-5XX', 'U-ORDER-REFUSAL-NO-EFFECT'],
    // Unfunded accounts refuse every order, so the complete order (every case's control) is never accepted there.
    keepsDefault: {
      'U-NS-ACCOUNT-STATE': 'unfunded accounts refuse every order: the property has no accepted control to judge a refusal by',
      // With these in their other readings together, the property's complete futures orders (its controls) are refused.
      'U-NS-HOLD-MODE': 'hedge mode with posSide refused in one-way mode leaves the futures controls refused',
      'U-NS-POSSIDE-ONE-WAY': 'as U-NS-HOLD-MODE',
      'U-NS-OUT-OF-CATEGORY-FIELDS': 'as U-NS-HOLD-MODE',
    },
  },
  {
    name: 'bad-input-redirected',
    part: 'market',
    description: 'A market-data read refused for its parameters is answered 303 See Other to an error page instead of a 4xx. A redirect is not the API answering: no verdict may rest on it, so the bad input it answers is left undecided.',
    violates: [],
    undecided: ['U-GEN-NO-5XX'],
  },
  {
    name: '5xx-on-bad-input',
    description: 'A POST body that is not JSON escapes the parser\'s error handling and is answered 500.',
    violates: ['U-GEN-NO-5XX'],
  },
  {
    name: 'broker-rate-off-by-one',
    part: 'broker-rate',
    description: 'The broker limit refuses a UID\'s requests only beyond 21 in a second (`> 21` for `> 20`).',
    violates: ['U-LIMIT-BROKER-RATE'],
    // The property asserts what both windows agree on (at most 20 accepted in a whole second). A sliding window holds 21
    // in a whole second only where the second's requests line up with its expiries: at quick depth, one run in three.
    keepsDefault: { 'U-NS-BROKER-RATE-WINDOW': 'a sliding window of 21 shows 21 accepted in a whole second only now and then: the quick property misses it one run in three' },
  },
  {
    name: 'broker-rate-per-key',
    part: 'broker-rate',
    description: 'The broker limit is counted per key: two keys of one UID get 20 requests a second each.',
    violates: ['U-LIMIT-BROKER-RATE'],
  },
  {
    name: 'broker-rate-global',
    part: 'broker-rate',
    description: 'The broker limit is counted for all broker accounts together: one UID\'s 20 requests in a second leave another UID none.',
    violates: ['U-LIMIT-BROKER-RATE-PER-UID'],
    // Every broker request counts against one window, those of checks that do not hold the broker lease too (a
    // non-broker key's refused attempt): the property's room may be spent under it.
    collateral: ['U-LIMIT-BROKER-RATE-ALLOWED'],
  },
  {
    name: 'broker-rate-too-low',
    part: 'broker-rate',
    description: 'The broker limit throttles beyond 10 requests a second, half what the document allows.',
    violates: ['U-LIMIT-BROKER-RATE-ALLOWED'],
  },
  {
    name: 'broker-rate-unlimited',
    part: 'broker-rate',
    description: 'The broker limit is never applied: a UID\'s broker requests are all answered, however many a second.',
    violates: ['U-LIMIT-BROKER-RATE'],
  },
] as const satisfies readonly Fault[];
