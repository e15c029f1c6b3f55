// Embedded reference of Interface C: the game-server bridge (/v2/...).
// Written from the document alone; it never imports the suite's model.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import Router from 'find-my-way';
import type { components } from '../../generated/game-bridge.js';
import { faults } from './faults.js';
import { faultSwitch, listen, readBody, sendJson } from '../plumbing.js';
import type { RunningServer as BaseRunningServer } from '../types.js';
import type { BridgeSettings } from '../../harness/profile/types.js';

type Schemas = components['schemas'];
type DocumentedError = Schemas['ErrorBadRequest'] | Schemas['ErrorUnauthorized'] | Schemas['ErrorForbidden'] | Schemas['ErrorMethodNotAllowed'];
// Codes of answers the document does not describe (unknown paths, oversized bodies, some faults).
type ErrorCode = DocumentedError['error'] | 'not_found' | 'payload_too_large' | 'unsupported_media_type';

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

export async function start(options: StartOptions): Promise<RunningServer> {
  const { fault, settings } = options;
  const on = faultSwitch(faults, 'game-bridge', fault);

  const key = options.secrets.authKey;
  if (!key) throw new Error('game-bridge reference: no authKey credential (auth.key has no default)');
  const reference = options.reference ?? {};
  const checkOrder = reference.checkOrder ?? ['auth', 'method', 'enabled'];
  const game = reference.game ?? '1.21.4';
  const version = reference.version ?? '2.0.0';
  const platform = (settings.platform ?? 'paper').toLowerCase();
  const online = Array.from({ length: settings.onlinePlayers ?? 0 }, (_, i) => `Player${String(i + 1).padStart(3, '0')}`);
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
    return given === key;
  }

  function authRefusal(req: http.IncomingMessage): Reply | undefined {
    const given = givenKey(req);
    if (keyAccepted(given)) return undefined;
    if (on('auth-wrong-key-403') && given !== undefined) return error(403, 'forbidden', 'Invalid X-Auth-Key');
    return error(401, 'unauthorized', on('auth-message-text') ? 'Unauthorized' : 'Invalid X-Auth-Key');
  }

  function methodRefusal(req: http.IncomingMessage, route: Route): Reply | undefined {
    if (req.method === route.method) return undefined;
    if (on('wrong-method-404')) return notFound();
    const message = route.method === 'POST' && !on('log-405-use-get') ? 'Use POST' : 'Use GET';
    const reply = error(405, 'method_not_allowed', message);
    // RFC 9110 requires Allow on a 405; the document is silent, so it costs nothing to be correct.
    return { ...reply, headers: { ...reply.headers, allow: route.method } };
  }

  function enabledRefusal(route: Route): Reply | undefined {
    if (route.name === 'tps') return undefined; // no switch is documented for it
    if (settings.endpoints[route.name] || (route.name === 'players' && on('players-disabled-ignored'))) return undefined;
    return on('disabled-404') ? notFound() : error(403, 'forbidden', `v2 ${route.name} disabled`);
  }

  function writeLog(req: http.IncomingMessage, raw: string): Reply {
    if (on('log-requires-content-type') && !/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return error(415, 'unsupported_media_type', 'Content-Type must be application/json');
    }
    // A body that is not a JSON object has no field message, so it gets the same 400 as a missing one.
    let parsed: unknown;
    if (raw.trim() !== '') {
      try {
        parsed = JSON.parse(raw);
      } catch (e) {
        if (on('log-not-json-500')) throw e;
        if (on('log-not-json-422')) return error(422, 'bad_request', 'Body is not valid JSON');
      }
    }
    const fields: Record<string, unknown> = isObject(parsed) ? parsed : {};
    const missing = () => error(400, 'bad_request', 'Missing field: message');
    if (!('message' in fields) && !on('log-missing-message-accepted')) return missing();
    if (fields.message === '' && on('log-empty-message-refused')) return missing();
    if (fields.level == null && on('log-level-required')) return error(400, 'bad_request', 'Missing field: level');

    const level = fields.level == null ? 'info' : String(fields.level);
    if (on('log-unknown-level-refused') && !COMMON_LEVELS.includes(level.toLowerCase())) {
      return error(400, 'bad_request', `Unknown level: ${level}`);
    }
    // A message that is present but not a string is not shown by the document; it is logged as its JSON text.
    const message = typeof fields.message === 'string' ? fields.message : (JSON.stringify(fields.message) ?? '');
    if (reference.writeTripwire) {
      return { status: 500, body: 'tripwire: a console write reached a deployment whose profile forbids writes', headers: { 'content-type': 'text/plain' } };
    }
    consoleLines.push({ level: level.toUpperCase(), message });
    const body: Schemas['LogResponse'] = { ok: true };
    return { status: on('log-202-accepted') ? 202 : 200, body: on('log-ok-string') ? { ok: 'true' } : body };
  }

  function status(): Reply {
    if (on('status-204-no-content')) return { status: 204 };
    const body: Schemas['StatusResponse'] = { ok: true };
    return { status: 200, body: on('status-extra-data') ? { ...body, online: online.length, uptimeSeconds: Math.round(process.uptime()) } : body };
  }

  function players(): Reply {
    const listed = on('players-not-truncated') ? online : online.slice(0, settings.maxList);
    const body: Schemas['PlayersResponse'] = { ok: true, count: on('players-count-truncated') ? listed.length : online.length, players: listed };
    if (on('reads-without-ok')) return { status: 200, body: { count: body.count, players: body.players } };
    return { status: 200, body: on('players-count-string') ? { ...body, count: String(body.count) } : body };
  }

  function info(): Reply {
    let reported = platform;
    if (on('info-platform-uppercase')) reported = platform.toUpperCase();
    if (on('info-platform-with-version')) reported = `${platform}-${game}`.toLowerCase();
    const body: Schemas['InfoResponse'] = { ok: true, bridge: { version, platform: reported, game } };
    if (on('info-without-game')) return { status: 200, body: { ...body, bridge: { version, platform: reported } } };
    if (on('reads-without-ok')) return { status: 200, body: { bridge: body.bridge } };
    return { status: 200, body };
  }

  // The contract is not shown; recent ticks per second over 1, 5 and 15 minutes is what such bridges report.
  const tps = (): Reply => ({ status: 200, body: { ok: true, tps: [20, 20, 20] } });

  const routes: Route[] = [
    { path: '/v2/log', method: 'POST', name: 'log', handle: writeLog },
    { path: '/v2/status', method: 'GET', name: 'status', handle: status },
    { path: '/v2/players', method: 'GET', name: 'players', handle: players },
    { path: '/v2/info', method: 'GET', name: 'info', handle: info },
    { path: '/v2/tps', method: 'GET', name: 'tps', handle: tps },
  ];

  async function answer(req: http.IncomingMessage, route: Route | undefined): Promise<Reply> {
    const query = (req.url ?? '').split('?')[1] ?? '';
    // Decoding the query string by hand throws on a malformed escape ("%zz"); a framework may redirect to a cleaned URL.
    if (on('odd-query-500') && query) decodeURIComponent(query);
    if (on('odd-query-redirect') && query && !isDecodable(query)) return { status: 301, headers: { location: (req.url ?? '').split('?')[0] } };
    if (on('trailing-slash-redirect') && route) return { status: 308, headers: { location: `${route.path}/` } };
    // The document says every request needs the key, so an unknown path is refused before it is reported missing.
    if (!route) return authRefusal(req) ?? notFound();
    let early: string | undefined;
    if (reference.bodyFirst && route.name === 'log') {
      early = await readBody(req);
      if (early !== undefined && !hasMessage(early)) return error(400, 'bad_request', 'Missing field: message');
    }
    for (const check of checkOrder) {
      const refusal = check === 'auth' ? authRefusal(req) : check === 'method' ? methodRefusal(req, route) : enabledRefusal(route);
      if (refusal) return refusal;
    }
    const raw = early ?? (route.method === 'POST' ? await readBody(req) : '');
    if (raw === undefined) return error(413, 'payload_too_large', 'Request body too large');
    return route.handle(req, raw);
  }

  function serve(req: http.IncomingMessage, res: http.ServerResponse, route: Route | undefined) {
    answer(req, route).then(
      (reply) => send(res, reply, on('success-text-plain')),
      // An exception escaping a handler becomes the bare 500 of the server framework.
      () => (res.headersSent ? res.destroy() : send(res, { status: 500, body: 'Internal Server Error', headers: { 'content-type': 'text/plain' } })),
    );
  }

  const router = Router({ defaultRoute: (req, res) => serve(req, res, undefined) });
  for (const route of routes) {
    if (route.name === 'tps' && on('tps-not-registered')) continue;
    // Every method reaches the route: the method check is one of the ordered checks, not the router's job.
    router.all(route.path, (req, res) => serve(req, res, route));
  }

  const server = http.createServer((req, res) => router.lookup(req, res));
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
  }
  const running = await listen(server, options.host, options.port);
  return { ...running, consoleLines };
}

function isDecodable(query: string): boolean {
  try {
    decodeURIComponent(query);
    return true;
  } catch {
    return false;
  }
}

function hasMessage(raw: string): boolean {
  try {
    const parsed: unknown = JSON.parse(raw);
    return isObject(parsed) && 'message' in parsed;
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function send(res: http.ServerResponse, reply: Reply, successAsText = false) {
  if (reply.body === undefined) {
    res.writeHead(reply.status, reply.headers ?? {});
    res.end();
    return;
  }
  const contentType = successAsText && reply.status < 300 ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
  sendJson(res, reply.status, reply.body, { 'content-type': contentType, ...reply.headers });
}
