// Embedded reference of Interface A: API keys, the ECDSA and HMAC logins, trading accounts, the nonce range, order
// submission with its time in force, the order lookup, cancellation and custody. Written from the document alone
// (where it says "not shown", the public exchange it follows); it never imports the suite's model, only the type of
// its profile settings.
import { createHash } from 'node:crypto';
import http from 'node:http';
import Router from 'find-my-way';
import type { ExchangeSessionSettings } from '../../suites/exchange-session/settings.ts';
import { faultSwitch, listen, readBody, sendJson } from '../plumbing.js';
import type { RunningServer } from '../types.js';
import { Exchange, type Order, type OrderState, type Side, type TimeInForce } from './book.js';
import { formatDecimal, numberText, parseDecimal } from './decimal.js';
import { Refusal, ok, refuse, type Reply } from './errors.js';
import { faults } from './faults.js';
import { KeyStore, digits } from './keys.js';
import { Logins } from './logins.js';
import { DayClock, NonceLedger } from './nonces.js';
import { ecdsaMatches, hmacMatches } from './signatures.js';
import { TOKEN_LIFETIME_SECONDS, Tokens, type Session } from './tokens.js';

export type { ExchangeSessionSettings, RunningServer };

/**
 * Key creation is in the document ("a client creates an API key") but its path is not shown; the reference serves it
 * here, outside the interface's own paths, so the harness can make keys of its own on the reference.
 */
export const KEY_CREATION_PATH = '/__reference/api-keys';

export interface ExchangeReferenceOptions {
  /** The IP whitelist of every key created without one of its own (addresses or CIDR ranges). */
  whitelist?: string[];
  /** Refuse authenticated writes that do not carry BX-TIMESTAMP and a BX-SIGNATURE made with the session's key. */
  requireSignedWrites?: boolean;
  /** Answer every write 500: a run against a profile that forbids writes passes only if it sends none. */
  writeTripwire?: boolean;
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
const TIMES_IN_FORCE: readonly string[] = ['GTC', 'FOK', 'IOC'] satisfies TimeInForce[];
/** How long the 'nonce-race' fault's store round-trip takes: long enough for concurrent writes to overlap. */
const RACE_DELAY_MS = 25;

type Handler = (req: http.IncomingMessage, params: Record<string, string | undefined>) => Promise<Reply>;

export async function start(options: StartOptions): Promise<RunningServer> {
  const on = faultSwitch(faults, 'exchange-session', options.fault);
  const { settings } = options;
  const reference = options.reference ?? {};

  const keys = new KeyStore(settings.hmacSignature.secretEncoding, reference.whitelist);
  const logins = new Logins(keys, settings, on);
  const tokens = new Tokens(on('token-one-hour') ? 60 * 60 : TOKEN_LIFETIME_SECONDS, on('token-signature-unchecked'), on('token-not-jwt'));
  const nonces = new NonceLedger(new DayClock(settings.nonceTimeZone), on);
  const exchange = new Exchange(on);

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
    return ok({ authorizer: user.authorizer, token: await tokens.issue(outcome) });
  }

  async function ecdsaLogin(req: http.IncomingMessage): Promise<Reply> {
    const body = await jsonBody(req);
    if (body instanceof Refusal) return body.reply();
    return loggedIn(logins.ecdsa(body, req.socket.remoteAddress, Date.now()));
  }

  async function hmacLogin(req: http.IncomingMessage): Promise<Reply> {
    return loggedIn(logins.hmac(req.headers, pathOf(req), req.socket.remoteAddress));
  }

  // ---- authentication ------------------------------------------------------------------------------------------

  async function authenticate(req: http.IncomingMessage): Promise<Session | Refusal> {
    // The bug: a header allow-list written before rate-limit tokens existed.
    if (on('ratelimit-token-refused') && req.headers['bx-ratelimit-token'] !== undefined) {
      return refuse('BAD_REQUEST', 'Unexpected header BX-RATELIMIT-TOKEN.');
    }
    const bearer = /^Bearer +(\S+)$/i.exec(header(req, 'authorization') ?? '');
    if (!bearer) return refuse('UNAUTHORIZED', 'Authorization: Bearer <token> is required; the token comes from a login.');
    const session = await tokens.verify(bearer[1]);
    return session ?? refuse('UNAUTHORIZED', 'The session token is malformed, expired or was not issued here.');
  }

  /** An authenticated read: the handler runs only for a valid session. */
  const read =
    (handle: (session: Session, params: Record<string, string | undefined>) => Reply): Handler =>
    async (req, params) => {
      const session = await authenticate(req);
      return session instanceof Refusal ? session.reply() : handle(session, params);
    };

  /**
   * An authenticated write. Checks run in this order: the session, the nonce, the write signature (when the reference
   * requires one), the body. A nonce once admitted is used up even if a later check refuses the write.
   */
  const write =
    (handle: (session: Session, body: unknown) => Reply): Handler =>
    async (req) => {
      if (reference.writeTripwire) return refuse('INTERNAL_ERROR', 'write tripwire: this reference was started for a run that must send no writes').reply();
      const raw = await readBody(req);
      if (raw === undefined) return refuse('PAYLOAD_TOO_LARGE', 'The body exceeds 1 MiB.').reply();
      const session = await authenticate(req);
      if (session instanceof Refusal) return session.reply();

      const nonce = header(req, 'bx-nonce');
      const admission = nonces.check(session.keyId, nonce, Date.now());
      if (admission instanceof Refusal) return admission.reply();
      // Correct code records in the same synchronous step as the check; the fault lets other requests in between.
      if (on('nonce-race')) await new Promise((resolve) => setTimeout(resolve, RACE_DELAY_MS));
      admission.record();

      if (reference.requireSignedWrites) {
        const refusal = writeSignatureRefusal(req, session, nonce ?? '', raw);
        if (refusal) return refusal.reply();
      }
      const body = parseJson(raw);
      return body instanceof Refusal ? body.reply() : handle(session, body);
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

  const tradingAccounts = read((session) => {
    const accounts = keys.user(session.userId)?.accounts ?? [];
    const listed = ok(on('accounts-without-ratelimit-token') ? accounts.map(({ rateLimitToken: _, ...rest }) => rest) : accounts);
    return on('accounts-as-text') ? { ...listed, headers: { 'content-type': 'text/plain; charset=utf-8' } } : listed;
  });

  const nonceRange = read(() => ok(nonces.reported(Date.now())));

  const lookup = read((session, params) => {
    const order = exchange.order(params.orderId ?? '');
    // Another user's order is answered as if it did not exist: its id tells a stranger nothing.
    if (!order || order.userId !== session.userId) return refuse('ORDER_NOT_FOUND', 'No such order.').reply();
    return ok(record(order));
  });

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
  const quantityOut = (text: string): string | number => (orderSettings.numbersAsStrings ? text : Number(text));

  function record(order: Order): Record<string, unknown> {
    const out: Record<string, unknown> = {
      orderId: order.orderId,
      symbol: order.symbol,
      side: sideNames[order.side],
      price: quantityOut(order.priceText),
      quantity: quantityOut(order.quantityText),
      [orderRecord.quantityFilled]: quantityOut(formatDecimal(order.filled)),
      timeInForce: order.timeInForce,
      [orderRecord.status]: statusNames[order.state],
      tradingAccountId: order.tradingAccountId,
      createdAtTimestamp: String(order.createdAt),
    };
    if (on('lookup-without-status')) delete out[orderRecord.status];
    return out;
  }

  /** A positive price or quantity in the form the profile says commands carry them, with its text. */
  function amount(value: unknown): { value: bigint; text: string } | undefined {
    const text = orderSettings.numbersAsStrings ? (typeof value === 'string' ? value : undefined) : typeof value === 'number' ? numberText(value) : undefined;
    const parsed = text === undefined ? undefined : parseDecimal(text);
    return parsed !== undefined && parsed > 0n ? { value: parsed, text: text! } : undefined;
  }

  function submit(session: Session, body: unknown): Reply {
    if (!isObject(body)) return refuse('INVALID_ORDER', 'The order command must be a JSON object.').reply();
    const { fields, constants } = orderSettings;
    for (const name of ['commandType', 'type']) {
      if (name in constants && body[name] !== constants[name]) return refuse('INVALID_ORDER', `${name} must be ${JSON.stringify(constants[name])}.`).reply();
    }
    const symbol = body[fields.symbol];
    if (typeof symbol !== 'string' || !SYMBOL.test(symbol)) return refuse('INVALID_ORDER', `${fields.symbol} must be a market symbol (3 to 20 capitals or digits).`).reply();
    const side = (Object.keys(sideNames) as Side[]).find((s) => sideNames[s] === body[fields.side]);
    if (!side) return refuse('INVALID_ORDER', `${fields.side} must be ${sideNames.buy} or ${sideNames.sell}.`).reply();
    const timeInForce = body.timeInForce;
    if (typeof timeInForce !== 'string' || !TIMES_IN_FORCE.includes(timeInForce)) return refuse('INVALID_ORDER', 'timeInForce must be GTC, FOK or IOC.').reply();
    const form = orderSettings.numbersAsStrings ? 'a decimal string' : 'a number';
    const price = amount(body[fields.price]);
    if (!price) return refuse('INVALID_ORDER', `${fields.price} must be a positive price, ${form}.`).reply();
    const quantity = amount(body[fields.quantity]);
    if (!quantity) return refuse('INVALID_ORDER', `${fields.quantity} must be a positive quantity, ${form}.`).reply();
    const account = body[fields.tradingAccountId];
    const accountId = typeof account === 'number' ? String(account) : account;
    if (!keys.user(session.userId)?.accounts.some((a) => a.tradingAccountId === accountId)) {
      return refuse('INVALID_ORDER', `${fields.tradingAccountId} is not one of this user's trading accounts.`).reply();
    }

    const order = exchange.place({
      userId: session.userId,
      tradingAccountId: accountId as string,
      symbol,
      side,
      timeInForce: timeInForce as TimeInForce,
      price: price.value,
      quantity: quantity.value,
      priceText: price.text,
      quantityText: quantity.text,
    });
    const ack = { message: 'Command acknowledged - CreateOrder', requestId: digits(18) };
    return ok(on('ack-without-order-id') ? { ...ack, id: order.orderId } : { ...ack, orderId: order.orderId });
  }

  /** The cancel command as settings.order.cancel shapes it: placeholders name the order, other members are constants. */
  function cancel(session: Session, body: unknown): Reply {
    if (!isObject(body)) return refuse('BAD_REQUEST', 'The command must be a JSON object.').reply();
    let orderId: string | undefined;
    const named: { symbol?: unknown; tradingAccountId?: unknown } = {};
    for (const [name, value] of Object.entries(orderSettings.cancel)) {
      const given = body[name];
      if (value === '{orderId}') orderId = typeof given === 'number' ? String(given) : typeof given === 'string' ? given : undefined;
      else if (value === '{symbol}') named.symbol = given;
      else if (value === '{tradingAccountId}') named.tradingAccountId = typeof given === 'number' ? String(given) : given;
      else if (given !== value) return refuse('BAD_REQUEST', `${name} must be ${JSON.stringify(value)}.`).reply();
    }
    if (orderId === undefined) return refuse('BAD_REQUEST', 'The command names no order.').reply();
    const order = exchange.order(orderId);
    if (!order || order.userId !== session.userId) return refuse('ORDER_NOT_FOUND', 'No such order.').reply();
    if ('symbol' in named && named.symbol !== order.symbol) return refuse('BAD_REQUEST', 'The symbol is not the order\'s.').reply();
    if ('tradingAccountId' in named && named.tradingAccountId !== order.tradingAccountId) return refuse('BAD_REQUEST', 'The trading account is not the order\'s.').reply();
    if (!exchange.cancel(order)) return refuse('ORDER_NOT_OPEN', 'The order is no longer open.').reply();
    return ok({ message: 'Command acknowledged - CancelOrder', requestId: digits(18), orderId: order.orderId });
  }

  /** When a profile sends cancellations to the order path, the command type tells them from new orders. */
  function submitOrCancel(session: Session, body: unknown): Reply {
    const cancelType = orderSettings.cancel.commandType;
    return cancelType !== undefined && isObject(body) && body.commandType === cancelType ? cancel(session, body) : submit(session, body);
  }

  // ---- routes --------------------------------------------------------------------------------------------------

  const { paths } = settings;
  const routes: Array<[method: 'GET' | 'POST', path: string, handler: Handler]> = [
    ['POST', KEY_CREATION_PATH, createKey],
    ['POST', paths.ecdsaLogin, ecdsaLogin],
    ['GET', paths.hmacLogin, hmacLogin],
    ['GET', paths.tradingAccounts, tradingAccounts],
    ['GET', paths.nonce, nonceRange],
    ['GET', paths.order, lookup],
  ];
  if (paths.command === paths.orders) routes.push(['POST', paths.orders, write(submitOrCancel)]);
  else {
    routes.push(['POST', paths.orders, write(submit)]);
    if (paths.command) routes.push(['POST', paths.command, write(cancel)]);
  }
  if (paths.custody) routes.push(['GET', paths.custody, custody]);

  const notFound = (res: http.ServerResponse) => {
    const { status, body } = refuse('NOT_FOUND', 'No such operation.').reply();
    sendJson(res, status, body);
  };
  const router = Router({ defaultRoute: (_req, res) => notFound(res) });
  const taken = new Map<string, string>();
  for (const [method, path, handler] of routes) {
    const pattern = routePattern(path);
    const slot = `${method} ${pattern}`;
    if (taken.has(slot)) throw new Error(`exchange-session reference: ${method} ${path} is configured twice (settings.paths)`);
    taken.set(slot, path);
    router.on(method, pattern, (req, res, params) => {
      handler(req, params).then(
        ({ status, body, headers }) => sendJson(res, status, body, headers),
        () => {
          if (res.headersSent) return res.destroy();
          const { status, body } = refuse('INTERNAL_ERROR', 'Unexpected error.').reply();
          sendJson(res, status, body);
        },
      );
    });
  }

  const server = http.createServer((req, res) => router.lookup(req, res));
  return listen(server, options.host, options.port);
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
    return refuse('BAD_REQUEST', 'The body is not valid JSON.');
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
