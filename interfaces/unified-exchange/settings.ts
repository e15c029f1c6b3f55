import type { Static } from '@sinclair/typebox';
import { builtOnce } from '../kit/lazy.ts';
import { profileEntry, schemaKit } from '../kit/profile-entry.ts';

/**
 * The unified-exchange entry of a target profile (interfaces.unified-exchange). Each open point of the document that
 * a tester of one deployment can state has a setting here (the spec's `x-not-shown` entries name them by their dotted
 * path), and its default is the public exchange's choice, which the embedded reference takes by default. A check
 * asserts a setting's value only where the profile states it (`isStated`); otherwise it asserts what every reading
 * agrees on.
 */

/**
 * The key roles a profile can name. A run needs `trade` or `read`: the trading key is the run's main key, else the
 * read-only one is (a tester holding only a read-only key judges the reads); the others prove refusals and reserved
 * operations.
 */
export const KEY_ROLES = ['trade', 'read', 'copy', 'broker', 'broker2', 'otherBroker', 'sub', 'peer'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];
/** The parts of one key, each a secret (`<role>_<part>`). */
export const KEY_PARTS = ['apiKey', 'secret', 'passphrase'] as const;

/** The five categories of the document, and the key each is set under in settings.markets.symbols. */
export const CATEGORIES = ['SPOT', 'MARGIN', 'USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'] as const;
export type Category = (typeof CATEGORIES)[number];

export const unifiedExchangeEntry = builtOnce(() => {
  const { Type, EnvName } = schemaKit();
  const Status = (fallback: number, description: string) => Type.Integer({ minimum: 400, maximum: 499, default: fallback, description });
  const Key = Type.Object(
    { apiKey: EnvName, secret: EnvName, passphrase: EnvName },
    { additionalProperties: false, description: 'the environment variables holding the API key, its secret and its passphrase' },
  );
  const Strings = Type.Array(Type.String({ minLength: 1 }), { minItems: 1 });
  // A positive decimal string of the quote coin, as the fund writes send it.
  const Amount = (byDefault: string, description: string) => Type.String({ pattern: '^[0-9]*[1-9][0-9]*(\\.[0-9]+)?$|^0\\.[0-9]*[1-9][0-9]*$', default: byDefault, description });

  const settings = Type.Object(
    {
      signing: Type.Object(
        {
          headers: Type.Object(
            {
              key: Type.String({ default: 'ACCESS-KEY' }),
              sign: Type.String({ default: 'ACCESS-SIGN' }),
              timestamp: Type.String({ default: 'ACCESS-TIMESTAMP' }),
              passphrase: Type.String({ default: 'ACCESS-PASSPHRASE' }),
            },
            { additionalProperties: false, default: {} },
          ),
          encoding: Type.Union([Type.Literal('base64'), Type.Literal('hex')], { default: 'base64', description: 'how the HMAC-SHA256 signature is written' }),
          query: Type.Union([Type.Literal('as-sent'), Type.Literal('sorted')], { default: 'as-sent', description: 'which text of the query the signature covers (U-NS-SIGNED-QUERY)' }),
          /** How far the signed timestamp may lie from the server's clock; 0: only its form is checked (U-NS-TIMESTAMP-WINDOW). */
          timestampWindowMs: Type.Integer({ minimum: 0, default: 30000, description: 'how far the signed timestamp may lie from the server clock, in ms (0: not checked)' }),
        },
        { additionalProperties: false, default: {}, description: 'The authentication headers and the signature (U-NS-SIGNING): timestamp + METHOD + path + ("?" + query) + body, HMAC-SHA256 with the secret.' },
      ),
      permissions: Type.Union([Type.Literal('key-only'), Type.Literal('write-permissions')], {
        default: 'key-only',
        description: 'Whether funds, earn, loan and P2P writes need permissions beyond a valid key (U-NS-ACCOUNT-PERMISSIONS).',
      }),
      envelope: Type.Union([Type.Literal('code-00000'), Type.Literal('http-status-only')], {
        default: 'code-00000',
        description: 'How success is told: {code:"00000", msg, requestTime, data} with a 4xx and another code for a failure, or the HTTP status alone (U-NS-ENVELOPE).',
      }),
      refusalStatus: Type.Object(
        {
          auth: Status(401, 'a request refused for its credentials'),
          permission: Status(403, 'a valid key refused for its permission or account type'),
          validation: Status(400, 'a request refused for its parameters'),
          state: Status(400, 'a well-formed request refused for the account state'),
          throttle: Status(429, 'a request beyond a rate limit'),
        },
        { additionalProperties: false, default: {}, description: 'The status of each kind of refusal (U-NS-*-STATUS); unstated, any 4xx is a refusal.' },
      ),
      rateLimits: Type.Union([Type.Literal('none'), Type.Literal('per-uid-and-ip')], { default: 'none', description: 'Rate limits beyond the broker operations (U-NS-RATE-LIMITS).' }),
      brokerRate: Type.Object(
        { scope: Type.Union([Type.Literal('per-operation'), Type.Literal('shared')], { default: 'per-operation' }) },
        { additionalProperties: false, default: {}, description: 'What the broker limit of 20 requests per second per UID counts (U-NS-BROKER-RATE-SCOPE).' },
      ),
      paths: Type.Object(
        {
          orderInfo: Type.String({ pattern: '^/', default: '/api/v3/trade/order-info' }),
          copyTradingPairs: Type.String({ pattern: '^/', default: '/api/v3/copy/futures/trading-pairs' }),
          copyMaxTransferable: Type.String({ pattern: '^/', default: '/api/v3/copy/futures/max-transferable' }),
          copyTransfer: Type.String({ pattern: '^/', default: '/api/v3/copy/futures/transfer' }),
        },
        { additionalProperties: false, default: {}, description: 'Paths of the operations the document does not show (U-NS-ORDER-LOOKUP-PATH, U-NS-COPY-PATHS).' },
      ),
      orderRecord: Type.Object(
        {
          filled: Type.String({ default: 'cumExecQty', description: 'the member of the quantity filled' }),
          statuses: Type.Object(
            {
              open: Type.Array(Type.String(), { default: ['live', 'partially_filled'], minItems: 1 }),
              filled: Type.Array(Type.String(), { default: ['filled'], minItems: 1 }),
              cancelled: Type.Array(Type.String(), { default: ['cancelled'], minItems: 1 }),
            },
            { additionalProperties: false, default: {} },
          ),
        },
        { additionalProperties: false, default: {}, description: 'The order record: the filled-quantity member and which statuses mean open, filled and cancelled (U-NS-ORDER-RECORD, U-NS-ORDER-STATUSES).' },
      ),
      /** Where the rows of a list are, per operation id: "" for data itself, or a member of data ("list"). */
      lists: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'per operation id, the member of data that holds its rows ("" for data itself) (U-NS-LIST-SHAPE)' })),
      paging: Type.Object(
        {
          cursor: Type.Union([Type.Literal('next-cursor'), Type.Literal('last-id')], { default: 'next-cursor' }),
          maxLimit: Type.Integer({ minimum: 1, default: 100 }),
          overMax: Type.Union([Type.Literal('capped'), Type.Literal('refused')], { default: 'capped' }),
        },
        { additionalProperties: false, default: {}, description: 'Cursors and limits of the paged lists (U-NS-CURSOR-PAGING, U-NS-PAGE-LIMITS).' },
      ),
      p2p: Type.Object(
        {
          firstPage: Type.Integer({ minimum: 0, maximum: 1, default: 1 }),
          merchant: Type.Boolean({ default: true, description: 'whether the trade key account may create advertisements' }),
          payMethodId: Type.String({ default: '1', description: 'a payMethodId the deployment takes' }),
          payTimeLimit: Type.Union([Type.Literal('minutes-strings'), Type.Literal('integers')], { default: 'minutes-strings' }),
        },
        { additionalProperties: false, default: {}, description: 'Peer-to-peer advertisements: first page, merchant, pay method, pay time limit (U-NS-P2P-*).' },
      ),
      timeRange: Type.Object(
        { maxSpanDays: Type.Integer({ minimum: 0, default: 90, description: 'the longest startTime..endTime span served, in days; 0: any span' }) },
        { additionalProperties: false, default: {}, description: 'How long a record time range may be (U-NS-TIME-RANGE).' },
      ),
      markets: Type.Object(
        {
          symbols: Type.Object(
            {
              SPOT: Type.String({ default: 'BTCUSDT' }),
              MARGIN: Type.String({ default: 'BTCUSDT' }),
              'USDT-FUTURES': Type.String({ default: 'BTCUSDT' }),
              'COIN-FUTURES': Type.String({ default: 'BTCUSD' }),
              'USDC-FUTURES': Type.String({ default: 'BTCPERP' }),
            },
            { additionalProperties: false, default: {} },
          ),
          coins: Type.Object({ quote: Type.String({ default: 'USDT' }), base: Type.String({ default: 'BTC' }) }, { additionalProperties: false, default: {} }),
          precision: Type.Object(
            {
              tick: Type.String({ default: '0.01', description: 'every price a multiple of it' }),
              step: Type.String({ default: '0.0001', description: 'every quantity a multiple of it' }),
              minNotional: Type.String({ default: '0', description: 'the smallest order value in the quote coin' }),
            },
            { additionalProperties: false, default: {} },
          ),
          /** Prices that never cross the market: what a live target is sent when crossingOrders is false. */
          farPrices: Type.Object({ buy: Type.String({ default: '1000' }), sell: Type.String({ default: '10000000' }) }, { additionalProperties: false, default: {} }),
          quantity: Type.String({ default: '0.001', description: 'the quantity of the orders the checks send' }),
        },
        { additionalProperties: false, default: {}, description: 'The symbol per category, the coins, precision and the prices and quantity the checks use (U-NS-MARKETS, U-NS-MARKET-PRECISION).' },
      ),
      unlistedCategory: Type.Union([Type.Literal('refused'), Type.Literal('empty')], { default: 'refused', description: 'What a category an operation does not list gets (U-NS-UNLISTED-CATEGORY).' }),
      book: Type.Object(
        {
          level: Type.Union([Type.Literal('arrays'), Type.Literal('objects')], { default: 'arrays' }),
          maxDepth: Type.Integer({ minimum: 150, default: 200 }),
          overMax: Type.Union([Type.Literal('capped'), Type.Literal('refused')], { default: 'capped' }),
        },
        { additionalProperties: false, default: {}, description: 'Order book levels: [price, size] arrays or objects, the deepest book and what a larger limit gets (U-NS-BOOK-LEVEL, U-NS-BOOK-MAX-DEPTH).' },
      ),
      candles: Type.Object(
        {
          overLimit: Type.Union([Type.Literal('capped'), Type.Literal('refused')], { default: 'capped' }),
          defaultLimit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
          /** How far back candles reaches, per interval, in ms; history-candles goes beyond (U-NS-CANDLE-REACH). Absent: not asserted. */
          reachMs: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 1 }))),
        },
        { additionalProperties: false, default: {}, description: 'Candles: what a limit above 1000 gets and the default count (U-NS-CANDLE-LIMIT-OVER, U-NS-CANDLE-DEFAULTS).' },
      ),
      funded: Type.Boolean({ default: true, description: 'Whether the accounts hold funds the checks may trade with (U-NS-ACCOUNT-STATE).' }),
      /**
       * Whether anything but the harness moves the funds of the profile's accounts while it runs (a person, a trading
       * bot, a funding job). The conservation of funds compares balances with what the harness's own transfers moved:
       * on an account others use, a balance off the mark cannot be told from their doing, so it is inconclusive,
       * never failed. Unstated, a live target's accounts are taken to be shared; the embedded reference's are the
       * harness's alone (it made their keys for the run).
       */
      exclusiveAccounts: Type.Boolean({
        default: false,
        description: "True: the accounts of the profile's keys are used by the harness alone while it runs (nothing else moves their funds), so a balance off the mark fails the conservation of funds; false (the default on a live target): others may move them, and it is inconclusive.",
      }),
      tradeKeyCopyTrading: Type.Optional(
        Type.Boolean({
          description:
            'Whether the trade key also has futures copy-trading permission. false: the copy-trading operations are held to refusing it, beside the read key (U-AUTH-COPY, U-GEN-ROLE); true or unstated: only the read key is, since a deployment may well give its trading key that permission.',
        }),
      ),
      holdMode: Type.Union([Type.Literal('one-way'), Type.Literal('hedge')], { default: 'one-way', description: "The account's hold mode; no documented operation switches it (U-NS-HOLD-MODE)." }),
      leverage: Type.Object(
        { symbolLevel: Type.Array(Type.String(), { default: ['USDT-FUTURES', 'USDC-FUTURES'], description: 'categories whose leverage needs symbol' }) },
        { additionalProperties: false, default: {}, description: 'Which categories set leverage per symbol (U-NS-LEVERAGE-LEVEL).' },
      ),
      transferPair: Type.Object(
        { fromType: Type.String({ default: 'spot' }), toType: Type.String({ default: 'p2p' }) },
        { additionalProperties: false, default: {}, description: 'A pair of account types the account transfers between (U-NS-TRANSFER-PAIRS).' },
      ),
      balances: Type.Object(
        {
          fundingType: Type.String({ default: 'spot', description: 'the account type whose balances the funding assets show (U-NS-FUNDING-ACCOUNT)' }),
          loans: Type.Union([Type.Literal('uta'), Type.Literal('funding')], { default: 'uta', description: 'where a loan is paid into and repaid from: uta, or the funding account (U-NS-LOAN-ACCOUNT)' }),
          available: Type.Object(
            { assets: Type.String({ default: 'available' }), funding: Type.String({ default: 'available' }) },
            { additionalProperties: false, default: {}, description: 'the member of a per-coin row of the account assets and of the funding assets that holds what is available (U-NS-RECORD-MEMBERS)' },
          ),
        },
        { additionalProperties: false, default: {}, description: 'Where the reads show balances: the account assets show uta; the funding assets show fundingType (U-NS-FUNDING-ACCOUNT).' },
      ),
      fees: Type.Object(
        {
          transfer: Type.Number({ minimum: 0, maximum: 0.1, default: 0, description: "the largest share of a transfer's amount the source may lose beyond it, as a fee" }),
          redeemEarn: Type.Number({ minimum: 0, maximum: 0.1, default: 0, description: 'the largest share of a fast redemption\'s amount it may keep back, as a fee' }),
          repayLoan: Type.Number({ minimum: 0, maximum: 0.1, default: 0, description: 'the largest share of a loan its repayment in full may take beyond it, as interest or a fee' }),
        },
        { additionalProperties: false, default: {}, description: 'Fees the document does not show, as the largest share of an amount an operation may take beyond it (U-NS-FEES); 0: none.' },
      ),
      withdraw: Type.Object(
        {
          toUid: Type.Optional(Type.String({ description: 'an account an internal transfer may go to' })),
          address: Type.Optional(Type.String({ description: 'an on-chain address the account may withdraw to' })),
          chain: Type.String({ default: 'TRC20' }),
        },
        { additionalProperties: false, default: {}, description: 'Where withdrawals may go (U-NS-WITHDRAW-ADDRESS).' },
      ),
      subNames: Type.Object(
        { pattern: Type.String({ default: '^[a-z]{8}$' }) },
        { additionalProperties: false, default: {}, description: 'The names a new sub-account may take, as a regular expression (U-NS-SUB-NAMES).' },
      ),
      orderSettleMs: Type.Integer({ minimum: 0, default: 0, description: "How long after its acknowledgement an order's outcome shows in the reads, in ms (U-NS-ORDER-PROCESSING)." }),
      postOnlyTaker: Type.Union([Type.Literal('refused'), Type.Literal('cancelled')], { default: 'refused', description: 'What a post_only order that would take gets (U-NS-POST-ONLY-REJECTION).' }),
      strategyOrderIds: Type.Object(
        { takeProfit: Type.Optional(Type.String()), stopLoss: Type.Optional(Type.String()) },
        { additionalProperties: false, default: {}, description: 'The order record members carrying the ids of attached take-profit and stop-loss orders, if any (U-NS-STRATEGY-ORDERS).' },
      ),
      /** What the lookup and the cancels need beyond orderId or clientOid (U-NS-EXTRA-PARAMETERS). */
      orderIdentity: Type.Union([Type.Literal('ids-only'), Type.Literal('with-category')], { default: 'ids-only', description: 'What the lookup and the cancels need beyond orderId or clientOid (U-NS-EXTRA-PARAMETERS).' }),
      batchResult: Type.Union([Type.Literal('per-item'), Type.Literal('all-or-nothing')], { default: 'per-item', description: 'How a batch with some bad items is answered (U-NS-BATCH-RESULT).' }),
      batchSize: Type.Integer({ minimum: 1, default: 20, description: 'The largest batch (U-NS-BATCH-SIZE).' }),
      modify: Type.Union([Type.Literal('amend'), Type.Literal('replace')], { default: 'amend', description: 'Whether a modified order keeps its orderId (U-NS-MODIFY-RULES).' }),
      countdown: Type.Object(
        {
          range: Type.Object(
            { min: Type.Integer({ minimum: 1, default: 5 }), max: Type.Integer({ minimum: 1, default: 60 }), outside: Type.Union([Type.Literal('refused'), Type.Literal('clamped')], { default: 'refused' }) },
            { additionalProperties: false, default: {} },
          ),
          graceMs: Type.Integer({ minimum: 0, default: 200, description: 'how soon after the deadline the orders are cancelled' }),
        },
        { additionalProperties: false, default: {}, description: 'The countdown: its range of seconds and how soon it cancels (U-NS-COUNTDOWN-RANGE, U-NS-COUNTDOWN-TIMING).' },
      ),
      earn: Type.Object(
        {
          products: Type.Union([Type.Literal('nested'), Type.Literal('flat')], { default: 'nested' }),
          coinProducts: Type.Union([Type.Literal('multi-coin'), Type.Literal('never')], { default: 'multi-coin' }),
        },
        { additionalProperties: false, default: {}, description: 'Earn sub-products and when coin is needed (U-NS-EARN-PRODUCTS, U-NS-EARN-COIN).' },
      ),
      /**
       * Against a live target the checks send orders only at the far prices above unless this is true; the full
       * matching model (orders crossing between two accounts) needs a market nobody else trades: the reference.
       */
      crossingOrders: Type.Boolean({ default: false, description: 'True: the checks may send orders that cross each other (a market nobody else trades).' }),
      /**
       * The operations that move funds or create accounts (withdraw, transfer, repay, earn, loans, P2P, sub-accounts,
       * the copy transfer and the account-mode switch) are never sent unless named here, even where the profile allows
       * writes; by operation id.
       */
      fundWrites: Type.Array(Type.String(), { default: [], description: 'Operation ids of fund-moving or account-creating writes the run may send (never any by default).' }),
      amounts: Type.Object(
        {
          transfer: Amount('1', "what a transfer moves: the fund rules' controls and the paged lists move it, the conservation property 1 to 3 times it"),
          withdraw: Amount('1', 'what the withdrawal control withdraws'),
          loan: Amount('20', 'the loanAmount of a loan the checks take (each is repaid in full)'),
          repay: Amount('1', "what the fund rules' partial repayment control repays"),
          copyTransfer: Amount('1', 'what the copy-trading transfer control moves (and moves back)'),
        },
        { additionalProperties: false, default: {}, description: 'The amounts of the quote coin the fund writes send (where settings.fundWrites names them): against a live account, the least the deployment takes.' },
      ),
    },
    { additionalProperties: false, default: {} },
  );

  return profileEntry({
    reference: Type.Object(
      {
        /** The reference answers every write 500: a read-only run passes only if it sends none. */
        writeTripwire: Type.Optional(Type.Boolean()),
        /** The reference answers every request to a fund-moving operation 500: a run naming no fund write passes only if it sends none. */
        fundWriteTripwire: Type.Optional(Type.Boolean()),
        /** The reference answers 500 to a fund write it accepts whose amount is not the profile's (settings.amounts): a run passes only if every one sends them. */
        amountTripwire: Type.Optional(Type.Boolean()),
        /** The reference's trade key has futures copy-trading permission too, as a deployment may give it. */
        tradeKeyCopyTrading: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    credentials: Type.Object(
      {
        trade: Type.Optional(Key),
        read: Type.Optional(Key),
        copy: Type.Optional(Key),
        broker: Type.Optional(Key),
        broker2: Type.Optional(Key),
        otherBroker: Type.Optional(Key),
        sub: Type.Optional(Key),
        peer: Type.Optional(Key),
      },
      {
        additionalProperties: false,
        // One of the two main keys: with neither, no private operation could be judged.
        anyOf: [{ required: ['trade'] }, { required: ['read'] }],
        description: 'trade: a key with trading permission; read: a key without it (trade or read is needed: without trade, no order or fund write is judged); copy: a key with copy-trading permission; broker: a key of a broker master account; broker2: a second key of the same broker master account (its broker limit is per UID, shared by its keys); otherBroker: a key of a second broker master account (another UID, whose broker limit the first one\'s requests must leave untouched); sub: a key of a sub-account (a broker master account\'s, where the tester has one: the broker operations must refuse it too); peer: a trading key of a second account',
        examples: [{ trade: { apiKey: 'UX_TRADE_KEY', secret: 'UX_TRADE_SECRET', passphrase: 'UX_TRADE_PASSPHRASE' } }],
      },
    ),
    settings,
  });
});

export type UnifiedExchangeEntry = Static<ReturnType<typeof unifiedExchangeEntry>>;
export type UnifiedExchangeSettings = UnifiedExchangeEntry['settings'];
export type UnifiedExchangeCredentials = NonNullable<UnifiedExchangeEntry['credentials']>;

/** The profile's keys as secret name -> environment variable: `<role>_<part>` (trade_apiKey, trade_secret, ...). */
export function keyVariables(credentials: Partial<Record<KeyRole, Record<(typeof KEY_PARTS)[number], string>>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const role of KEY_ROLES) for (const part of KEY_PARTS) if (credentials[role]) out[`${role}_${part}`] = credentials[role]![part];
  return out;
}
