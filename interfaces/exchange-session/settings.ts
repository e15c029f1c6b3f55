import { builtOnce } from '../kit/lazy.ts';
import type { Static } from '@sinclair/typebox';
import { profileEntry, schemaKit } from '../kit/profile-entry.ts';

/**
 * The exchange-session entry of a target profile (interfaces.exchange-session). The document leaves much of Interface
 * A "not shown" (four paths, the signature encodings, the command's field names, the order record); each such point is
 * a setting here, and its default is the choice of the public exchange the document follows, so that a real sandbox
 * needs few overrides. The loader fills in every default.
 */

// Built the first time a profile is checked (see schemaKit): test workers never need TypeBox.
const schemas = builtOnce(() => {
  const { Type, EnvName } = schemaKit();
  const Path = Type.String({ pattern: '^/', description: 'a path from the host root, as the document writes it' });

  const Paths = Type.Object(
    {
      ecdsaLogin: Type.String({ default: '/trading-api/v2/users/login', pattern: '^/' }),
      hmacLogin: Type.String({ default: '/trading-api/v1/users/hmac/login', pattern: '^/' }),
      tradingAccounts: Type.String({ default: '/trading-api/v1/accounts/trading-accounts', pattern: '^/' }),
      nonce: Type.String({ default: '/trading-api/v1/nonce', pattern: '^/' }),
      orders: Type.String({ default: '/trading-api/v2/orders', pattern: '^/' }),
      /** The order lookup; `{orderId}` is replaced by the acknowledged id. */
      order: Type.String({ default: '/trading-api/v2/orders/{orderId}', pattern: '^/.*\\{orderId\\}' }),
      /** Where cancellations are sent (clean-up); absent: the target offers none, and only orders that cannot rest are sent. */
      command: Type.Optional(Path),
      /** A custody endpoint (GET) that ECDSA keys reach and HMAC keys do not; absent: the key-scope checks are not applicable. */
      custody: Type.Optional(Path),
    },
    { additionalProperties: false, default: {}, description: 'Paths of the operations, from the host root: the documented ones, plus command and custody if offered.' },
  );

  const HmacSignature = Type.Object(
    {
      hash: Type.Union([Type.Literal('sha256'), Type.Literal('sha512')], { default: 'sha256' }),
      encoding: Type.Union([Type.Literal('hex'), Type.Literal('base64'), Type.Literal('base64url')], { default: 'hex' }),
      secretEncoding: Type.Union([Type.Literal('utf8'), Type.Literal('hex'), Type.Literal('base64')], { default: 'utf8' }),
    },
    { additionalProperties: false, default: {}, description: "The HMAC login signature: its hash, the signature's encoding and how the secret is decoded." },
  );

  const EcdsaSignature = Type.Object(
    {
      /** `der`: ASN.1 SEQUENCE{r, s}; `compact`: r||s, 64 bytes. */
      format: Type.Union([Type.Literal('der'), Type.Literal('compact')], { default: 'der' }),
      encoding: Type.Union([Type.Literal('hex'), Type.Literal('base64'), Type.Literal('base64url')], { default: 'base64' }),
      /**
       * Which text "the JSON string of loginPayload" is: `compact` (no spaces, as JSON.stringify writes it) or `spaced`
       * (", " and ": " between members, as Python's json.dumps writes it). Members go in the document's order either way.
       */
      payloadJson: Type.Union([Type.Literal('compact'), Type.Literal('spaced')], { default: 'compact' }),
    },
    { additionalProperties: false, default: {}, description: 'The ECDSA login signature: DER or compact, its encoding, and how the signed loginPayload JSON is spaced.' },
  );

  const OrderSettings = Type.Object(
    {
      /** Constant members of every order command. */
      constants: Type.Record(Type.String(), Type.String(), { default: { commandType: 'V3CreateOrder', type: 'LIMIT' } }),
      /** The command's member names (timeInForce is the document's own). */
      fields: Type.Object(
        {
          symbol: Type.String({ default: 'symbol' }),
          side: Type.String({ default: 'side' }),
          price: Type.String({ default: 'price' }),
          quantity: Type.String({ default: 'quantity' }),
          tradingAccountId: Type.String({ default: 'tradingAccountId' }),
          /** The member of a client order id, where the deployment requires one: every order then gets a fresh positive integer (as a string). */
          clientOrderId: Type.Optional(Type.String()),
        },
        { additionalProperties: false, default: {} },
      ),
      sides: Type.Object({ buy: Type.String({ default: 'BUY' }), sell: Type.String({ default: 'SELL' }) }, { additionalProperties: false, default: {} }),
      /** Prices and quantities as JSON strings ("100.5"), as the public exchange takes them, or as numbers. */
      numbersAsStrings: Type.Boolean({ default: true }),
      /** The market the order checks trade. */
      symbol: Type.String({ default: 'BTCUSDC' }),
      /** Prices that never cross the market (a buy far below it, a sell far above it): what a live target may be sent. */
      farPrices: Type.Object({ buy: Type.String({ default: '1' }), sell: Type.String({ default: '10000000' }) }, { additionalProperties: false, default: {} }),
      /** The smallest quantity the market takes; generated quantities are multiples of it. */
      quantityStep: Type.String({ default: '0.001' }),
      /**
       * How an order is cancelled: `command` posts the cancel command below to paths.command; `delete` sends DELETE to
       * the order's lookup path (with BX-NONCE, no body).
       */
      cancelBy: Type.Union([Type.Literal('command'), Type.Literal('delete')], { default: 'command' }),
      /** The cancel command's body; `{orderId}`, `{symbol}` and `{tradingAccountId}` are filled in. */
      cancel: Type.Record(Type.String(), Type.String(), {
        default: { commandType: 'V3CancelOrder', orderId: '{orderId}', symbol: '{symbol}', tradingAccountId: '{tradingAccountId}' },
      }),
      /**
       * The full time-in-force model (crossing orders between two trading accounts) needs a market nobody else trades:
       * the embedded reference. Against a live sandbox only orders priced far from the market are sent, unless this is true.
       */
      crossingOrders: Type.Boolean({ default: false }),
    },
    { additionalProperties: false, default: {}, description: 'How orders are sent and cancelled: member names, market, prices far from it, quantity step, cancel method.' },
  );

  const OrderRecord = Type.Object(
    {
      status: Type.String({ default: 'status' }),
      quantityFilled: Type.String({ default: 'quantityFilled' }),
      /** Which status values mean resting, filled in full, and cancelled (with or without a partial fill). */
      statuses: Type.Object(
        {
          open: Type.Array(Type.String(), { default: ['OPEN'], minItems: 1 }),
          filled: Type.Array(Type.String(), { default: ['CLOSED'], minItems: 1 }),
          cancelled: Type.Array(Type.String(), { default: ['CANCELLED', 'REJECTED'], minItems: 1 }),
        },
        { additionalProperties: false, default: {} },
      ),
    },
    { additionalProperties: false, default: {}, description: 'How the order lookup answers: the status and filled-quantity members, and which statuses mean what.' },
  );

  /** What a tester knows of a pool key beyond its secrets, whatever its type. */
  const keyFacts = {
    /** true when the key's IP whitelist leaves out the machine the harness runs on (a login must then be refused). */
    whitelistExcludesHarness: Type.Optional(Type.Boolean()),
    /**
     * false: the exchange issued this key without trading permission (a read-only key). The document shows no
     * permissions; such a key is used only to check that an order sent with it is refused (A-GEN-ROLE).
     */
    trading: Type.Optional(Type.Boolean()),
  };
  /** One API key of a live target's pool: every value but keyFacts is the name of an environment variable. */
  const PoolKey = Type.Union([
    Type.Object(
      {
        type: Type.Literal('hmac'),
        publicKey: EnvName,
        secret: EnvName,
        ...keyFacts,
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        type: Type.Literal('ecdsa'),
        /** The P-256 private key (PEM, JWK or 64 hex digits); its public key is derived from it. */
        privateKey: EnvName,
        /** The key's `metadata` as the exchange handed it out (base64; holds the userId). */
        metadata: EnvName,
        ...keyFacts,
      },
      { additionalProperties: false },
    ),
  ]);

  const ExchangeSessionEntry = profileEntry({
    reference: Type.Object(
      {
        /** Every key the harness creates on the reference gets this IP whitelist (addresses or CIDR ranges). */
        whitelist: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
        /** The reference refuses authenticated writes without BX-TIMESTAMP and BX-SIGNATURE (pair with settings.signedWrites). */
        requireSignedWrites: Type.Optional(Type.Boolean()),
        /** The reference answers every write 500: a read-only run passes only if it sends none. */
        writeTripwire: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    // A live target's API keys; on the reference the harness creates its own.
    credentials: Type.Object({ keys: Type.Array(PoolKey, { minItems: 1 }) }, {
      additionalProperties: false,
      examples: [
        {
          keys: [
            { type: 'hmac', publicKey: 'EX_HMAC_KEY_1', secret: 'EX_HMAC_SECRET_1' },
            { type: 'ecdsa', privateKey: 'EX_ECDSA_PRIVATE_KEY_1', metadata: 'EX_ECDSA_METADATA_1' },
          ],
        },
      ],
    }),
    settings: Type.Object(
      {
        paths: Paths,
        /**
         * The leading part of the paths above that the base URL already ends with ("/trading-api" for the document's
         * sandbox address): sent once, not twice. What is signed is always the path as sent.
         */
        baseUrlCarries: Type.Optional(Type.String({ pattern: Path.pattern, description: 'The leading part of the paths that the base URL already ends with ("/trading-api", say): sent once.' })),
        hmacSignature: HmacSignature,
        ecdsaSignature: EcdsaSignature,
        /**
         * Sign every authenticated write as the public exchange does (BX-TIMESTAMP, and BX-SIGNATURE over timestamp +
         * nonce + method + path + compact body with the session's key). The document does not say so.
         */
        signedWrites: Type.Boolean({ default: false, description: 'True: sign every authenticated write as the public exchange does (BX-TIMESTAMP, BX-SIGNATURE).' }),
        /**
         * What a write signature signs: the hex SHA-256 digest of that message (what ccxt's client of the public exchange
         * does), or the message itself.
         */
        writeSignatureInput: Type.Union([Type.Literal('sha256-hex'), Type.Literal('message')], { default: 'sha256-hex', description: 'What a write signature signs: the hex SHA-256 digest of the message, or the message itself.' }),
        /**
         * Whether the deployment refuses an ECDSA login whose expirationTime is not 5 minutes after its nonce. The
         * document states it as a client rule: a target is held to it only where the profile states true.
         */
        loginWindowEnforced: Type.Boolean({ default: true, description: 'Whether the deployment refuses an ECDSA login whose expirationTime is not 5 minutes after its nonce.' }),
        /** The time zone of "the current day" of the nonce range (an IANA name). */
        nonceTimeZone: Type.String({ default: 'UTC', description: 'The time zone (an IANA name) of "the current day" that bounds the nonce range.' }),
        order: OrderSettings,
        orderRecord: OrderRecord,
      },
      { additionalProperties: false, default: {} },
    ),
  });
  return { ExchangeSessionEntry, PoolKey };
});
type Schemas = ReturnType<typeof schemas>;

/** The exchange-session entry's schema (interfaces.exchange-session). */
export const exchangeSessionEntry = () => schemas().ExchangeSessionEntry;

export type ExchangeSessionProfileEntry = Static<Schemas['ExchangeSessionEntry']>;
export type ExchangeSessionSettings = ExchangeSessionProfileEntry['settings'];
export type PoolKeyEntry = Static<Schemas['PoolKey']>;
