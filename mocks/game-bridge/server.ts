// Embedded reference of Interface C: the game-server bridge (/v2/...).
// Written from the document alone; it never imports the suite's model.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import Router from 'find-my-way';
import type { components } from '../../generated/game-bridge.js';
import { faults } from './faults.js';
import { readings } from './readings.js';
import { MAX_BODY_BYTES, faultSwitch, listen, readBody, sendJson } from '../plumbing.js';
import { readingSwitch } from '../readings.js';
import type { RunningServer as BaseRunningServer } from '../types.js';
import type { BridgeSettings } from '../../harness/profile/types.js';

type Schemas = components['schemas'];
type DocumentedError = Schemas['ErrorBadRequest'] | Schemas['ErrorUnauthorized'] | Schemas['ErrorForbidden'] | Schemas['ErrorMethodNotAllowed'];
// Codes of answers the document does not describe (unknown paths, oversized bodies, some faults and readings).
type ErrorCode =
  | DocumentedError['error']
  | 'not_found'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable_entity'
  | 'too_many_requests'
  | 'not_implemented';

export type EndpointName = 'log' | 'status' | 'players' | 'info';
export type Check = 'auth' | 'method' | 'enabled';

export type { BridgeSettings };

export interface BridgeReferenceOptions {
  game?: string;
  version?: string;
  /** The document does not say which refusal wins when several apply; the reference checks in this order. */
  checkOrder?: Check[];
  /** Validate the /v2/log body before any of those checks (another order the document allows). */
  bodyFirst?: boolean;
  /**
   * Stands for a deployment the harness must not write to: a log line that would be written is answered 500
   * instead, so that a run which sends one fails. Used by the read-only reference profile.
   */
  writeTripwire?: boolean;
  /** A front limiter (C-NS-RATE-LIMITS, reading per-client-429): at most `requests` per client address per window. */
  rateLimit?: { requests: number; windowMs: number };
  /** The readings of the spec's open points this reference takes (point -> reading; mocks/game-bridge/readings.ts). */
  readings?: Readonly<Record<string, string>>;
}

export interface StartOptions {
  settings: BridgeSettings;
  reference?: BridgeReferenceOptions;
  /** The profile's credentials by name: authKey is auth.key of config.yaml. */
  secrets: Record<string, string>;
  fault?: string;
  host?: string;
  port?: number;
}

export interface ConsoleLine {
  level: string;
  message: string;
}

export interface RunningServer extends BaseRunningServer {
  /** What POST /v2/log wrote to the game-server console, oldest first (for debugging; not visible over HTTP). */
  consoleLines: readonly ConsoleLine[];
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Route {
  path: string;
  method: 'GET' | 'POST';
  name: EndpointName | 'tps';
  handle(req: http.IncomingMessage, raw: string): Reply;
}

const COMMON_LEVELS = ['info', 'warn', 'error', 'debug'];
// A JSON media type: application/json or a structured-syntax "+json" type, with any parameters.
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

export async function start(options: StartOptions): Promise<RunningServer> {
  const { fault, settings } = options;
  const on = faultSwitch(faults, 'game-bridge', fault);
  // Where the document is silent, the reading this deployment takes (specs/game-bridge.yaml, x-not-shown).
  const reading = readingSwitch(readings, 'game-bridge', options.reference?.readings);

  const key = options.secrets.authKey;
  if (!key) throw new Error('game-bridge reference: no authKey credential (auth.key has no default)');
  const reference = options.reference ?? {};
  const checkOrder = reference.checkOrder ?? ['auth', 'method', 'enabled'];
  const game = reference.game ?? '1.21.4';
  const version = reference.version ?? '2.0.0';
  const platform = (settings.platform ?? 'paper').toLowerCase();
  // Display names may carry the rank prefix a chat plugin sets (C-NS-PLAYER-NAMES); by default they are the account names.
  const displayNames = reading('C-NS-PLAYER-NAMES') === 'display-names';
  const online = Array.from({ length: settings.onlinePlayers ?? 0 }, (_, i) => {
    const name = `Player${String(i + 1).padStart(3, '0')}`;
    return displayNames && (i + 1) % 4 === 0 ? `[VIP] ${name}` : name;
  });
  const slots = Math.max(100, online.length);
  const extraMembers = reading('C-NS-SUCCESS-MEMBERS') === 'extra-members';
  const genericTexts = reading('C-NS-MESSAGE-TEXTS') === 'generic-texts';
  // Express's json() takes 100 kB by default; this reference takes 1 MiB.
  const bodyLimit = reading('C-NS-BODY-LIMIT') === 'limit-100kb-413' ? 100 * 1024 : MAX_BODY_BYTES;
  const jsonType = reading('C-NS-RESPONSE-MEDIA-TYPE') === 'json-without-charset' ? 'application/json' : 'application/json; charset=utf-8';
  const consoleLines: ConsoleLine[] = [];

  function error(status: number, code: ErrorCode, message: string): Reply {
    const body = on('error-body-without-ok') ? { error: code, message } : { ok: false, error: code, message };
    return { status, body, headers: on('error-text-plain') ? { 'content-type': 'text/plain; charset=utf-8' } : {} };
  }
  const notFound = () => error(404, 'not_found', 'Not found');

  function givenKey(req: http.IncomingMessage): string | undefined {
    if (on('auth-header-name-case-sensitive')) {
      for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i] === 'X-Auth-Key') return req.rawHeaders[i + 1];
      return undefined;
    }
    const value = req.headers['x-auth-key'];
    return typeof value === 'string' ? value : undefined;
  }

  function keyAccepted(given: string | undefined): boolean {
    if (given === undefined) return on('auth-missing-key-accepted');
    if (on('auth-key-case-insensitive')) return given.toLowerCase() === key.toLowerCase();
    if (on('auth-key-prefix')) return given.length > 0 && key.startsWith(given);
    if (on('auth-any-key-accepted')) return given.length > 0;
    return given === key;
  }

  function authRefusal(req: http.IncomingMessage): Reply | undefined {
    const given = givenKey(req);
    if (keyAccepted(given)) return undefined;
    if (on('auth-wrong-key-403') && given !== undefined) return error(403, 'forbidden', 'Invalid X-Auth-Key');
    return error(401, 'unauthorized', on('auth-message-text') ? 'Unauthorized' : 'Invalid X-Auth-Key');
  }

  /** The methods a path serves, as its Allow header names them. */
  function allowed(route: Route): string {
    const methods: string[] = [route.method];
    if (route.method === 'GET' && reading('C-NS-HEAD') === 'head-as-get') methods.push('HEAD');
    if (reading('C-NS-OPTIONS') === 'options-204-before-key') methods.push('OPTIONS');
    return methods.join(', ');
  }

  function methodRefusal(method: string | undefined, route: Route): Reply | undefined {
    if (method === route.method) return undefined;
    // Express, Spring and Go's ServeMux answer HEAD on a GET route as that GET without its body (C-NS-HEAD).
    if (method === 'HEAD' && route.method === 'GET' && reading('C-NS-HEAD') === 'head-as-get') return undefined;
    if (on('wrong-method-404')) return notFound();
    let message = route.method === 'POST' && !on('log-405-use-get') ? 'Use POST' : 'Use GET';
    if (genericTexts && route.method === 'GET') message = 'Method not allowed';
    const reply = error(405, 'method_not_allowed', message);
    // RFC 9110 requires Allow on a 405; the document is silent, so it costs nothing to be correct.
    if (reading('C-NS-ALLOW-HEADER') === 'no-allow-header') return reply;
    return { ...reply, headers: { ...reply.headers, allow: allowed(route) } };
  }

  function enabledRefusal(route: Route, req: http.IncomingMessage): Reply | undefined {
    // No switch is documented for GET /v2/tps; a deployment may give it one of its own, switched off (C-NS-TPS).
    if (route.name === 'tps') return reading('C-NS-TPS') === 'switched-off' ? error(403, 'forbidden', genericTexts ? 'Endpoint disabled' : 'v2 tps disabled') : undefined;
    if (settings.endpoints[route.name] || (route.name === 'players' && on('players-disabled-ignored'))) return undefined;
    if (on('disabled-404')) return notFound();
    if (on('disabled-404-html')) return frameworkPage(req);
    return error(403, 'forbidden', genericTexts && route.name !== 'log' ? 'Endpoint disabled' : `v2 ${route.name} disabled`);
  }

  /** The members of a /v2/log body, or the refusal of a body that cannot give any. */
  function logFields(req: http.IncomingMessage, raw: string): { fields: Record<string, unknown> } | { refusal: Reply } {
    const type = req.headers['content-type'];
    const asked = reading('C-NS-CONTENT-TYPE');
    // Content-Type is only recommended (C-NS-CONTENT-TYPE): by default the body is read as JSON whatever it says.
    if (type !== undefined && !JSON_MEDIA_TYPE.test(type)) {
      if (asked === 'other-type-415') return { refusal: error(415, 'unsupported_media_type', 'Content-Type must be application/json') };
      // Express's express.json() leaves a body of another type unparsed: the handler sees no message.
      if (asked === 'other-type-unparsed' || asked === 'json-type-required') return { fields: {} };
    }
    if (type === undefined && asked === 'json-type-required') return { fields: {} };
    // A body that is not a JSON object has no field message, so by default it gets the same 400 as a missing one.
    if (raw.trim() === '') return { fields: {} };
    const malformed = reading('C-NS-MALFORMED-BODY') === 'invalid-json-message';
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (e) {
      if (on('log-not-json-500')) throw e;
      if (on('log-not-json-422')) return { refusal: error(422, 'bad_request', 'Body is not valid JSON') };
      return malformed ? { refusal: error(400, 'bad_request', 'Invalid JSON body') } : { fields: {} };
    }
    if (!isObject(parsed) && malformed) return { refusal: error(400, 'bad_request', 'Body must be a JSON object') };
    return { fields: isObject(parsed) ? parsed : {} };
  }

  function writeLog(req: http.IncomingMessage, raw: string): Reply {
    if (on('log-requires-content-type') && !/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return error(415, 'unsupported_media_type', 'Content-Type must be application/json');
    }
    const read = logFields(req, raw);
    if ('refusal' in read) return read.refusal;
    const { fields } = read;
    const missing = () => error(400, 'bad_request', 'Missing field: message');
    if (!('message' in fields) && !on('log-missing-message-accepted')) return missing();
    if (fields.message === '' && on('log-empty-message-refused')) return missing();
    if (fields.level == null && on('log-level-required')) return error(400, 'bad_request', 'Missing field: level');
    // A message or level present but not a string is not shown by the document (C-NS-MESSAGE-TYPE, C-NS-LEVEL-TYPE):
    // by default it is written as its JSON text; a typed body (a DTO, a schema) refuses it with a status other than 400.
    if ('message' in fields && typeof fields.message !== 'string' && reading('C-NS-MESSAGE-TYPE') === 'refused-422') {
      return error(422, 'unprocessable_entity', 'Field message must be a string');
    }
    if (fields.level != null && typeof fields.level !== 'string' && reading('C-NS-LEVEL-TYPE') === 'refused-422') {
      return error(422, 'unprocessable_entity', 'Field level must be a string');
    }

    if (fields.level === null && on('log-null-level-500')) throw new TypeError("Cannot read properties of null (reading 'toUpperCase')");
    const level = fields.level == null ? 'info' : String(fields.level);
    if (on('log-unknown-level-refused') && !COMMON_LEVELS.includes(level.toLowerCase())) {
      return error(400, 'bad_request', `Unknown level: ${level}`);
    }
    const message = typeof fields.message === 'string' ? fields.message : (JSON.stringify(fields.message) ?? '');
    if (reference.writeTripwire) {
      return { status: 500, body: 'tripwire: a console write reached a deployment whose profile forbids writes', headers: { 'content-type': 'text/plain' } };
    }
    consoleLines.push({ level: level.toUpperCase(), message });
    const body: Schemas['LogResponse'] = { ok: true };
    const answered = extraMembers ? { ...body, level: level.toUpperCase() } : body;
    return { status: on('log-202-accepted') ? 202 : 200, body: on('log-ok-string') ? { ok: 'true' } : answered };
  }

  function status(): Reply {
    if (on('status-204-no-content')) return { status: 204 };
    const body: Schemas['StatusResponse'] = { ok: true };
    return { status: 200, body: on('status-extra-data') ? { ...body, online: online.length, uptimeSeconds: Math.round(process.uptime()) } : body };
  }

  let playerReads = 0;
  function players(req: http.IncomingMessage): Reply {
    // A second key check in the handler, against a copy of auth.key it never loaded: every key is wrong there.
    if (on('players-key-refused')) return error(401, 'unauthorized', 'Invalid X-Auth-Key');
    // A bridge on a proxy in front of several backend servers lists the players of the one named (C-NS-EXTRA-INPUT).
    if (reading('C-NS-EXTRA-INPUT') === 'server-parameter' && !new URLSearchParams(queryOf(req)).get('server')) {
      return error(400, 'bad_request', 'Missing query parameter: server');
    }
    // A collection backed by a hash map has no stable order: each read may list the players differently (C-NS-PLAYER-ORDER).
    const collection = reading('C-NS-PLAYER-ORDER') === 'unordered' ? shuffled(online, ++playerReads) : online;
    const listed = on('players-not-truncated') ? collection : collection.slice(0, settings.maxList);
    const body: Schemas['PlayersResponse'] = { ok: true, count: on('players-count-truncated') ? listed.length : online.length, players: listed };
    if (on('reads-without-ok')) return { status: 200, body: { count: body.count, players: body.players } };
    const extra = extraMembers ? { maxPlayers: slots } : {};
    return { status: 200, body: on('players-count-string') ? { ...body, count: String(body.count), ...extra } : { ...body, ...extra } };
  }

  function info(): Reply {
    let reported = platform;
    if (on('info-platform-uppercase')) reported = platform.toUpperCase();
    if (on('info-platform-with-version')) reported = `${platform}-${game}`.toLowerCase();
    const bridge = { version, platform: reported, game, ...(extraMembers ? { api: 'v2' } : {}) };
    const body: Schemas['InfoResponse'] = { ok: true, bridge };
    if (on('info-without-game')) return { status: 200, body: { ...body, bridge: { version, platform: reported } } };
    if (on('reads-without-ok')) return { status: 200, body: { bridge: body.bridge } };
    return { status: 200, body };
  }

  // The contract is not shown; recent ticks per second over 1, 5 and 15 minutes is what such bridges report (or one
  // value, C-NS-TPS).
  const tps = (): Reply => on('tps-500') ? { status: 500, body: { ok: false, error: 'internal_error', message: 'Internal Server Error' } } : ({ status: 200, body: { ok: true, tps: reading('C-NS-TPS') === 'single-value' ? 20 : [20, 20, 20] } });

  const routes: Route[] = [
    { path: '/v2/log', method: 'POST', name: 'log', handle: writeLog },
    { path: '/v2/status', method: 'GET', name: 'status', handle: status },
    { path: '/v2/players', method: 'GET', name: 'players', handle: players },
    { path: '/v2/info', method: 'GET', name: 'info', handle: info },
    { path: '/v2/tps', method: 'GET', name: 'tps', handle: tps },
  ];
  const registered = routes.filter((route) => !(route.name === 'tps' && on('tps-not-registered')));

  // A front limiter, per client address over a sliding window (C-NS-RATE-LIMITS); none unless the reference is told.
  const stamps = new Map<string, number[]>();
  function throttled(req: http.IncomingMessage): Reply | undefined {
    const limit = reference.rateLimit;
    if (!limit) return undefined;
    const now = Date.now();
    const who = req.socket.remoteAddress ?? '';
    const inWindow = (stamps.get(who) ?? []).filter((t) => t > now - limit.windowMs);
    stamps.set(who, inWindow);
    if (inWindow.length < limit.requests) {
      inWindow.push(now);
      return undefined;
    }
    const reply = error(429, 'too_many_requests', 'Too many requests');
    const retryAfter = Math.max(1, Math.ceil((inWindow[0] + limit.windowMs - now) / 1000));
    return { ...reply, headers: { ...reply.headers, 'retry-after': String(retryAfter) } };
  }

  function unknownPath(req: http.IncomingMessage): Reply {
    const asked = reading('C-NS-UNKNOWN-PATHS');
    // The document says every request needs the key, so by default an unknown path is refused before it is reported missing.
    if (asked === 'key-first-404') return authRefusal(req) ?? notFound();
    if (asked === 'not-found-before-key') return notFound();
    return frameworkPage(req);
  }

  /** Express's final handler: its own HTML page, before any of the bridge's middleware ran. */
  function frameworkPage(req: http.IncomingMessage): Reply {
    const page = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot ${escapeHtml(req.method ?? '')} ${escapeHtml(pathOf(req.url))}</pre>\n</body>\n</html>\n`;
    return { status: 404, body: page, headers: { 'content-type': 'text/html; charset=utf-8' } };
  }

  async function answer(req: http.IncomingMessage, route: Route | undefined): Promise<Reply> {
    const query = queryOf(req);
    // Decoding the query string by hand throws on a malformed escape ("%zz"); a framework may redirect to a cleaned URL.
    if (on('odd-query-500') && query) decodeURIComponent(query);
    if (on('odd-query-redirect') && query && !isDecodable(query)) return { status: 301, headers: { location: (req.url ?? '').split('?')[0] } };
    const limited = throttled(req);
    if (limited) return limited;
    // A CORS-minded stack answers OPTIONS itself, before the bridge's checks (C-NS-OPTIONS).
    if (route && req.method === 'OPTIONS' && reading('C-NS-OPTIONS') === 'options-204-before-key') return { status: 204, headers: { allow: allowed(route) } };
    if (!route) return unknownPath(req);
    let early: string | undefined;
    if (reference.bodyFirst && route.name === 'log') {
      early = await readBody(req, bodyLimit);
      if (early !== undefined) {
        const read = logFields(req, early);
        if ('refusal' in read) return read.refusal;
        if (!('message' in read.fields)) return error(400, 'bad_request', 'Missing field: message');
      }
    }
    for (const check of checkOrder) {
      const refusal = check === 'auth' ? authRefusal(req) : check === 'method' ? methodRefusal(req.method, route) : enabledRefusal(route, req);
      if (refusal) return refusal;
    }
    const raw = early ?? (route.method === 'POST' ? await readBody(req, bodyLimit) : '');
    if (raw === undefined) return error(413, 'payload_too_large', 'Request body too large');
    return route.handle(req, raw);
  }

  /** Error bodies with what Spring Boot's error attributes add (C-NS-ERROR-MEMBERS); by default only the documented three. */
  function decorated(reply: Reply, url: string | undefined): Reply {
    if (reading('C-NS-ERROR-MEMBERS') !== 'status-path-timestamp' || reply.status < 400 || !isObject(reply.body) || !('error' in reply.body)) return reply;
    return { ...reply, body: { ...reply.body, status: reply.status, path: pathOf(url), timestamp: new Date().toISOString() } };
  }

  function serve(req: http.IncomingMessage, res: http.ServerResponse, route: Route | undefined) {
    answer(req, route).then(
      (reply) => send(res, decorated(reply, req.url), jsonType, on('success-text-plain')),
      // An exception escaping a handler becomes the bare 500 of the server framework.
      () => (res.headersSent ? res.destroy() : send(res, { status: 500, body: 'Internal Server Error', headers: { 'content-type': 'text/plain' } }, jsonType)),
    );
  }

  // A path the router does not know: with a trailing slash, a router may serve or redirect it as its route (C-NS-TRAILING-SLASH).
  function unrouted(req: http.IncomingMessage, res: http.ServerResponse) {
    const path = pathOf(req.url);
    const canonical = path.length > 1 && path.endsWith('/') ? registered.find((r) => r.path === path.slice(0, -1)) : undefined;
    const asked = reading('C-NS-TRAILING-SLASH');
    if (canonical && asked === 'same-route') return serve(req, res, canonical);
    if (canonical && asked === 'redirect-to-canonical') {
      // Gin's RedirectTrailingSlash: 301 for GET, 307/308 for the others, before any middleware.
      const query = queryOf(req);
      const location = canonical.path + (query ? `?${query}` : '');
      return send(res, { status: req.method === 'GET' || req.method === 'HEAD' ? 301 : 308, headers: { location } }, jsonType);
    }
    serve(req, res, undefined);
  }

  const router = Router({ defaultRoute: unrouted });
  for (const route of registered) {
    // Every method reaches the route: the method check is one of the ordered checks, not the router's job.
    router.all(route.path, (req, res) => serve(req, res, route));
  }

  const server = http.createServer((req, res) => router.lookup(req, res));
  const methodCase = reading('C-NS-METHOD-CASE');
  if (on('method-case-insensitive')) {
    // Node's parser refuses "get" (methods are case-sensitive); this bridge's front upper-cases it and serves it as GET.
    server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
      if (err.code !== 'HPE_INVALID_METHOD' || !err.rawPacket) return socket.destroy();
      const raw = err.rawPacket.toString('latin1');
      const space = raw.indexOf(' ');
      const fixed = Buffer.from(raw.slice(0, space).toUpperCase() + raw.slice(space), 'latin1');
      const { port } = server.address() as AddressInfo;
      const upstream = net.connect(port, '127.0.0.1', () => upstream.end(fixed));
      upstream.pipe(socket);
      upstream.on('error', () => socket.destroy());
    });
  } else if (methodCase !== 'parser-400') {
    // By default Node's parser refuses a method in another letter case ("get") with a bare 400 (C-NS-METHOD-CASE). A
    // server whose parser takes any method token (Go, Jetty, Netty) hands it on: the bridge's method check answers 405,
    // or the server answers 501 for a method it does not implement.
    server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: net.Socket) => {
      if (err.code !== 'HPE_INVALID_METHOD' || !err.rawPacket) return nodeClientError(err, socket);
      const [line = '', ...headerLines] = err.rawPacket.toString('latin1').split('\r\n\r\n')[0].split('\r\n');
      const [method = '', target = '/'] = line.split(' ');
      let reply: Reply | undefined;
      if (methodCase === 'not-implemented-501') reply = error(501, 'not_implemented', `Method ${method} is not implemented`);
      else {
        // The bridge's own checks, in their order, on what the parser would have handed on.
        const req = requestLike(method, target, headerLines);
        const route = registered.find((r) => r.path === pathOf(target));
        if (!route) reply = unknownPath(req);
        for (const check of route ? checkOrder : []) {
          reply = check === 'auth' ? authRefusal(req) : check === 'method' ? methodRefusal(method, route!) : enabledRefusal(route!, req);
          if (reply) break;
        }
      }
      reply ??= error(405, 'method_not_allowed', 'Use GET');
      if (socket.writable) socket.end(rawResponse(decorated(reply, target), jsonType));
      else socket.destroy();
    });
  }
  const running = await listen(server, options.host, options.port);
  return { ...running, consoleLines };
}

function pathOf(url: string | undefined): string {
  return (url ?? '').split('?')[0];
}

function queryOf(req: http.IncomingMessage): string {
  return (req.url ?? '').split('?')[1] ?? '';
}

function isDecodable(query: string): boolean {
  try {
    decodeURIComponent(query);
    return true;
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The list in an order that changes with the seed, as a hash set's iteration order changes with its contents. */
function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  let state = (seed * 0x9e3779b9) >>> 0;
  const next = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The parts of a request the bridge's checks read (its method, target and headers), from a request line Node refused. */
function requestLike(method: string, target: string, headerLines: readonly string[]): http.IncomingMessage {
  const rawHeaders: string[] = [];
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1).trim();
    rawHeaders.push(name, value);
    headers[name.toLowerCase()] ??= value;
  }
  return { method, url: target, headers, rawHeaders } as unknown as http.IncomingMessage;
}

/** What Node answers a request its parser refuses when no clientError listener is registered. */
function nodeClientError(err: NodeJS.ErrnoException, socket: net.Socket) {
  if (err.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
}

/** A reply written on a raw socket (a request Node's parser refused), closing the connection. */
function rawResponse(reply: Reply, jsonType: string): string {
  const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const headers: Record<string, string> = { 'content-type': jsonType, ...reply.headers, 'content-length': String(Buffer.byteLength(text)), connection: 'close' };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${reply.status} ${http.STATUS_CODES[reply.status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${text}`;
}

function send(res: http.ServerResponse, reply: Reply, jsonType: string, successAsText = false) {
  if (reply.body === undefined) {
    res.writeHead(reply.status, reply.headers ?? {});
    res.end();
    return;
  }
  const contentType = successAsText && reply.status < 300 ? 'text/plain; charset=utf-8' : jsonType;
  sendJson(res, reply.status, reply.body, { 'content-type': contentType, ...reply.headers });
}
