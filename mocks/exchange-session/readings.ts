// The readings of the open points of specs/exchange-session.yaml that this reference implements (see mocks/readings.ts): the
// first of each is the reference's default. A reading with `settings` is what a tester of such a deployment states in
// its profile, and where the reference already follows that setting, the settings are the whole reading; the others
// are read by the server (readingSwitch, in server.ts and the modules it hands the switch to).
import { readingSwitch, type OpenPointReadings } from '../readings.ts';

/** The order lookup as the spec keys it: where a deployment's extra query parameter is stated (settings.extras). */
const ORDER_LOOKUP = 'GET /trading-api/v2/orders/{orderId}';

export const readings = [
  // ---- paths, logins and sessions -------------------------------------------------------------------------------
  {
    point: 'A-NS-PATHS',
    readings: [
      { name: 'public-exchange-paths' },
      {
        name: 'other-paths',
        settings: {
          paths: { ecdsaLogin: '/trading-api/v1/users/login', tradingAccounts: '/trading-api/v1/trading-accounts', nonce: '/trading-api/v1/nonce-range', orders: '/trading-api/v1/orders' },
        },
      },
    ],
  },
  {
    point: 'A-NS-LOGIN-SIGNATURE-ENCODING',
    readings: [
      { name: 'der-base64' },
      { name: 'compact-hex', settings: { ecdsaSignature: { format: 'compact', encoding: 'hex' } } },
      { name: 'compact-base64url', settings: { ecdsaSignature: { format: 'compact', encoding: 'base64url' } } },
    ],
  },
  {
    point: 'A-NS-LOGIN-PAYLOAD-JSON',
    readings: [{ name: 'document-order-compact' }, { name: 'as-received' }, { name: 'python-default-separators', settings: { ecdsaSignature: { payloadJson: 'spaced' } } }],
  },
  {
    point: 'A-NS-HMAC-HASH',
    readings: [
      { name: 'sha256-hex' },
      { name: 'sha256-base64', settings: { hmacSignature: { hash: 'sha256', encoding: 'base64' } } },
      { name: 'sha512-hex', settings: { hmacSignature: { hash: 'sha512', encoding: 'hex' } } },
    ],
  },
  {
    point: 'A-NS-HMAC-SECRET-BYTES',
    readings: [{ name: 'secret-text' }, { name: 'base64-decoded', settings: { hmacSignature: { secretEncoding: 'base64' } } }],
  },
  { point: 'A-NS-HMAC-LOGIN-NONCE', readings: [{ name: 'shape-only' }, { name: 'increasing-per-key' }] },
  { point: 'A-NS-HMAC-TIMESTAMP', readings: [{ name: 'unchecked' }, { name: 'recent-only' }] },
  { point: 'A-NS-LOGIN-WINDOW', readings: [{ name: 'five-minutes-with-slack' }, { name: 'exactly-five-minutes' }, { name: 'expiry-only', settings: { loginWindowEnforced: false } }] },
  { point: 'A-NS-LOGIN-CHECK-ORDER', readings: [{ name: 'signature-first' }, { name: 'whitelist-first' }, { name: 'freshness-first' }] },
  { point: 'A-NS-KEY-METADATA', readings: [{ name: 'json-with-user-id' }, { name: 'bare-user-id' }] },
  { point: 'A-NS-LOGIN-RESPONSE', readings: [{ name: 'token-and-authorizer' }, { name: 'with-session-details' }] },
  { point: 'A-NS-TOKEN-CLAIMS', readings: [{ name: 'hs256-with-iat' }, { name: 'es256-without-iat' }] },
  { point: 'A-NS-SESSIONS-PER-KEY', readings: [{ name: 'concurrent' }, { name: 'latest-only' }] },
  {
    point: 'A-NS-CUSTODY',
    readings: [{ name: 'wallet-limits' }, { name: 'deposit-instructions', settings: { paths: { custody: '/trading-api/v1/wallets/deposit-instructions/crypto/BTC' } } }],
  },

  // ---- refusals: which wins, with what status and body ----------------------------------------------------------
  { point: 'A-NS-ERRORS', readings: [{ name: 'code-name-message' }, { name: 'problem-details' }, { name: 'error-string' }] },
  { point: 'A-NS-AUTH-BEFORE-ROUTE', readings: [{ name: 'route-first' }, { name: 'credential-first' }] },
  { point: 'A-NS-WRONG-METHOD', readings: [{ name: 'not-found' }, { name: 'method-not-allowed' }] },
  { point: 'A-NS-REQUEST-CONTENT-TYPE', readings: [{ name: 'ignored' }, { name: 'json-required' }] },
  { point: 'A-NS-UNKNOWN-MEMBERS', readings: [{ name: 'ignored' }, { name: 'refused' }] },
  { point: 'A-NS-AUTH-STATUS', readings: [{ name: 'unauthorized' }, { name: 'forbidden' }] },
  { point: 'A-NS-LOGIN-REFUSAL-STATUS', readings: [{ name: 'by-kind' }, { name: 'all-unauthorized' }, { name: 'all-bad-request' }] },
  { point: 'A-NS-SCOPE-STATUS', readings: [{ name: 'forbidden' }, { name: 'unauthorized' }, { name: 'not-found' }] },
  { point: 'A-NS-NONCE-STATUS', readings: [{ name: 'bad-request' }, { name: 'unauthorized' }, { name: 'conflict' }] },
  { point: 'A-NS-VALIDATION-STATUS', readings: [{ name: 'bad-request' }, { name: 'unprocessable' }] },
  { point: 'A-NS-UNKNOWN-ORDER', readings: [{ name: 'not-found' }, { name: 'bad-request' }] },
  { point: 'A-NS-RATE-TIERS', readings: [{ name: 'unlimited' }, { name: 'per-user-limits' }] },
  { point: 'A-NS-RATELIMIT-TOKEN-CHECK', readings: [{ name: 'unchecked' }, { name: 'unknown-refused' }] },

  // ---- trading accounts and the nonce ---------------------------------------------------------------------------
  { point: 'A-NS-ACCOUNT-FIELDS', readings: [{ name: 'name-and-primary-flag' }, { name: 'documented-only' }] },
  { point: 'A-NS-ID-TYPES', readings: [{ name: 'digit-strings' }, { name: 'integers' }] },
  { point: 'A-NS-NONCE-PUBLIC', readings: [{ name: 'token-required' }, { name: 'public' }] },
  { point: 'A-NS-NONCE-RANGE-TYPES', readings: [{ name: 'numbers' }, { name: 'digit-strings' }] },
  { point: 'A-NS-DAY', readings: [{ name: 'utc' }, { name: 'exchange-local-zone', settings: { nonceTimeZone: 'Asia/Hong_Kong' } }] },
  { point: 'A-NS-DAY-END', readings: [{ name: 'last-microsecond' }, { name: 'next-midnight' }] },
  { point: 'A-NS-NONCE-SCOPE', readings: [{ name: 'per-key' }, { name: 'per-user' }, { name: 'per-session' }] },
  { point: 'A-NS-NONCE-CONSUMED', readings: [{ name: 'admitted-nonce-used' }, { name: 'accepted-writes-only' }] },
  { point: 'A-NS-WRITE-CHECK-ORDER', readings: [{ name: 'nonce-then-body' }, { name: 'body-then-nonce' }] },
  {
    point: 'A-NS-SIGNED-WRITES',
    readings: [
      { name: 'unsigned' },
      { name: 'signed-digest', reference: { requireSignedWrites: true }, settings: { signedWrites: true, writeSignatureInput: 'sha256-hex' } },
      { name: 'signed-message', reference: { requireSignedWrites: true }, settings: { signedWrites: true, writeSignatureInput: 'message' } },
    ],
  },

  // ---- orders ---------------------------------------------------------------------------------------------------
  {
    point: 'A-NS-COMMAND-FIELDS',
    readings: [
      { name: 'public-exchange-fields' },
      {
        name: 'plain-fields',
        settings: {
          order: {
            fields: { symbol: 'market', side: 'side', price: 'limitPrice', quantity: 'size', tradingAccountId: 'accountId' },
            sides: { buy: 'buy', sell: 'sell' },
            constants: { commandType: 'NewOrder', type: 'limit' },
          },
        },
      },
      { name: 'client-order-id-required', settings: { order: { fields: { clientOrderId: 'clientOrderId' } } } },
    ],
  },
  {
    point: 'A-NS-COMMAND-NUMBERS',
    readings: [{ name: 'decimal-strings' }, { name: 'json-numbers', settings: { order: { numbersAsStrings: false } } }, { name: 'either' }],
  },
  {
    point: 'A-NS-MARKETS',
    readings: [{ name: 'any-symbol' }, { name: 'listed-only' }, { name: 'dashed-pairs', settings: { order: { symbol: 'BTC-USDC' } } }],
  },
  { point: 'A-NS-MARKET-PRECISION', readings: [{ name: 'any-precision' }, { name: 'step-and-tick' }] },
  { point: 'A-NS-ACK-BODY', readings: [{ name: 'command-acknowledged' }, { name: 'bare-order-id' }, { name: 'data-envelope' }] },
  { point: 'A-NS-ORDER-PROCESSING', readings: [{ name: 'synchronous' }, { name: 'asynchronous' }] },
  {
    point: 'A-NS-LOOKUP-ACCOUNT',
    readings: [{ name: 'path-only' }, { name: 'trading-account-query', settings: { extras: { [ORDER_LOOKUP]: { query: { tradingAccountId: '{tradingAccountId}' } } } } }],
  },
  {
    point: 'A-NS-ORDER-RECORD',
    readings: [{ name: 'public-exchange-names' }, { name: 'other-names', settings: { orderRecord: { status: 'orderStatus', quantityFilled: 'executedQuantity' } } }],
  },
  {
    point: 'A-NS-ORDER-STATES',
    readings: [
      { name: 'open-closed-cancelled' },
      {
        name: 'detailed-lifecycle',
        settings: { orderRecord: { statuses: { open: ['NEW', 'PARTIALLY_FILLED'], filled: ['FILLED'], cancelled: ['CANCELED', 'EXPIRED'] } } },
      },
    ],
  },
  { point: 'A-NS-DECIMAL-FORMAT', readings: [{ name: 'as-sent' }, { name: 'fixed-scale' }] },
  {
    point: 'A-NS-CANCEL',
    readings: [{ name: 'command-path' }, { name: 'orders-path', settings: { paths: { command: '/trading-api/v2/orders' } } }, { name: 'delete-order', settings: { order: { cancelBy: 'delete' } } }],
  },
] as const satisfies readonly OpenPointReadings[];

/** The switch the server reads its readings through (readingSwitch over this catalogue). */
export type ExchangeReadings = ReturnType<typeof readingSwitch<typeof readings>>;
