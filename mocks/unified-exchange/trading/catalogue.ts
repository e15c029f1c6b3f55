/**
 * The seeded faults and the open points' readings of the trading part (mocks/unified-exchange/trading/). The lead
 * merges them into the reference's faults.ts and readings.ts; this part switches on them by name (typed here, so a
 * misspelled fault or reading does not compile).
 *
 * Readings: the first of each point is the reference's default. `settings` is what a tester of a deployment taking
 * the reading states in its profile (interfaces/unified-exchange/settings.ts); the part itself follows the reading
 * (options.reading), never those settings, so that it keeps the reading when a profile leaves it unstated
 * (`--readings other --unstated`).
 */
import type { Fault, OpenPointReadings } from '../../../harness/reference.ts';

/**
 * Every trading fault shows only where orders are accepted: in the other readings the accounts are unfunded
 * (U-NS-ACCOUNT-STATE), every order is refused and the checks have no accepted control, so that point stays at its
 * default when a fault runs in the other readings.
 */
const FUNDED = { 'U-NS-ACCOUNT-STATE': 'unfunded accounts refuse every order: no trading check has an accepted control there' } as const;
/**
 * The faults the trading properties catch (the crossing orders of suites/unified-exchange/trading.spec.ts, the
 * conditional rules of conditional.spec.ts): under per-UID rate limits their requests are paced and their cases cut,
 * and the self-test's quick depth leaves a handful, too few to meet a fault that shows in one kind of case of many.
 */
const PACED = { ...FUNDED, 'U-NS-RATE-LIMITS': 'paced by the per-UID limits, the property runs a handful of cases at quick depth: too few to meet the fault' } as const;

/**
 * What each fault changes (Fault.part), for the self-test's pairing. Most trading faults are the whole part's (no
 * part of their own: ../faults.ts gives them 'trading'): they reach the orders every trading check rests,
 * acknowledges, reads back or cancels when it ends (gtc, the acknowledgement, the record's status, the lookup, the
 * cancel, the book that prices are picked from), or they put an order or a position on the account that should not be
 * there, where the next check's model of the market would meet it. A fault of one corner changes only answers to
 * requests that its own checks send and leaves nothing behind: a cancel of an unknown or another account's order, a
 * batch, a modify, an armed countdown, an order with take-profit. Two corners' faults may share a run; a fault of the
 * whole part shares one with no other trading fault.
 */
const POSITIONS = 'trading/positions';
const CANCELS = 'trading/cancels';
const COUNTDOWN = 'trading/countdown';

export const tradingFaults = [
  // ---- placement ---------------------------------------------------------------------------------------------------
  {
    name: 'ack-without-order-id',
    keepsDefault: PACED,
    description: 'place-order acknowledges an order with its clientOid only: data carries no orderId.',
    violates: ['U-ORDER-ACK'],
    // The cancel without ids is judged beside the cancel of the control by its orderId, which the fault withholds.
    undecided: ['U-CANCEL-ONE-OF'],
    // The generic checks' valid order is acknowledged without the orderId its schema requires.
    collateral: ['U-GEN-SCHEMA'],
  },
  {
    name: 'margin-orders-refused',
    keepsDefault: PACED,
    // A refused complete order is held against the target only where the profile states the order's form.
    profile: 'reference-unified-stated.yaml',
    description: 'Every MARGIN order is refused as if the category were not listed.',
    violates: ['U-ORDER-ACK', 'U-ORDER-CATEGORIES'],
  },
  {
    name: 'stp-value-unchecked',
    keepsDefault: PACED,
    description: 'stpMode is not checked against its list: a value outside it is taken as none.',
    violates: ['U-ORDER-STP-VALUES'],
  },
  {
    name: 'refused-order-placed',
    keepsDefault: PACED,
    description: 'An order refused for its parameters is stored all the same: a far buy rests under its clientOid.',
    violates: ['U-ORDER-REFUSAL-NO-EFFECT'],
  },
  {
    name: 'limit-price-not-required',
    keepsDefault: PACED,
    description: 'A limit order without price is accepted (and executed as a market order). Needs the routing to leave the if/then of PlaceOrderRequest to the trading part.',
    violates: ['U-ORDER-LIMIT-PRICE'],
    collateral: ['U-ORDER-REFUSAL-NO-EFFECT'],
  },
  {
    name: 'tif-default-remainder-cancelled',
    keepsDefault: FUNDED,
    description: 'A limit order without timeInForce that fills in part has its remainder cancelled instead of resting (one that crosses nothing still rests).',
    violates: ['U-ORDER-TIF-DEFAULT'],
    collateral: ['U-TIF-GTC'],
  },
  {
    name: 'posside-not-required-in-hedge',
    keepsDefault: PACED,
    description: 'In hedge mode a futures order without posSide is accepted (as long for a buy, short for a sell).',
    violates: ['U-ORDER-POSSIDE-HEDGE'],
    profile: 'reference-unified-hedge.yaml',
  },
  {
    name: 'post-only-takes',
    keepsDefault: PACED,
    description: 'A post_only order that would match as taker trades like a gtc order.',
    violates: ['U-TIF-POST-ONLY'],
  },
  {
    name: 'post-only-maker-refused',
    keepsDefault: FUNDED,
    description: 'Every post_only order is refused, even one that would rest as maker.',
    violates: ['U-TIF-POST-ONLY-MAKER'],
  },
  {
    name: 'gtc-remainder-cancelled',
    keepsDefault: PACED,
    description: 'The remainder of a gtc order (timeInForce sent) that fills in part is cancelled instead of resting.',
    violates: ['U-TIF-GTC'],
    // A later post_only the book model expects to take meets no remainder, rests, and is blamed on post-only.
    collateral: ['U-TIF-POST-ONLY'],
  },
  {
    name: 'ioc-rests',
    keepsDefault: PACED,
    description: 'The remainder of an ioc order rests on the book instead of being cancelled.',
    violates: ['U-TIF-IOC'],
    // A later post_only the book model expects to rest meets the remainder and is refused as taking.
    collateral: ['U-TIF-POST-ONLY'],
  },
  {
    name: 'fok-fills-partly',
    keepsDefault: PACED,
    description: 'A fok order that cannot be filled in full fills what it can and cancels the rest.',
    violates: ['U-TIF-FOK'],
    // The partial fill took liquidity the book model still holds: a later post_only is judged against a book the target no longer has.
    collateral: ['U-TIF-POST-ONLY'],
  },
  {
    name: 'stp-ignored',
    keepsDefault: PACED,
    description: 'stpMode is ignored: an order matches the account\'s own resting orders whatever its stpMode.',
    violates: ['U-ORDER-STP-CANCEL-TAKER', 'U-ORDER-STP-CANCEL-MAKER', 'U-ORDER-STP-CANCEL-BOTH'],
  },
  {
    name: 'clientoid-reused',
    keepsDefault: FUNDED,
    description: 'A second order with the clientOid of an open order is placed as a new order.',
    violates: ['U-ORDER-CLIENTOID-IDEMPOTENT'],
    // The second order answers a later lookup or cancel by that clientOid in place of the first.
    collateral: ['U-ORDER-CLIENTOID-TRACK', 'U-CANCEL-BY-CLIENTOID'],
  },
  {
    name: 'clientoid-lookup-other-order',
    keepsDefault: FUNDED,
    description: 'A clientOid is resolved to the account\'s newest other order: cancel-order (and the lookup) by clientOid act on the wrong order.',
    violates: ['U-ORDER-CLIENTOID-TRACK', 'U-CANCEL-BY-CLIENTOID'],
    collateral: ['U-CANCEL-BATCH', 'U-MODIFY-APPLIED'],
  },
  {
    name: 'reduce-only-opens',
    keepsDefault: PACED,
    description: 'reduceOnly is ignored: a reduceOnly order with no position to reduce opens one.',
    violates: ['U-ORDER-REDUCEONLY'],
  },
  {
    name: 'tpsl-refused',
    part: POSITIONS,
    keepsDefault: FUNDED,
    description: 'Every order carrying takeProfitPrice or stopLossPrice is refused, on the right sides or not.',
    violates: ['U-ORDER-TPSL'],
    // The conditional property's complete orders with a take-profit trigger type, the controls of that rule, are refused too.
    undecided: ['U-ORDER-TPSL-TRIGGER-TYPES'],
  },
  // ---- lookup -----------------------------------------------------------------------------------------------------
  {
    name: 'open-shows-new',
    keepsDefault: PACED,
    description: 'An order resting with nothing filled shows status "new", a value of no reading, instead of live.',
    violates: ['U-ORDER-STATUS-LIVE'],
  },
  {
    name: 'filled-shows-live',
    keepsDefault: FUNDED,
    description: 'The lookup of an order filled in full still shows status live (cancelled orders show cancelled).',
    violates: ['U-ORDER-STATUS-CLOSED'],
    collateral: ['U-TIF-GTC', 'U-TIF-IOC', 'U-TIF-FOK', 'U-ORDER-MARKET', 'U-ORDER-STP-CANCEL-MAKER', 'U-ORDER-REDUCEONLY'],
  },
  {
    name: 'lookup-other-account',
    keepsDefault: FUNDED,
    description: 'The lookup finds an order whatever account it belongs to.',
    violates: ['U-ORDER-LOOKUP-OTHER-ACCOUNT'],
  },
  {
    name: 'lookup-unknown-invented',
    keepsDefault: FUNDED,
    description: 'The lookup of an orderId the account never had answers a made-up live order with that id.',
    violates: ['U-ORDER-LOOKUP-UNKNOWN'],
    // Another account's order is unknown to this one: its lookup returns the made-up order too.
    collateral: ['U-ORDER-LOOKUP-OTHER-ACCOUNT'],
  },
  // ---- cancellation and modification ------------------------------------------------------------------------------
  {
    name: 'cancel-leaves-order-open',
    keepsDefault: FUNDED,
    description: 'cancel-order answers a success but the order stays live.',
    violates: ['U-CANCEL-BY-ORDERID', 'U-CANCEL-BY-CLIENTOID'],
    collateral: ['U-ORDER-CLIENTOID-TRACK'],
  },
  {
    name: 'cancel-unknown-accepted',
    part: CANCELS,
    keepsDefault: FUNDED,
    description: 'cancel-order of an order the account never had is a success.',
    violates: ['U-CANCEL-UNKNOWN'],
    // The conditional property tells a refused order from a placed one by cancelling its clientOid, which now succeeds
    // either way: whether the refusal had no effect cannot be judged.
    undecided: ['U-ORDER-REFUSAL-NO-EFFECT'],
  },
  {
    name: 'cancel-other-account',
    part: CANCELS,
    keepsDefault: FUNDED,
    description: 'cancel-order cancels another account\'s order when given its orderId.',
    violates: ['U-CANCEL-OTHER-ACCOUNT'],
  },
  {
    name: 'cancel-symbol-whole-account',
    part: CANCELS,
    keepsDefault: FUNDED,
    description: 'cancel-symbol-order cancels every open order of the account, whatever its symbol and category.',
    violates: ['U-CANCEL-SYMBOL', 'U-CANCEL-CATEGORY'],
  },
  {
    name: 'batch-cancel-ignores-items',
    part: CANCELS,
    keepsDefault: FUNDED,
    description: 'cancel-batch answers a success for every item but cancels nothing.',
    violates: ['U-CANCEL-BATCH'],
  },
  {
    name: 'modify-ignored',
    part: CANCELS,
    keepsDefault: FUNDED,
    description: 'batch-modify-order answers a success for every item but the orders keep their price and quantity.',
    violates: ['U-MODIFY-APPLIED'],
  },
  {
    name: 'strategy-cancel-unknown-accepted',
    part: CANCELS,
    keepsDefault: FUNDED,
    description: 'cancel-strategy-order naming no strategy order of the account is a success.',
    violates: ['U-STRATEGY-ONE-OF'],
  },
  {
    name: 'cancel-without-ids-accepted',
    part: CANCELS,
    keepsDefault: FUNDED,
    description: 'cancel-order with neither orderId nor clientOid is a success that cancels nothing (the body is not checked for one of the two).',
    violates: ['U-CANCEL-ONE-OF'],
  },
  {
    name: 'close-any-category',
    part: POSITIONS,
    keepsDefault: FUNDED,
    description: 'close-positions takes any category, or none, and answers a success that closes nothing outside the futures categories.',
    violates: ['U-CLOSE-CATEGORY'],
  },
  // ---- countdown --------------------------------------------------------------------------------------------------
  {
    name: 'countdown-never-fires',
    part: COUNTDOWN,
    keepsDefault: FUNDED,
    description: 'The countdown is accepted and armed but never cancels anything when it expires.',
    violates: ['U-COUNTDOWN-EXPIRY'],
  },
  {
    name: 'countdown-zero-arms',
    keepsDefault: FUNDED,
    description: 'countdown "0" does not disarm: it arms the timer at the shortest countdown of the range.',
    violates: ['U-COUNTDOWN-DISARM'],
  },
  {
    name: 'countdown-refresh-ignored',
    part: COUNTDOWN,
    keepsDefault: FUNDED,
    description: 'A countdown asked while one is armed keeps the first deadline: a refresh does not push it back.',
    violates: ['U-COUNTDOWN-REFRESH'],
    // The timer then fires at the first deadline: whether the refreshed one is kept cannot be judged.
    undecided: ['U-COUNTDOWN-EXPIRY'],
  },
  {
    name: 'countdown-without-value-accepted',
    part: COUNTDOWN,
    keepsDefault: FUNDED,
    description: 'countdown-cancel-all without countdown is a success that changes nothing.',
    violates: ['U-COUNTDOWN-REQUIRED'],
  },
  {
    name: 'countdown-range-unchecked',
    part: COUNTDOWN,
    keepsDefault: FUNDED,
    // The range is not shown: only a profile that states it (settings.countdown.range) can be held to it.
    profile: 'reference-unified-stated.yaml',
    description: 'A countdown outside the range is armed as asked (neither refused nor clamped).',
    violates: ['U-COUNTDOWN-RANGE'],
  },
  // ---- whole operations refused, throttled or crashing (blanket.ts) -------------------------------------------------
  // Each refuses or throttles the control of refusal checks along with what they send to be refused: those checks
  // must end inconclusive or not tested, never passed (issue 43).
  {
    name: 'trading-halted',
    // Paced by per-UID limits, the conditional property's cases take a minute in the other readings: a refused
    // control shows as well in the default ones.
    keepsDefault: PACED,
    // Where the profile states the order's form and the countdown's range, a refused complete order and a refused
    // countdown are the target's; unstated, they would only be undecided.
    profile: 'reference-unified-stated.yaml',
    description: 'Trading is halted for the account: every trading write (orders, cancels, the countdown, close-positions) is refused 403, whatever it carries.',
    // A complete order refused where the profile states its form.
    violates: ['U-ORDER-ACK', 'U-ORDER-CATEGORIES'],
    // The refusal checks of orders, countdowns and close-positions: their controls are refused too. The countdown's
    // timeline has no order to cancel, and the order lifecycle none to judge (its reduceOnly check runs in the same
    // test); its lookups of orders the account does not have are not writes, and judged as ever.
    undecided: [
      'U-ORDER-REQUIRED', 'U-ORDER-SIDE', 'U-ORDER-TYPE', 'U-ORDER-LIMIT-PRICE', 'U-ORDER-TIF-VALUES', 'U-ORDER-POSSIDE-VALUES', 'U-ORDER-POSSIDE-HEDGE',
      'U-ORDER-MARGINMODE', 'U-ORDER-REDUCEONLY', 'U-ORDER-STP-VALUES', 'U-ORDER-TPSL-TRIGGER-TYPES', 'U-ORDER-REFUSAL-NO-EFFECT', 'U-CANCEL-ONE-OF',
      'U-CLOSE-CATEGORY', 'U-COUNTDOWN-REQUIRED', 'U-COUNTDOWN-RANGE', 'U-COUNTDOWN-EXPIRY', 'U-COUNTDOWN-REFRESH', 'U-COUNTDOWN-DISARM', 'U-AUTH-TRADE',
      'U-AUTH-PERMISSION-NO-EFFECT', 'U-CANCEL-BY-ORDERID', 'U-CANCEL-UNKNOWN', 'U-CANCEL-OTHER-ACCOUNT', 'U-MODIFY-APPLIED', 'U-CANCEL-BATCH',
      'U-CANCEL-SYMBOL', 'U-CANCEL-CATEGORY', 'U-ORDER-TPSL', 'U-STRATEGY-ONE-OF',
    ],
  },
  {
    name: 'cancels-refused',
    // Paced by per-UID limits, the conditional property's cases take a minute in the other readings: a refused
    // control shows as well in the default ones.
    keepsDefault: PACED,
    // The stated profile takes the reading that shows a take profit's id (U-NS-STRATEGY-ORDERS): the control of a
    // cancel-strategy-order refusal.
    profile: 'reference-unified-stated.yaml',
    description: 'cancel-order and cancel-strategy-order are switched off for the account: refused 403 whatever they name (the orders stay open).',
    violates: ['U-CANCEL-BY-ORDERID'],
    // Every refusal of a cancel is judged beside a cancel of an order the account has, refused too.
    undecided: ['U-CANCEL-UNKNOWN', 'U-CANCEL-OTHER-ACCOUNT', 'U-STRATEGY-ONE-OF', 'U-CANCEL-ONE-OF', 'U-ORDER-REFUSAL-NO-EFFECT', 'U-AUTH-TRADE'],
  },
  {
    name: 'lookups-refused',
    keepsDefault: FUNDED,
    description: 'The order lookup is switched off for the keys: refused 403, whatever order it names.',
    violates: [],
    // A lookup refused for an order the account never had, or another account's, says nothing where every lookup is
    // refused: nothing of the order lifecycle can be read.
    undecided: [
      'U-ORDER-LOOKUP-UNKNOWN', 'U-ORDER-LOOKUP-OTHER-ACCOUNT', 'U-CANCEL-BY-ORDERID', 'U-CANCEL-UNKNOWN', 'U-CANCEL-OTHER-ACCOUNT', 'U-MODIFY-APPLIED',
      'U-CANCEL-BATCH', 'U-CANCEL-SYMBOL', 'U-CANCEL-CATEGORY', 'U-ORDER-TPSL', 'U-STRATEGY-ONE-OF', 'U-ORDER-REDUCEONLY',
    ],
  },
  {
    name: 'lookup-unknown-500',
    part: 'trading/lookups',
    keepsDefault: {
      ...FUNDED,
      'U-NS-ORDER-PROCESSING': 'an order not found yet (the asynchronous reading) would crash the lookup too, and every check that waits for its order would be undecided',
      // Shown, the strategy order's id gives the strategy cancel a real control and it passes; not shown, it is not
      // tested, and beside the lookups this fault leaves undecided, inconclusive: one of the two, whatever the reading.
      'U-NS-STRATEGY-ORDERS': 'the strategy cancel is judged (and passes) only where the ids are shown: kept not shown, it stays undecided',
    },
    description: 'The lookup of an order the caller does not have (unknown, or another account\'s) dereferences what it did not find: answered 500.',
    violates: ['U-GEN-NO-5XX'],
    // A 500 is no "not found": the lookups of unknown orders decide nothing (issue 43: they passed). The strategy
    // cancel, not tested on this profile (no strategy order id is shown), is then inconclusive beside them.
    undecided: ['U-ORDER-LOOKUP-UNKNOWN', 'U-ORDER-LOOKUP-OTHER-ACCOUNT', 'U-STRATEGY-ONE-OF'],
  },
  {
    name: 'countdown-never-fires-lookups-throttled',
    keepsDefault: FUNDED,
    description: 'The countdown never cancels anything, and once the first deadline of a countdown has passed, a gateway throttles every order lookup (429).',
    violates: [],
    // Without lookups after the deadlines, neither the expiry (which the fault breaks) nor the refresh or the disarm
    // can be judged: none may pass (issue 43: the expiry passed, the disarm failed).
    undecided: ['U-COUNTDOWN-EXPIRY', 'U-COUNTDOWN-REFRESH', 'U-COUNTDOWN-DISARM'],
  },
  {
    name: 'repeat-throttled',
    // The client gives up on place-order after three throttled answers in a row: every trading check after it.
    part: 'trading',
    keepsDefault: FUNDED,
    description: 'A gateway takes an order repeating a clientOid for a retry storm and throttles it (429).',
    violates: [],
    // A throttled repeat is neither the refusal nor the same answer the rule allows (issue 43: it failed the rule).
    undecided: ['U-ORDER-CLIENTOID-IDEMPOTENT'],
  },
  {
    name: 'second-open-order-refused',
    keepsDefault: FUNDED,
    description: 'An account may have one open order per market: any other order there is refused while it rests.',
    violates: [],
    // The repeated clientOid is refused, but so is its control, the same order with a fresh clientOid.
    undecided: ['U-ORDER-CLIENTOID-IDEMPOTENT'],
  },
  {
    name: 'refused-order-placed-cancels-throttled',
    keepsDefault: PACED,
    slow: 'every case of the paced conditional property meets the throttled cancel: about 200 s, mostly waiting',
    description: 'An order refused for its parameters is stored all the same (as refused-order-placed), and a gateway throttles every cancel-order (429).',
    violates: [],
    // Whether the refused order is there cannot be told from a throttled cancel (issue 43: the rule passed), nor can
    // any cancel rule, nor a strategy order's refusal (judged beside a cancel). The rest of the conditional property is
    // judged on what it saw: a complete order acknowledged, its variants refused beside it (an operation given up is
    // asked again after 15 s, so the property goes on).
    undecided: ['U-ORDER-REFUSAL-NO-EFFECT', 'U-CANCEL-ONE-OF', 'U-CANCEL-BY-ORDERID', 'U-CANCEL-UNKNOWN', 'U-CANCEL-OTHER-ACCOUNT', 'U-STRATEGY-ONE-OF'],
  },
  // ---- market view ------------------------------------------------------------------------------------------------
  {
    name: 'book-worst-first',
    keepsDefault: FUNDED,
    description: 'The order book lists each side worst first (the levels served are the best ones, in reversed order).',
    violates: ['U-MKT-BOOK-BEST-FIRST'],
  },
] as const satisfies readonly Fault[];

export type TradingFault = (typeof tradingFaults)[number]['name'];

/**
 * The faults whose request body the routing lets through unchecked, by operation id: the whole body, or one member
 * of it (the trading part then answers what the schema would have refused).
 */
export const BODY_UNCHECKED: Partial<Record<TradingFault, { operationId: string; member?: string }>> = {
  'cancel-without-ids-accepted': { operationId: 'cancelOrder' },
  'close-any-category': { operationId: 'closePositions' },
  'countdown-without-value-accepted': { operationId: 'countdownCancelAll' },
  'stp-value-unchecked': { operationId: 'placeOrder', member: 'stpMode' },
};
export const tradingReadings = [
  {
    point: 'U-NS-MARKET-PRECISION',
    readings: [{ name: 'any-precision' }, { name: 'tick-step-minimum', settings: { markets: { precision: { tick: '0.01', step: '0.0001', minNotional: '1' } } } }],
  },
  { point: 'U-NS-HOLD-MODE', readings: [{ name: 'one-way' }, { name: 'hedge', settings: { holdMode: 'hedge' } }] },
  { point: 'U-NS-POSSIDE-ONE-WAY', readings: [{ name: 'ignored' }, { name: 'refused' }] },
  { point: 'U-NS-OUT-OF-CATEGORY-FIELDS', readings: [{ name: 'ignored' }, { name: 'refused' }] },
  { point: 'U-NS-ORDER-RECORD', readings: [{ name: 'public-exchange-order' }, { name: 'other-names', settings: { orderRecord: { filled: 'filledQty' } } }] },
  {
    point: 'U-NS-ORDER-STATUSES',
    readings: [
      { name: 'public-exchange-statuses' },
      { name: 'live-while-open', settings: { orderRecord: { statuses: { open: ['live'], filled: ['filled'], cancelled: ['canceled'] } } } },
      { name: 'with-rejected', settings: { orderRecord: { statuses: { open: ['live', 'partially_filled'], filled: ['filled'], cancelled: ['cancelled', 'rejected'] } } } },
    ],
  },
  { point: 'U-NS-ORDER-PROCESSING', readings: [{ name: 'synchronous' }, { name: 'asynchronous', settings: { orderSettleMs: 100 } }] },
  { point: 'U-NS-POST-ONLY-REJECTION', readings: [{ name: 'refused' }, { name: 'accepted-then-cancelled', settings: { postOnlyTaker: 'cancelled' } }] },
  { point: 'U-NS-MARKET-ORDER-PRICE', readings: [{ name: 'ignored' }, { name: 'refused' }] },
  { point: 'U-NS-MARKET-BUY-QTY', readings: [{ name: 'base-quantity' }, { name: 'quote-for-spot-buys' }] },
  { point: 'U-NS-STP-DEFAULT', readings: [{ name: 'none-per-account' }, { name: 'cancel-taker-per-master' }] },
  { point: 'U-NS-REDUCE-ONLY', readings: [{ name: 'refused' }, { name: 'cancelled' }] },
  { point: 'U-NS-TPSL-RULES', readings: [{ name: 'futures-side-checked' }, { name: 'any-category-unchecked' }, { name: 'checked-against-market' }] },
  {
    point: 'U-NS-STRATEGY-ORDERS',
    readings: [{ name: 'not-exposed' }, { name: 'in-order-record', settings: { strategyOrderIds: { takeProfit: 'tpOrderId', stopLoss: 'slOrderId' } } }],
  },
  { point: 'U-NS-CLIENTOID-REPEAT', readings: [{ name: 'refused-duplicate' }, { name: 'same-answer' }, { name: 'reusable-once-finished' }] },
  { point: 'U-NS-BOTH-IDS', readings: [{ name: 'order-id-wins' }, { name: 'refused' }] },
  { point: 'U-NS-EXTRA-PARAMETERS', readings: [{ name: 'documented-only' }, { name: 'category-required', settings: { orderIdentity: 'with-category' } }] },
  { point: 'U-NS-UNKNOWN-ORDER', readings: [{ name: 'refused' }, { name: 'empty-data' }] },
  { point: 'U-NS-CANCEL-FINISHED', readings: [{ name: 'refused' }, { name: 'accepted-no-op' }] },
  { point: 'U-NS-BATCH-RESULT', readings: [{ name: 'per-item-results' }, { name: 'all-or-nothing', settings: { batchResult: 'all-or-nothing' } }] },
  { point: 'U-NS-BATCH-SIZE', readings: [{ name: 'up-to-twenty' }, { name: 'up-to-fifty', settings: { batchSize: 50 } }] },
  { point: 'U-NS-MODIFY-RULES', readings: [{ name: 'amend-in-place' }, { name: 'cancel-replace', settings: { modify: 'replace' } }] },
  {
    point: 'U-NS-COUNTDOWN-RANGE',
    readings: [
      { name: 'five-to-sixty' },
      { name: 'ten-to-one-hundred-twenty', settings: { countdown: { range: { min: 10, max: 120, outside: 'refused' } } } },
      { name: 'clamped', settings: { countdown: { range: { min: 5, max: 60, outside: 'clamped' } } } },
    ],
  },
  { point: 'U-NS-COUNTDOWN-TIMING', readings: [{ name: 'at-deadline' }, { name: 'periodic-sweep', settings: { countdown: { graceMs: 1000 } } }] },
  { point: 'U-NS-COUNTDOWN-SCOPE', readings: [{ name: 'per-account' }, { name: 'per-key' }] },
  { point: 'U-NS-CLOSE-NOTHING', readings: [{ name: 'accepted' }, { name: 'refused' }] },
] as const satisfies readonly OpenPointReadings[];

type Catalogue = typeof tradingReadings;
export type TradingPoint = Catalogue[number]['point'];
export type TradingReadingOf<P extends TradingPoint> = Extract<Catalogue[number], { point: P }>['readings'][number]['name'];
/** The reading the part was started in, typed by this catalogue. */
export type TradingReading = <P extends TradingPoint>(point: P) => TradingReadingOf<P>;
