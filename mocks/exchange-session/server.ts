// Embedded reference of Interface A: API keys, the ECDSA and HMAC logins, trading accounts, the nonce range, order
// submission with its time in force, the order lookup, cancellation and custody. Written from the document alone
// (where it says "not shown", the public exchange it follows); it never imports the suite's model, only the type of
// its profile settings.
import { createHash } from 'node:crypto';
import http from 'node:http';
import Router from 'find-my-way';
import type { ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';
import { faultSwitch, listen, readBody, sendJson } from '../plumbing.js';
import { readingSwitch } from '../readings.js';
import type { RunningServer } from '../types.js';
import { KEY_CREATION_PATH } from './key-path.js';
import { Exchange, type NewOrder, type Order, type OrderState, type Side, type TimeInForce } from './book.js';
import { formatDecimal, numberText, parseDecimal } from './decimal.js';
import { Refusal, ok, refuse, type ErrorBody, type Reply } from './errors.js';
import { faults } from './faults.js';
import { KeyStore, digits } from './keys.js';
import { Logins } from './logins.js';
import { DayClock, NonceLedger } from './nonces.js';
import { readings, type ExchangeReadings } from './readings.js';
import { ecdsaMatches, hmacMatches } from './signatures.js';
import { TOKEN_LIFETIME_SECONDS, Tokens, type Session } from './tokens.js';

export type { ExchangeSessionSettings, RunningServer };

/**
 * Key creation is in the document ("a client creates an API key") but its path is not shown; the reference serves it
 * here, outside the interface's own paths, so the harness can make keys of its own on the reference.
 */
export { KEY_CREATION_PATH };

export interface ExchangeReferenceOptions {
  /** The IP whitelist of every key created without one of its own (addresses or CIDR ranges). */
  whitelist?: string[];
  /** Refuse authenticated writes that do not carry BX-TIMESTAMP and a BX-SIGNATURE made with the session's key. */
  requireSignedWrites?: boolean;
  /** Answer every write 500: a run against a profile that forbids writes passes only if it sends none. */
  writeTripwire?: boolean;
  /** The readings of open points the reference takes (point -> reading; see readings.ts); others take their default. */
  readings?: Readonly<Record<string, string>>;
}

export interface StartOptions {
  settings: ExchangeSessionSettings;
  reference?: ExchangeReferenceOptions;
  /** Unused: the reference hands out its own keys. */
  secrets: Record<string, string>;
  fault?: string;
  host?: string;
  port?: number;
}

const SYMBOL = /^[A-Z0-9]{3,20}$/;
/** The reading dashed-pairs of A-NS-MARKETS: markets written BASE-QUOTE. */
const DASHED_SYMBOL = /^[A-Z0-9]{2,10}-[A-Z0-9]{2,10}$/;
const TIMES_IN_FORCE: readonly string[] = ['GTC', 'FOK', 'IOC'] satisfies TimeInForce[];
/**
 * How long the 'nonce-race' fault's store round-trip takes: long enough for concurrent writes to overlap even on a
 * loaded machine (at 25 ms, the second of two writes sent at once sometimes came after it, with test files run two at
 * a time on two cores). Only the concurrent-nonce check meets it.
 */
const RACE_DELAY_MS = 150;
/** The reading asynchronous of A-NS-ORDER-PROCESSING: how long after its acknowledgement a command takes effect. */
const PROCESSING_DELAY_MS = 60;
/** The reading step-and-tick of A-NS-MARKET-PRECISION: the price tick (the quantity step is settings.order.quantityStep). */
const PRICE_TICK = '0.01';
/** The reading fixed-scale of A-NS-DECIMAL-FORMAT: decimals written with at least this many fraction digits. */
const FIXED_SCALE = 8;
/** The reading per-user-limits of A-NS-RATE-TIERS: requests per second and user, per kind of endpoint, without and with a rateLimitToken. */
const RATE_LIMITS = { orders: [30, 150], other: [60, 300] } as const;

type Handler = (req: http.IncomingMessage, params: Record<string, string | undefined>) => Promise<Reply>;
/** Which kind of operation answered: the readings of refusal statuses tell them apart. */
type OperationKind = 'keys' | 'login' | 'read' | 'write' | 'route';
/** A write's body checked against the session, ready to take effect (or a refusal). */
type Prepared = (() => Reply) | Refusal;

export async function start(options: StartOptions): Promise<RunningServer> {
  const on = faultSwitch(faults, 'exchange-session', options.fault);
  const { settings } = options;
  const reference = options.reference ?? {};
  const reading: ExchangeReadings = readingSwitch(readings, 'exchange-session', reference.readings);
  const integerIds = reading('A-NS-ID-TYPES') === 'integers';

  const keys = new KeyStore(settings.hmacSignature.secretEncoding, reference.whitelist, { bareMetadata: reading('A-NS-KEY-METADATA') === 'bare-user-id', integerIds });
  const logins = new Logins(keys, settings, on, reading);
  const tokens = new Tokens(on('token-one-hour') ? 60 * 60 : TOKEN_LIFETIME_SECONDS, on('token-signature-unchecked'), on('token-not-jwt'), {
    es256WithoutIat: reading('A-NS-TOKEN-CLAIMS') === 'es256-without-iat',
    latestOnly: reading('A-NS-SESSIONS-PER-KEY') === 'latest-only',
  });
  const nonces = new NonceLedger(new DayClock(settings.nonceTimeZone), on, reading('A-NS-DAY-END') === 'next-midnight');
  const exchange = new Exchange(on, integerIds);
  /** Wire form of an id: digit strings, or JSON integers in the reading integers of A-NS-ID-TYPES. */
  const idOut = (id: string): string | number => (integerIds ? Number(id) : id);

  // ---- keys and logins -----------------------------------------------------------------------------------------

  async function createKey(req: http.IncomingMessage): Promise<Reply> {
    const body = await jsonBody(req);
    if (body instanceof Refusal) return body.reply();
    const created = keys.create(body);
    return created instanceof Refusal ? created.reply() : ok(created);
  }

  async function loggedIn(outcome: ReturnType<Logins['hmac']>): Promise<Reply> {
    if (outcome instanceof Refusal) return outcome.reply();
    const user = keys.user(outcome.userId)!;
    const answer = { authorizer: user.authorizer, token: await tokens.issue(outcome) };
    if (reading('A-NS-LOGIN-RESPONSE') === 'with-session-details') {
      const expiresAt = new Date(Date.now() + TOKEN_LIFETIME_SECONDS * 1000).toISOString();
      return ok({ ...answer, tokenType: 'Bearer', userId: user.userId, expiresAt });
    }
    return ok(answer);
  }

  async function ecdsaLogin(req: http.IncomingMessage): Promise<Reply> {
    const unsupported = mediaTypeRefusal(req);
    if (unsupported) return unsupported.reply();
    const body = await jsonBody(req);
    if (body instanceof Refusal) return body.reply();
    return loggedIn(logins.ecdsa(body, req.socket.remoteAddress, Date.now()));
  }

  /** The reading json-required of A-NS-REQUEST-CONTENT-TYPE: a body whose Content-Type does not say JSON is refused 415. */
  function mediaTypeRefusal(req: http.IncomingMessage): Refusal | undefined {
    if (reading('A-NS-REQUEST-CONTENT-TYPE') !== 'json-required') return undefined;
    return /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(header(req, 'content-type') ?? '') ? undefined : refuse('UNSUPPORTED_MEDIA_TYPE', 'The body must be sent as application/json.');
  }

  async function hmacLogin(req: http.IncomingMessage): Promise<Reply> {
    return loggedIn(logins.hmac(req.headers, pathOf(req), req.socket.remoteAddress));
  }

  // ---- authentication ------------------------------------------------------------------------------------------

  /** Which rate tier an endpoint falls in (the reading per-user-limits of A-NS-RATE-TIERS); orders are the tighter one. */
  type Tier = keyof typeof RATE_LIMITS;

  async function authenticate(req: http.IncomingMessage, tier: Tier): Promise<Session | Refusal> {
    // The bug: a header allow-list written before rate-limit tokens existed.
    if (on('ratelimit-token-refused') && req.headers['bx-ratelimit-token'] !== undefined) {
      return refuse('BAD_REQUEST', 'Unexpected header BX-RATELIMIT-TOKEN.');
    }
    const session = await sessionOf(req);
    if (session instanceof Refusal) return session;
    const presented = header(req, 'bx-ratelimit-token');
    const tokened = presented !== undefined && (keys.user(session.userId)?.accounts.some((a) => a.rateLimitToken === presented) ?? false);
    if (presented !== undefined && !tokened && reading('A-NS-RATELIMIT-TOKEN-CHECK') === 'unknown-refused') {
      return refuse('BAD_REQUEST', 'BX-RATELIMIT-TOKEN is not the rateLimitToken of one of this user\'s trading accounts.');
    }
    if (reading('A-NS-RATE-TIERS') === 'per-user-limits' && !rates.take(`${session.userId} ${tier}`, RATE_LIMITS[tier][tokened ? 1 : 0])) {
      return refuse('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded.');
    }
    return session;
  }

  async function sessionOf(req: http.IncomingMessage): Promise<Session | Refusal> {
    const bearer = /^Bearer +(\S+)$/i.exec(header(req, 'authorization') ?? '');
    if (!bearer) return refuse('UNAUTHORIZED', 'Authorization: Bearer <token> is required; the token comes from a login.');
    const session = await tokens.verify(bearer[1]);
    return session ?? refuse('UNAUTHORIZED', 'The session token is malformed, expired or was not issued here.');
  }

  const rates = new RateWindows();

  /** An authenticated read: the handler runs only for a valid session. */
  const read =
    (handle: (session: Session, params: Record<string, string | undefined>, req: http.IncomingMessage) => Reply, tier: Tier = 'other'): Handler =>
    async (req, params) => {
      const session = await authenticate(req, tier);
      return session instanceof Refusal ? session.reply() : handle(session, params, req);
    };

  /**
   * An authenticated write. By default checks run in this order: the session, the nonce, the write signature (when the
   * reference requires one), the body; a nonce once admitted is used up even if a later check refuses the write. Other
   * readings check the body before the nonce (A-NS-WRITE-CHECK-ORDER), use a nonce up only when the write is accepted
   * (A-NS-NONCE-CONSUMED), and keep sequences per user or per session (A-NS-NONCE-SCOPE). `prepare` checks the body
   * (undefined when the write carries none) and returns what then takes effect.
   */
  const write =
    (prepare: (session: Session, body: unknown, params: Record<string, string | undefined>) => Prepared, carriesBody = true): Handler =>
    async (req, params) => {
      if (reference.writeTripwire) return refuse('INTERNAL_ERROR', 'write tripwire: this reference was started for a run that must send no writes').reply();
      const raw = await readBody(req);
      if (raw === undefined) return refuse('PAYLOAD_TOO_LARGE', 'The body exceeds 1 MiB.').reply();
      const session = await authenticate(req, 'orders');
      if (session instanceof Refusal) return session.reply();
      // The fault: the market is halted, and every write is refused whatever it carries.
      if (on('orders-refused')) return refuse('INVALID_ORDER', 'Trading is halted on this market.').reply();
      const unsupported = carriesBody ? mediaTypeRefusal(req) : undefined;
      if (unsupported) return unsupported.reply();

      const bodyFirst = reading('A-NS-WRITE-CHECK-ORDER') === 'body-then-nonce';
      const checkBody = (): Prepared => {
        const body = carriesBody ? parseJson(raw) : undefined;
        // The fault: the parser's error escapes the handler (answered 500 by the router).
        if (body instanceof Refusal && body.detail === 'malformed-json' && on('broken-json-500')) throw new Error('Unexpected token in JSON');
        return body instanceof Refusal ? body : prepare(session, body, params);
      };
      let prepared = bodyFirst ? checkBody() : undefined;
      if (prepared instanceof Refusal) return prepared.reply();

      const nonce = header(req, 'bx-nonce');
      const scope = { 'per-key': session.keyId, 'per-user': `user ${session.userId}`, 'per-session': `session ${session.token}` }[reading('A-NS-NONCE-SCOPE')];
      const admission = nonces.check(scope, nonce, Date.now());
      if (admission instanceof Refusal) return admission.reply();
      // Correct code records in the same synchronous step as the check; the fault lets other requests in between.
      if (on('nonce-race')) await new Promise((resolve) => setTimeout(resolve, RACE_DELAY_MS));
      const onlyAccepted = reading('A-NS-NONCE-CONSUMED') === 'accepted-writes-only';
      if (!onlyAccepted) admission.record();

      // From here on nothing awaits: with onlyAccepted, the nonce is recorded in the same synchronous step as its check.
      if (reference.requireSignedWrites) {
        const refusal = writeSignatureRefusal(req, session, nonce ?? '', raw);
        if (refusal) return refusal.reply();
      }
      prepared ??= checkBody();
      if (prepared instanceof Refusal) return prepared.reply();
      const reply = prepared();
      if (onlyAccepted && reply.status === 200) admission.record();
      return reply;
    };

  /** The public exchange's signed writes: timestamp + nonce + method + path + body (or its hex SHA-256), signed with the session's key. */
  function writeSignatureRefusal(req: http.IncomingMessage, session: Session, nonce: string, raw: string): Refusal | undefined {
    const timestamp = header(req, 'bx-timestamp');
    const signature = header(req, 'bx-signature');
    if (timestamp === undefined || signature === undefined) return refuse('UNAUTHORIZED', 'Writes must carry BX-TIMESTAMP and BX-SIGNATURE.');
    const key = keys.keyById(session.keyId);
    if (!key) return refuse('UNAUTHORIZED', 'The session\'s key is unknown.');
    const plain = `${timestamp}${nonce}${req.method}${pathOf(req)}${raw}`;
    const message = settings.writeSignatureInput === 'sha256-hex' ? createHash('sha256').update(plain).digest('hex') : plain;
    const valid =
      key.type === 'HMAC'
        ? hmacMatches(key.secretKey!, message, signature, settings.hmacSignature)
        : ecdsaMatches(key.point!, message, signature, settings.ecdsaSignature);
    return valid ? undefined : refuse('INVALID_SIGNATURE', 'BX-SIGNATURE does not verify over timestamp + nonce + method + path + body.');
  }

  // ---- reads ---------------------------------------------------------------------------------------------------

  const accountsOf = (session: Session): Reply => {
    const accounts = (keys.user(session.userId)?.accounts ?? []).map((a) =>
      reading('A-NS-ACCOUNT-FIELDS') === 'documented-only'
        ? { tradingAccountId: idOut(a.tradingAccountId), rateLimitToken: a.rateLimitToken }
        : { ...a, tradingAccountId: idOut(a.tradingAccountId) },
    );
    const listed = ok(on('accounts-without-ratelimit-token') ? accounts.map(({ rateLimitToken: _, ...rest }) => rest) : accounts);
    return on('accounts-as-text') ? { ...listed, headers: { 'content-type': 'text/plain; charset=utf-8' } } : listed;
  };
  const tradingAccounts: Handler = async (req) => {
    const session = await authenticate(req, 'other');
    // The fault: the listing was left out of the session guard; without a valid session it lists no account, but answers.
    if (session instanceof Refusal) return on('accounts-open') ? ok([]) : session.reply();
    // The fault: a permission no API key is given guards the listing.
    if (on('accounts-refused')) return refuse('KEY_SCOPE', 'Listing trading accounts needs a permission of the web console.').reply();
    return accountsOf(session);
  };

  const reportedRange = (): Reply => {
    const range = nonces.reported(Date.now());
    const answer = ok(reading('A-NS-NONCE-RANGE-TYPES') === 'digit-strings' ? { lowerBound: String(range.lowerBound), upperBound: String(range.upperBound) } : range);
    // The fault: the status of the order handler it was copied from.
    return on('nonce-range-created') ? { ...answer, status: 201 } : answer;
  };
  // The public exchange serves its nonce range to anyone (reading public of A-NS-NONCE-PUBLIC).
  const noncePublic = reading('A-NS-NONCE-PUBLIC') === 'public';
  const nonceRange: Handler = noncePublic ? async () => reportedRange() : read(reportedRange);

  /** The order a session may see under this id, or the refusal (a stranger's order is answered as if it did not exist). */
  function ownOrder(session: Session, orderId: string | undefined): Order | Refusal {
    const order = exchange.order(orderId ?? '');
    return order && order.userId === session.userId ? order : refuse('ORDER_NOT_FOUND', 'No such order.');
  }

  const lookup = read((session, params, req) => {
    let account: string | null = null;
    if (reading('A-NS-LOOKUP-ACCOUNT') === 'trading-account-query') {
      // The public exchange keeps orders per trading account: the lookup names the account (?tradingAccountId=).
      account = new URL(req.url ?? '/', 'http://reference').searchParams.get('tradingAccountId');
      if (!account) return refuse('BAD_REQUEST', 'The query parameter tradingAccountId is required.').reply();
    }
    const order = ownOrder(session, params.orderId);
    if (order instanceof Refusal) return order.reply();
    if (account !== null && account !== order.tradingAccountId) return refuse('ORDER_NOT_FOUND', 'No such order in this trading account.').reply();
    return ok(record(order));
  }, 'orders');

  const custody = read((session) => {
    if (session.keyType === 'HMAC' && !on('hmac-reaches-custody')) return refuse('KEY_SCOPE', 'HMAC keys reach trading endpoints only.').reply();
    if (on('custody-refuses-ecdsa')) return refuse('KEY_SCOPE', 'Custody endpoints are not open to API keys.').reply();
    return ok({ symbol: 'BTC', withdrawalLimit: '1.5' });
  });

  // ---- orders --------------------------------------------------------------------------------------------------

  const { order: orderSettings, orderRecord } = settings;
  const sideNames: Record<Side, string> = orderSettings.sides;
  const statusNames: Record<OrderState, string> = {
    open: orderRecord.statuses.open[0],
    filled: orderRecord.statuses.filled[0],
    cancelled: orderRecord.statuses.cancelled[0],
  };
  const fixedScale = reading('A-NS-DECIMAL-FORMAT') === 'fixed-scale';
  /** A decimal of the record, in the form the profile says commands carry them (and the scale of A-NS-DECIMAL-FORMAT). */
  const decimalOut = (value: bigint, text: string): string | number =>
    orderSettings.numbersAsStrings ? (fixedScale ? formatFixed(value, FIXED_SCALE) : text) : Number(formatDecimal(value));
  /** The reading detailed-lifecycle of A-NS-ORDER-STATES: NEW and PARTIALLY_FILLED while open, EXPIRED for a time-in-force remainder. */
  const detailedStates = reading('A-NS-ORDER-STATES') === 'detailed-lifecycle';
  const statusOf = (order: Order): string => {
    if (!detailedStates) return statusNames[order.state];
    if (order.state === 'open') return order.filled > 0n ? 'PARTIALLY_FILLED' : 'NEW';
    if (order.state === 'filled') return 'FILLED';
    return order.timeInForce === 'GTC' ? 'CANCELED' : 'EXPIRED';
  };
  /** The reading client-order-id-required of A-NS-COMMAND-FIELDS: each order's clientOrderId, and those used per user. */
  const clientOrderIds = new Map<string, string>();
  const usedClientOrderIds = new Set<string>();

  function record(order: Order): Record<string, unknown> {
    const out: Record<string, unknown> = {
      orderId: idOut(order.orderId),
      ...(clientOrderIds.has(order.orderId) ? { clientOrderId: clientOrderIds.get(order.orderId) } : {}),
      symbol: order.symbol,
      side: sideNames[order.side],
      price: decimalOut(order.price, order.priceText),
      quantity: decimalOut(order.quantity, order.quantityText),
      [orderRecord.quantityFilled]: decimalOut(order.filled, formatDecimal(order.filled)),
      timeInForce: order.timeInForce,
      [orderRecord.status]: statusOf(order),
      tradingAccountId: idOut(order.tradingAccountId),
      createdAtTimestamp: String(order.createdAt),
    };
    if (on('lookup-without-status')) delete out[orderRecord.status];
    if (on('fok-partial-fill-unreadable')) {
      out.executedQty = out[orderRecord.quantityFilled];
      delete out[orderRecord.quantityFilled];
    }
    return out;
  }

  /** A positive price or quantity in the form the profile says commands carry them (either, in one reading), with its text. */
  function amount(value: unknown): { value: bigint; text: string } | undefined {
    const either = reading('A-NS-COMMAND-NUMBERS') === 'either';
    const asString = typeof value === 'string' && (orderSettings.numbersAsStrings || either) ? value : undefined;
    const asNumber = typeof value === 'number' && (!orderSettings.numbersAsStrings || either) ? numberText(value) : undefined;
    const text = asString ?? asNumber;
    const parsed = text === undefined ? undefined : parseDecimal(text);
    return parsed !== undefined && parsed > 0n ? { value: parsed, text: text! } : undefined;
  }

  /** A market symbol as the reading of A-NS-MARKETS knows them, or why not. */
  function marketRefusal(symbol: unknown, name: string): Refusal | undefined {
    switch (reading('A-NS-MARKETS')) {
      case 'any-symbol':
        return typeof symbol === 'string' && SYMBOL.test(symbol) ? undefined : refuse('INVALID_ORDER', `${name} must be a market symbol (3 to 20 capitals or digits).`);
      case 'listed-only':
        return symbol === orderSettings.symbol ? undefined : refuse('INVALID_ORDER', `${name} must be a listed market (${orderSettings.symbol}).`);
      case 'dashed-pairs':
        return typeof symbol === 'string' && DASHED_SYMBOL.test(symbol) ? undefined : refuse('INVALID_ORDER', `${name} must be a market pair written BASE-QUOTE.`);
    }
  }

  const quantityStep = parseDecimal(orderSettings.quantityStep);
  const priceTick = parseDecimal(PRICE_TICK)!;

  /** Members of a command the reading refused of A-NS-UNKNOWN-MEMBERS refuses, beyond those it knows. */
  function unknownMembers(body: Record<string, unknown>, known: readonly string[]): Refusal | undefined {
    if (reading('A-NS-UNKNOWN-MEMBERS') !== 'refused') return undefined;
    const unknown = Object.keys(body).filter((k) => !known.includes(k));
    return unknown.length ? refuse('INVALID_ORDER', `Unknown member(s) ${unknown.join(', ')}.`) : undefined;
  }

  function prepareSubmit(session: Session, body: unknown): Prepared {
    if (keys.keyById(session.keyId)?.trading === false && !on('read-only-key-trades')) return refuse('KEY_SCOPE', 'This API key has no trading permission.');
    if (!isObject(body)) return refuse('INVALID_ORDER', 'The order command must be a JSON object.');
    const { fields, constants } = orderSettings;
    // A profile that names a client order id member takes the reading client-order-id-required.
    const clientIdMember = orderSettings.fields.clientOrderId ?? (reading('A-NS-COMMAND-FIELDS') === 'client-order-id-required' ? 'clientOrderId' : undefined);
    const clientIds = clientIdMember !== undefined;
    const stray = unknownMembers(body, [...Object.keys(constants), ...Object.values(fields), 'timeInForce', clientIdMember ?? 'clientOrderId']);
    if (stray) return stray;
    for (const name of ['commandType', 'type']) {
      if (name in constants && body[name] !== constants[name]) return refuse('INVALID_ORDER', `${name} must be ${JSON.stringify(constants[name])}.`);
    }
    const symbol = body[fields.symbol];
    const unknownMarket = marketRefusal(symbol, fields.symbol);
    if (unknownMarket) return unknownMarket;
    const side = (Object.keys(sideNames) as Side[]).find((s) => sideNames[s] === body[fields.side]);
    if (!side) return refuse('INVALID_ORDER', `${fields.side} must be ${sideNames.buy} or ${sideNames.sell}.`);
    const timeInForce = body.timeInForce;
    if (typeof timeInForce !== 'string' || !TIMES_IN_FORCE.includes(timeInForce)) return refuse('INVALID_ORDER', 'timeInForce must be GTC, FOK or IOC.');
    const form = reading('A-NS-COMMAND-NUMBERS') === 'either' ? 'a decimal string or a number' : orderSettings.numbersAsStrings ? 'a decimal string' : 'a number';
    const price = amount(body[fields.price]);
    if (!price) return refuse('INVALID_ORDER', `${fields.price} must be a positive price, ${form}.`);
    const quantity = amount(body[fields.quantity]);
    if (!quantity) return refuse('INVALID_ORDER', `${fields.quantity} must be a positive quantity, ${form}.`);
    if (reading('A-NS-MARKET-PRECISION') === 'step-and-tick') {
      if (price.value % priceTick !== 0n) return refuse('INVALID_ORDER', `${fields.price} must be a multiple of the tick size ${PRICE_TICK}.`);
      if (quantityStep && quantity.value % quantityStep !== 0n) return refuse('INVALID_ORDER', `${fields.quantity} must be a multiple of the step ${orderSettings.quantityStep}.`);
    }
    const account = body[fields.tradingAccountId];
    const accountId = integerIds ? (Number.isSafeInteger(account) ? String(account) : undefined) : typeof account === 'number' ? String(account) : account;
    if (!keys.user(session.userId)?.accounts.some((a) => a.tradingAccountId === accountId)) {
      return refuse('INVALID_ORDER', `${fields.tradingAccountId} is not one of this user's trading accounts.`);
    }
    let clientOrderId: string | undefined;
    if (clientIds) {
      const given = body[clientIdMember!];
      clientOrderId = typeof given === 'number' && Number.isSafeInteger(given) && given > 0 ? String(given) : typeof given === 'string' && /^[1-9]\d{0,18}$/.test(given) ? given : undefined;
      if (clientOrderId === undefined) return refuse('INVALID_ORDER', 'clientOrderId is required: a positive integer (as a string) unique among this user\'s orders.');
      if (usedClientOrderIds.has(`${session.userId} ${clientOrderId}`)) return refuse('INVALID_ORDER', 'clientOrderId was used before.');
    }

    const input: NewOrder = {
      userId: session.userId,
      tradingAccountId: accountId as string,
      symbol: symbol as string,
      side,
      timeInForce: timeInForce as TimeInForce,
      price: price.value,
      quantity: quantity.value,
      priceText: price.text,
      quantityText: quantity.text,
    };
    return () => {
      const orderId = exchange.reserveId();
      if (clientOrderId !== undefined) {
        usedClientOrderIds.add(`${session.userId} ${clientOrderId}`);
        clientOrderIds.set(orderId, clientOrderId);
      }
      if (reading('A-NS-ORDER-PROCESSING') === 'asynchronous') setTimeout(() => exchange.place(input, orderId), PROCESSING_DELAY_MS);
      else exchange.place(input, orderId);
      return ok(acknowledgement('CreateOrder', orderId, { clientOrderId, faultApplies: true }));
    };
  }

  /** The acknowledgement of a command in the shape of the reading of A-NS-ACK-BODY (the fault names a new order's id `id`). */
  function acknowledgement(command: string, orderId: string, o: { clientOrderId?: string; faultApplies?: boolean } = {}): Record<string, unknown> {
    const { clientOrderId, faultApplies = false } = o;
    const id = faultApplies && on('ack-without-order-id') ? { id: idOut(orderId) } : { orderId: idOut(orderId) };
    switch (reading('A-NS-ACK-BODY')) {
      case 'command-acknowledged':
        return { message: `Command acknowledged - ${command}`, requestId: digits(18), ...id, ...(clientOrderId ? { clientOrderId } : {}) };
      case 'bare-order-id':
        return id;
      case 'data-envelope':
        return { success: true, data: id };
    }
  }

  /** Takes the effect of a cancellation, now or (reading asynchronous of A-NS-ORDER-PROCESSING) after the matching delay. */
  function cancelled(order: Order): Reply {
    if (reading('A-NS-ORDER-PROCESSING') === 'asynchronous') setTimeout(() => exchange.cancel(order), PROCESSING_DELAY_MS);
    else exchange.cancel(order);
    return ok(acknowledgement('CancelOrder', order.orderId));
  }

  /** The cancel command as settings.order.cancel shapes it: placeholders name the order, other members are constants. */
  function prepareCancel(session: Session, body: unknown): Prepared {
    if (!isObject(body)) return refuse('BAD_REQUEST', 'The command must be a JSON object.');
    const stray = unknownMembers(body, Object.keys(orderSettings.cancel));
    if (stray) return stray;
    let orderId: string | undefined;
    const named: { symbol?: unknown; tradingAccountId?: unknown } = {};
    for (const [name, value] of Object.entries(orderSettings.cancel)) {
      const given = body[name];
      if (value === '{orderId}') orderId = typeof given === 'number' ? String(given) : typeof given === 'string' ? given : undefined;
      else if (value === '{symbol}') named.symbol = given;
      else if (value === '{tradingAccountId}') named.tradingAccountId = typeof given === 'number' ? String(given) : given;
      else if (given !== value) return refuse('BAD_REQUEST', `${name} must be ${JSON.stringify(value)}.`);
    }
    if (orderId === undefined) return refuse('BAD_REQUEST', 'The command names no order.');
    return () => {
      const order = ownOrder(session, orderId);
      if (order instanceof Refusal) return order.reply();
      if ('symbol' in named && named.symbol !== order.symbol) return refuse('BAD_REQUEST', 'The symbol is not the order\'s.').reply();
      if ('tradingAccountId' in named && named.tradingAccountId !== order.tradingAccountId) return refuse('BAD_REQUEST', 'The trading account is not the order\'s.').reply();
      if (order.state !== 'open') return refuse('ORDER_NOT_OPEN', 'The order is no longer open.').reply();
      return cancelled(order);
    };
  }

  /** The reading delete-order of A-NS-CANCEL: DELETE on the order's own path cancels it (with BX-NONCE, no body). */
  function prepareDelete(session: Session, _body: unknown, params: Record<string, string | undefined>): Prepared {
    return () => {
      const order = ownOrder(session, params.orderId);
      if (order instanceof Refusal) return order.reply();
      if (order.state !== 'open') return refuse('ORDER_NOT_OPEN', 'The order is no longer open.').reply();
      return cancelled(order);
    };
  }

  /** When a profile sends cancellations to the order path, the command type tells them from new orders. */
  function prepareSubmitOrCancel(session: Session, body: unknown): Prepared {
    const cancelType = orderSettings.cancel.commandType;
    return cancelType !== undefined && isObject(body) && body.commandType === cancelType ? prepareCancel(session, body) : prepareSubmit(session, body);
  }

  // ---- routes --------------------------------------------------------------------------------------------------

  const { paths } = settings;
  // A profile that says orders are cancelled by DELETE takes the reading delete-order.
  const cancelling = settings.order.cancelBy === 'delete' ? 'delete-order' : reading('A-NS-CANCEL');
  const routes: Array<[method: 'GET' | 'POST' | 'DELETE', path: string, kind: OperationKind, handler: Handler]> = [
    ['POST', KEY_CREATION_PATH, 'keys', createKey],
    ['POST', paths.ecdsaLogin, 'login', ecdsaLogin],
    ['GET', paths.hmacLogin, 'login', hmacLogin],
    ['GET', paths.tradingAccounts, 'read', tradingAccounts],
    ['GET', paths.nonce, 'read', nonceRange],
    ['GET', paths.order, 'read', lookup],
  ];
  if (cancelling === 'delete-order') {
    routes.push(['POST', paths.orders, 'write', write(prepareSubmit)], ['DELETE', paths.order, 'write', write(prepareDelete, false)]);
  } else if (paths.command === paths.orders) routes.push(['POST', paths.orders, 'write', write(prepareSubmitOrCancel)]);
  else {
    routes.push(['POST', paths.orders, 'write', write(prepareSubmit)]);
    if (paths.command) routes.push(['POST', paths.command, 'write', write(prepareCancel)]);
  }
  if (paths.custody) routes.push(['GET', paths.custody, 'read', custody]);

  /** Where no credential is asked for: the logins, the reference's key creation, and a public nonce range. */
  const open = new Set([KEY_CREATION_PATH, paths.ecdsaLogin, paths.hmacLogin, ...(noncePublic ? [paths.nonce] : [])]);
  const present = presenter(reading);

  const router = Router({
    defaultRoute: (req, res) => {
      void (async () => {
        const path = pathOf(req);
        if (reading('A-NS-AUTH-BEFORE-ROUTE') === 'credential-first' && !open.has(path)) {
          const session = await sessionOf(req);
          if (session instanceof Refusal) return send(res, present('read', session.reply()));
        }
        const allowed = reading('A-NS-WRONG-METHOD') === 'method-not-allowed' ? ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'].filter((m) => router.find(m as 'GET', path)) : [];
        if (allowed.length) return send(res, present('route', { ...refuse('METHOD_NOT_ALLOWED', `${req.method} is not served here.`).reply(), headers: { allow: allowed.join(', ') } }));
        send(res, present('route', refuse('NOT_FOUND', 'No such operation.').reply()));
      })().catch(() => res.destroy());
    },
  });
  const taken = new Map<string, string>();
  for (const [method, path, kind, handler] of routes) {
    const pattern = routePattern(path);
    const slot = `${method} ${pattern}`;
    if (taken.has(slot)) throw new Error(`exchange-session reference: ${method} ${path} is configured twice (settings.paths)`);
    taken.set(slot, path);
    const credentialFirst = reading('A-NS-AUTH-BEFORE-ROUTE') === 'credential-first' && !open.has(path);
    router.on(method, pattern, (req, res, params) => {
      const answer = async (): Promise<Reply> => {
        // The faults: a malformed query escape "cleaned" by a redirect to the bare path; the nonce range moved under
        // a trailing slash, its documented path redirecting there.
        const query = (req.url ?? '').split('?')[1] ?? '';
        if (on('odd-query-redirect') && /%(?![0-9a-f]{2})/i.test(query)) return { status: 301, body: '', headers: { location: pathOf(req) } };
        if (on('nonce-moved') && path === paths.nonce) return { status: 308, body: '', headers: { location: `${pathOf(req)}/` } };
        // A gateway in front of the routes asks for the session before anything else looks at the request.
        if (credentialFirst) {
          const session = await sessionOf(req);
          if (session instanceof Refusal) return session.reply();
        }
        return handler(req, params);
      };
      answer().then(
        (reply) => send(res, present(kind, reply)),
        () => {
          if (res.headersSent) return res.destroy();
          send(res, present(kind, refuse('INTERNAL_ERROR', 'Unexpected error.').reply()));
        },
      );
    });
  }

  const server = http.createServer((req, res) => router.lookup(req, res));
  return listen(server, options.host, options.port);
}

function send(res: http.ServerResponse, { status, body, headers }: Reply): void {
  sendJson(res, status, body, headers);
}

/**
 * How refusals are answered: by default each refusal's own status and the public exchange's error body. Other readings
 * answer kinds of refusal with other statuses (A-NS-AUTH-STATUS, A-NS-LOGIN-REFUSAL-STATUS, A-NS-SCOPE-STATUS,
 * A-NS-NONCE-STATUS, A-NS-VALIDATION-STATUS, A-NS-UNKNOWN-ORDER) and write the error body otherwise (A-NS-ERRORS).
 */
function presenter(reading: ExchangeReadings): (kind: OperationKind, reply: Reply) => Reply {
  return (kind, reply) => {
    const refusal = reply.refusal;
    if (!refusal) return reply;
    const status = refusalStatus(reading, kind, refusal, reply.status);
    const headers = { ...reply.headers, ...(refusal.name === 'RATE_LIMIT_EXCEEDED' ? { 'retry-after': '1' } : {}) };
    const body = reply.body as ErrorBody;
    switch (reading('A-NS-ERRORS')) {
      case 'code-name-message':
        return { status, body, headers };
      case 'problem-details':
        // RFC 9457, as Spring's ProblemDetail and many gateways write it.
        return {
          status,
          body: { type: `https://errors.exchange.example/${refusal.name.toLowerCase().replace(/_/g, '-')}`, title: http.STATUS_CODES[status] ?? 'Error', status, detail: body.message },
          headers: { ...headers, 'content-type': 'application/problem+json' },
        };
      case 'error-string':
        return { status, body: { error: body.message }, headers };
    }
  };
}

function refusalStatus(reading: ExchangeReadings, kind: OperationKind, refusal: Refusal, status: number): number {
  const { name, detail } = refusal;
  if (name === 'PAYLOAD_TOO_LARGE' || name === 'INTERNAL_ERROR' || name === 'RATE_LIMIT_EXCEEDED' || name === 'UNSUPPORTED_MEDIA_TYPE') return status;
  if (kind === 'login') {
    const login = reading('A-NS-LOGIN-REFUSAL-STATUS');
    if (login === 'all-unauthorized' && detail !== 'malformed-json') return 401;
    if (login === 'all-bad-request') return 400;
    return status;
  }
  if (kind === 'keys' || kind === 'route') return name === 'UNAUTHORIZED' && reading('A-NS-AUTH-STATUS') === 'forbidden' ? 403 : status;
  if (name === 'UNAUTHORIZED' || name === 'INVALID_SIGNATURE') return reading('A-NS-AUTH-STATUS') === 'forbidden' ? 403 : status;
  if (name === 'KEY_SCOPE') return { forbidden: status, unauthorized: 401, 'not-found': 404 }[reading('A-NS-SCOPE-STATUS')];
  if (name === 'INVALID_NONCE') {
    const nonce = reading('A-NS-NONCE-STATUS');
    return nonce === 'unauthorized' ? 401 : nonce === 'conflict' && detail === 'nonce-not-fresh' ? 409 : status;
  }
  if (name === 'ORDER_NOT_FOUND') return reading('A-NS-UNKNOWN-ORDER') === 'bad-request' ? 400 : status;
  if (kind === 'write' && (name === 'INVALID_ORDER' || (name === 'BAD_REQUEST' && detail !== 'malformed-json'))) {
    return reading('A-NS-VALIDATION-STATUS') === 'unprocessable' ? 422 : status;
  }
  return status;
}

/** Decimal text with at least `digits` fraction digits (more where the value has them): 1.5 → "1.50000000". */
function formatFixed(value: bigint, digits: number): string {
  const text = formatDecimal(value);
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(digits, '0')}`;
}

/** Requests per user and tier in the current second (the reading per-user-limits of A-NS-RATE-TIERS). */
class RateWindows {
  private second = 0;
  private readonly counts = new Map<string, number>();

  /** Counts a request; false when the window already holds `limit`. */
  take(key: string, limit: number): boolean {
    const second = Math.floor(Date.now() / 1000);
    if (second !== this.second) {
      this.second = second;
      this.counts.clear();
    }
    const count = this.counts.get(key) ?? 0;
    if (count >= limit) return false;
    this.counts.set(key, count + 1);
    return true;
  }
}

/** A configured path as a router pattern: `{name}` becomes a parameter, a literal colon is escaped. */
function routePattern(path: string): string {
  return path.replace(/:/g, '::').replace(/\{(\w+)\}/g, ':$1');
}

/** The path as the client sent it, without the query: what the HMAC login and signed writes sign. */
function pathOf(req: http.IncomingMessage): string {
  return (req.url ?? '/').split('?')[0];
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function jsonBody(req: http.IncomingMessage): Promise<unknown> {
  const raw = await readBody(req);
  if (raw === undefined) return refuse('PAYLOAD_TOO_LARGE', 'The body exceeds 1 MiB.');
  return parseJson(raw);
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return refuse('BAD_REQUEST', 'The body is not valid JSON.', 'malformed-json');
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
