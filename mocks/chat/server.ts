// Embedded reference of Interface E: POST /api/chat behind an in-memory sliding-window rate limiter.
// Written from the document alone; it never imports the suite's model.
import http from 'node:http';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import Router from 'find-my-way';
import type { components } from '../../generated/chat.js';
import { faults } from './faults.js';
import { API_KEY_CREDENTIAL, MODEL_LATENCY_MS, READING_API_VERSION, readings } from './readings.js';
import { MAX_BODY_BYTES, faultSwitch, listen, readBody, sendJson } from '../plumbing.js';
import { readingSwitch } from '../readings.js';
import type { ChatSettings } from '../../harness/profile/types.js';
import type { RunningServer } from '../types.js';

type ChatRequest = components['schemas']['ChatRequest'];
type TooManyRequests = components['schemas']['TooManyRequests'];

export type { ChatSettings };

export interface ChatReferenceOptions {
  cleanupIntervalMs?: number;
  /**
   * "In development mode localhost connections are allowed" read one of two ways: 'client-id' exempts a client whose
   * identifier (from X-Forwarded-For, X-Real-IP or the socket) is a loopback address; 'connection' exempts every
   * request that arrives over a loopback connection, whatever its headers say.
   */
  developmentModeReading?: 'client-id' | 'connection';
  /** The readings of the spec's open points the reference takes (point -> reading); see ./readings.ts. */
  readings?: Readonly<Record<string, string>>;
}

export interface StartOptions {
  settings: ChatSettings;
  reference: ChatReferenceOptions;
  secrets: Record<string, string>;
  fault?: string;
  host?: string;
  port?: number;
}

export type { RunningServer };

/** The fixed Spanish sentence of every 429 ("the request limit was exceeded; retry in a few seconds"). */
export const LIMIT_MESSAGE = 'Has superado el límite de solicitudes. Por favor, vuelve a intentarlo en unos segundos.';
/** The sentence of E-NS-MESSAGE-TEXT's usted-sentence reading: the same, addressing the reader formally. */
export const USTED_LIMIT_MESSAGE = 'Demasiadas solicitudes: ha superado el límite permitido. Por favor, inténtelo de nuevo en unos segundos.';
/** What the 'message-english' fault sends instead: a translation left in from a template. */
export const ENGLISH_LIMIT_MESSAGE = 'You have exceeded the request limit. Please try again in a few seconds.';
export { MODEL_LATENCY_MS };
/** E-NS-BODY-SIZE hundred-kilobytes: the body limit of Express's body-parser by default. */
export const SMALL_BODY_BYTES = 100 * 1024;
/** The pause between two chunks of a streamed reply (E-NS-SUCCESS-BODY's stream readings). */
const STREAM_GAP_MS = 10;
/** E-NS-MESSAGE-RULES openai-roles: the roles, and the bounds on messages and content. */
const ROLES = ['system', 'user', 'assistant'];
const MAX_MESSAGES = 100;
const MAX_CONTENT_CHARS = 8000;

const SHAPE_MESSAGE = 'The body must be an object with messages, an array of objects with string role and content.';

interface Issue {
  path: Array<string | number>;
  message: string;
}

/** What a stage of the chat handler gives back when it has answered the request itself. */
const ANSWERED = Symbol('answered');

export async function start(options: StartOptions): Promise<RunningServer> {
  const on = faultSwitch(faults, 'chat', options.fault);
  const reading = readingSwitch(readings, 'chat', options.reference.readings);
  const apiKey = options.secrets[API_KEY_CREDENTIAL];
  if (reading('E-NS-AUTH') !== 'none' && !apiKey) throw new Error(`chat reference: E-NS-AUTH ${reading('E-NS-AUTH')} needs the credential ${API_KEY_CREDENTIAL}`);

  const windowMs = options.settings.windowMs * (on('window-doubled') ? 2 : 1);
  const { maxRequests } = options.settings;
  const started = performance.now();

  // Per client identifier, the stamps inside the window, one store per instance ("counters are not shared between
  // server instances"). 'split-instances' runs one more instance than the profile declares.
  const instances = Math.max(1, options.settings.instances ?? 1) + (on('split-instances') ? 1 : 0);
  const stores = Array.from({ length: instances }, () => new Map<string, number[]>());
  const turns = new Map<string, number>();
  const developmentMode = Boolean(options.settings.developmentMode) && !on('development-mode-ignored');
  const devReading = options.reference.developmentModeReading ?? 'client-id';
  let replies = 0;

  function clientId(req: http.IncomingMessage): string | undefined {
    // E-NS-CLIENT-ID-FORMAT: the header's text as it is, or only what parses as an IP address (request-ip's way).
    const validated = reading('E-NS-CLIENT-ID-FORMAT') === 'first-valid-ip';
    const xff = headerValue(req, 'x-forwarded-for');
    const realIp = headerValue(req, 'x-real-ip')?.trim();
    if (on('x-real-ip-first') && realIp) return realIp;
    if (xff) {
      const addresses = xff.split(',').map((a) => a.trim());
      const usable = validated ? addresses.filter((a) => isIP(a) !== 0) : addresses;
      const id = on('xff-whole-header') ? xff : on('xff-last-address') ? usable.at(-1) : usable[0];
      if (id) return id;
    }
    if (realIp && !on('x-real-ip-ignored') && (!validated || isIP(realIp) !== 0)) return realIp;
    if (on('no-header-not-limited')) return undefined;
    return req.socket.remoteAddress ?? 'unknown';
  }

  /** E-NS-IPV6-KEY: the counter an identifier counts on; subnet-56 groups IPv6 clients by their /56 prefix. */
  function counterKey(id: string): string {
    if (reading('E-NS-IPV6-KEY') !== 'subnet-56' || isIP(id) !== 6) return id;
    return ipv6Prefix56(id) ?? id;
  }

  /** Development mode: localhost is let through without counting, in the reading the reference was started with. */
  function exempt(req: http.IncomingMessage, id: string): boolean {
    if (!developmentMode) return false;
    return isLoopback(devReading === 'connection' ? req.socket.remoteAddress : id);
  }

  type Verdict = { allowed: true; count: number; resetMs: number; release: () => void } | { allowed: false; waitMs: number };

  function hit(id: string): Verdict {
    const now = performance.now();
    const key = on('shared-counter') ? '*' : counterKey(id);
    // A round-robin balancer in front of the instances sends a client's consecutive requests to each in turn.
    const turn = turns.get(key) ?? 0;
    turns.set(key, turn + 1);
    const store = stores[turn % stores.length];
    // Sliding: a stamp counts until it is windowMs old. Fixed: until the current window (from server start) ends.
    const windowStart = on('fixed-window') ? started + Math.floor((now - started) / windowMs) * windowMs : now - windowMs;
    let stamps = store.get(key) ?? [];
    if (!on('no-prune')) stamps = stamps.filter((t) => t > windowStart);
    store.set(key, stamps);

    const limit = on('off-by-one') ? maxRequests + 1 : on('limits-early') ? maxRequests - 1 : maxRequests;
    if (stamps.length < limit) {
      stamps.push(now);
      const release = () => {
        const kept = store.get(key);
        const at = kept ? kept.indexOf(now) : -1;
        if (at >= 0) kept!.splice(at, 1);
      };
      return { allowed: true, count: stamps.length, resetMs: stamps[0] + windowMs - now, release };
    }
    if (on('records-limited')) stamps.push(now);
    const freedAt = on('fixed-window') ? windowStart + windowMs : stamps[0] + windowMs;
    return { allowed: false, waitMs: freedAt - now };
  }

  function cleanup() {
    const cutoff = performance.now() - windowMs;
    for (const store of stores) {
      for (const [key, stamps] of store) {
        const kept = stamps.filter((t) => t > cutoff);
        if (kept.length === 0) store.delete(key);
        else store.set(key, kept);
      }
    }
    for (const key of turns.keys()) if (!stores.some((store) => store.has(key))) turns.delete(key);
  }

  /** E-NS-ALLOWED-HEADERS: the rate-limit headers a counted reply carries besides those the document names. */
  function rateHeaders(remaining: number, resetMs: number): Record<string, string> {
    const style = reading('E-NS-ALLOWED-HEADERS');
    const resetSeconds = Math.max(0, Math.ceil(resetMs / 1000));
    if (style === 'x-ratelimit') {
      // express-rate-limit's legacy headers: the reset as a Unix time in seconds.
      return { 'X-RateLimit-Limit': String(maxRequests), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': String(Math.ceil((Date.now() + Math.max(0, resetMs)) / 1000)) };
    }
    if (style === 'ietf-draft') {
      // draft-ietf-httpapi-ratelimit-headers (draft 6): the reset in seconds from now.
      return {
        'RateLimit-Policy': `${maxRequests};w=${Math.max(1, Math.ceil(windowMs / 1000))}`,
        'RateLimit-Limit': String(maxRequests),
        'RateLimit-Remaining': String(remaining),
        'RateLimit-Reset': String(resetSeconds),
      };
    }
    return {};
  }

  function sendLimited(res: http.ServerResponse, waitMs: number) {
    // E-NS-RETRY-ROUNDING: up (at least 1), to the nearest second, or up in the header and to the millisecond in the body.
    const rounding = reading('E-NS-RETRY-ROUNDING');
    const seconds = rounding === 'round' ? Math.max(0, Math.round(waitMs / 1000)) : Math.max(1, Math.ceil(waitMs / 1000));
    const fullWindow = Math.max(1, Math.ceil(windowMs / 1000));
    const retrySeconds = on('retry-after-full-window') ? fullWindow : seconds;
    const bodySeconds = on('retry-after-full-window') ? fullWindow : rounding === 'body-unrounded' ? Math.max(0, Math.round(waitMs)) / 1000 : seconds;
    const message = on('message-english') ? ENGLISH_LIMIT_MESSAGE : reading('E-NS-MESSAGE-TEXT') === 'usted-sentence' ? USTED_LIMIT_MESSAGE : LIMIT_MESSAGE;
    const status = on('status-503') ? 503 : 429;
    const problem = reading('E-NS-LIMITED-MEDIA-TYPE') === 'problem-json';
    const body: TooManyRequests = { error: 'Too Many Requests', message, retryAfter: bodySeconds };
    // RFC 9457 problem details carry type, title and status, the documented members riding along as extensions.
    const sent: Record<string, unknown> = problem ? { type: 'about:blank', title: 'Too Many Requests', status, ...body } : { ...body };
    if (reading('E-NS-LIMITED-BODY-MEMBERS') === 'with-limit-details') {
      Object.assign(sent, { limit: maxRequests, windowMs, resetAt: new Date(Date.now() + Math.max(0, waitMs)).toISOString() });
    }
    if (on('retry-after-body-ms')) sent.retryAfter = Math.ceil(waitMs);
    if (on('retry-after-body-missing')) delete sent.retryAfter;
    if (on('error-text-differs')) sent.error = 'rate_limit_exceeded';
    if (on('empty-message')) sent.message = '';

    const retryAfter = on('retry-after-ms')
      ? String(Math.ceil(waitMs))
      : on('retry-after-fraction')
        ? String(Math.max(waitMs, 0) / 1000)
        : String(retrySeconds);
    const headers: Record<string, string> = { ...rateHeaders(0, waitMs), 'Retry-After': retryAfter };
    if (on('remaining-header-missing')) delete headers['X-RateLimit-Remaining'];
    else headers['X-RateLimit-Remaining'] = '0';
    if (problem) headers['Content-Type'] = 'application/problem+json';
    if (on('limited-text-plain')) headers['Content-Type'] = 'text/plain; charset=utf-8';
    sendJson(res, status, sent, headers);
  }

  /**
   * The limiter: true when it answered (429). An allowed request gets its stamp (and the rate-limit headers of its
   * reading); in E-NS-LIMITED-BAD-BODY's not-stamped reading the stamp is given back when the request is answered
   * with a 4xx or 5xx, as express-rate-limit's skipFailedRequests does.
   */
  function limited(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    const id = clientId(req);
    if (id === undefined || exempt(req, id)) return false;
    const verdict = hit(id);
    if (!verdict.allowed) {
      sendLimited(res, verdict.waitMs);
      return true;
    }
    for (const [name, value] of Object.entries(rateHeaders(Math.max(0, maxRequests - verdict.count), verdict.resetMs))) res.setHeader(name, value);
    if (reading('E-NS-LIMITED-BAD-BODY') === 'not-stamped') {
      let settled = false;
      const settle = (failed: boolean) => {
        if (settled) return;
        settled = true;
        if (failed) verdict.release();
      };
      res.once('finish', () => settle(res.statusCode >= 400));
      res.once('close', () => settle(!res.writableFinished));
    }
    return false;
  }

  /** E-NS-AUTH bearer readings: the API key (the credential apiKey of the profile) as a bearer token. */
  function authorized(req: http.IncomingMessage): boolean {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(headerValue(req, 'authorization') ?? '');
    return m?.[1] === apiKey;
  }

  function refuseUnauthorized(res: http.ServerResponse) {
    sendJson(res, 401, { error: 'Unauthorized', message: 'Missing or invalid API key.' }, { 'WWW-Authenticate': 'Bearer realm="chat"' });
  }

  /** E-NS-BAD-BODY-ANSWER: how a request refused for its body (or its query) is answered. */
  function refuse(res: http.ServerResponse, kind: 'not-json' | 'shape' | 'query', message: string, issues: Issue[] = []) {
    const style = reading('E-NS-BAD-BODY-ANSWER');
    if (style === '400-text') return sendJson(res, 400, `Bad Request: ${message}`, { 'Content-Type': 'text/plain; charset=utf-8' });
    if (style === '422-validation' && kind === 'shape') return sendJson(res, 422, { error: 'Unprocessable Entity', message, issues });
    sendJson(res, 400, { error: 'Bad Request', message });
  }

  /** Parsing: the media type (E-NS-REQUEST-MEDIA-TYPE) and the JSON text. */
  function parse(req: http.IncomingMessage, res: http.ServerResponse, raw: string): { value: unknown } | typeof ANSWERED {
    if (on('every-request-refused')) {
      refuse(res, 'shape', 'The model is unavailable.');
      return ANSWERED;
    }
    if (on('bad-body-redirect') && !isChatRequest(parseOrUndefined(raw))) {
      res.writeHead(303, { Location: '/chat/help', 'Content-Length': 0 });
      res.end();
      return ANSWERED;
    }
    const mediaReading = reading('E-NS-REQUEST-MEDIA-TYPE');
    if (mediaReading !== 'any') {
      const type = (headerValue(req, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
      const json = type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type);
      if (!json && mediaReading === 'json-only-415' && raw.length > 0) {
        // Fastify's answer to a body of a media type it has no parser for.
        sendJson(res, 415, { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', error: 'Unsupported Media Type', message: `Unsupported Media Type: ${type || 'none'}` });
        return ANSWERED;
      }
      // Express's json() leaves a body of another media type unparsed: the handler sees an empty object.
      if (!json && mediaReading === 'unparsed-400') return { value: {} };
    }
    if (on('invalid-json-500')) return { value: JSON.parse(raw) };
    try {
      return { value: JSON.parse(raw) };
    } catch {
      // A handler that takes a body it cannot parse for the user's own words, as a plain-text prompt.
      if (on('not-json-as-prompt')) return { value: { messages: [{ role: 'user', content: raw }] } };
      refuse(res, 'not-json', 'The body is not valid JSON.');
      return ANSWERED;
    }
  }

  /** Validation: the body's shape, the message rules of E-NS-MESSAGE-RULES and what E-NS-EXTRA-INPUT asks beyond it. The number of messages, or ANSWERED. */
  function validate(req: http.IncomingMessage, res: http.ServerResponse, parsed: unknown): number | typeof ANSWERED {
    const extra = reading('E-NS-EXTRA-INPUT');
    if (extra === 'api-version-query') {
      const version = new URL(req.url ?? '/', 'http://localhost').searchParams.get('api-version');
      if (version !== READING_API_VERSION) {
        refuse(res, 'query', version === null ? `Missing required query parameter api-version (supported: ${READING_API_VERSION}).` : `Unsupported api-version ${version} (supported: ${READING_API_VERSION}).`);
        return ANSWERED;
      }
    }
    if (on('missing-messages-500')) {
      const { messages } = parsed as ChatRequest;
      return messages.map((m) => m.role).length;
    }
    if (on('missing-messages-accepted') && typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const messages = (parsed as { messages?: unknown }).messages;
      return Array.isArray(messages) ? messages.length : 0;
    }
    if (!isChatRequest(parsed)) {
      refuse(res, 'shape', SHAPE_MESSAGE, [{ path: ['messages'], message: 'Expected an array of objects with string role and content' }]);
      return ANSWERED;
    }
    const issues: Issue[] = [];
    if (reading('E-NS-MESSAGE-RULES') === 'openai-roles') {
      const { messages } = parsed;
      if (messages.length === 0) issues.push({ path: ['messages'], message: 'At least one message is required' });
      if (messages.length > MAX_MESSAGES) issues.push({ path: ['messages'], message: `At most ${MAX_MESSAGES} messages` });
      messages.forEach((m, i) => {
        if (!ROLES.includes(m.role)) issues.push({ path: ['messages', i, 'role'], message: `Expected one of ${ROLES.join(', ')}` });
        if (m.content.length === 0 || m.content.length > MAX_CONTENT_CHARS) issues.push({ path: ['messages', i, 'content'], message: `Expected 1 to ${MAX_CONTENT_CHARS} characters` });
      });
    }
    if (extra === 'model-member') {
      const model = (parsed as { model?: unknown }).model;
      if (typeof model !== 'string' || model.trim() === '') issues.push({ path: ['model'], message: 'Required: the name of the model to answer with' });
    }
    if (issues.length) {
      refuse(res, 'shape', issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '), issues);
      return ANSWERED;
    }
    return parsed.messages.length;
  }

  /** The normal reply (E-NS-SUCCESS-BODY), after the model's time (E-NS-REPLY-TIME). */
  async function reply(res: http.ServerResponse, count: number) {
    if (on('reply-202-accepted')) return sendJson(res, 202, { job: `chat-${Math.round(performance.now())}`, status: 'queued' });
    const text = `Received ${count} message(s).`;
    const style = reading('E-NS-SUCCESS-BODY');
    const latency = reading('E-NS-REPLY-TIME') === 'model-latency' ? MODEL_LATENCY_MS : 0;
    const gone = () => res.destroyed || res.writableEnded;
    const n = ++replies;
    const created = Math.floor(Date.now() / 1000);
    if (style === 'json-reply' || style === 'openai-json') {
      if (latency) await sleep(latency);
      if (gone()) return;
      if (style === 'json-reply') return sendJson(res, 200, { reply: text });
      return sendJson(res, 200, {
        id: `chatcmpl-${n}`,
        object: 'chat.completion',
        created,
        model: 'reference',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: count, completion_tokens: text.split(' ').length, total_tokens: count + text.split(' ').length },
      });
    }
    // A stream: the head goes out at once, the model's tokens follow as they come.
    const type = style === 'sse-stream' ? 'text/event-stream; charset=utf-8' : style === 'ndjson-stream' ? 'application/x-ndjson' : 'text/plain; charset=utf-8';
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
    res.flushHeaders();
    res.on('error', () => {});
    const tokens = text.split(/(?=\s)/);
    const chunk = (token: string, i: number): string => {
      if (style === 'sse-stream') {
        const delta = i === 0 ? { role: 'assistant', content: token } : { content: token };
        return `data: ${JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created, model: 'reference', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
      }
      if (style === 'ndjson-stream') return `${JSON.stringify({ model: 'reference', created_at: new Date().toISOString(), message: { role: 'assistant', content: token }, done: false })}\n`;
      return token;
    };
    if (latency) await sleep(latency);
    for (const [i, token] of tokens.entries()) {
      if (gone()) return;
      res.write(chunk(token, i));
      await sleep(STREAM_GAP_MS);
    }
    if (gone()) return;
    if (style === 'sse-stream') {
      const last = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created, model: 'reference', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] };
      res.end(`data: ${JSON.stringify(last)}\n\ndata: [DONE]\n\n`);
    } else if (style === 'ndjson-stream') {
      res.end(`${JSON.stringify({ model: 'reference', created_at: new Date().toISOString(), message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' })}\n`);
    } else res.end();
  }

  async function handleChat(req: http.IncomingMessage, res: http.ServerResponse) {
    const raw = await readBody(req, reading('E-NS-BODY-SIZE') === 'hundred-kilobytes' ? SMALL_BODY_BYTES : MAX_BODY_BYTES);
    if (raw === undefined) return sendJson(res, 413, { error: 'Payload Too Large', message: 'Request body too large.' });
    // 'xff-ipv6-refused': a header check in front of the limiter that knows IPv4 addresses only.
    if (on('xff-ipv6-refused') && headerValue(req, 'x-forwarded-for')?.split(',').some((a) => a.includes(':'))) {
      return sendJson(res, 400, { error: 'Bad Request', message: 'Invalid X-Forwarded-For header.' });
    }

    // The limiter with the authentication of E-NS-AUTH beside it (before or after it); true when either answered.
    const auth = reading('E-NS-AUTH');
    const gate = (): boolean => {
      const refused = (when: 'bearer-before-limiter' | 'bearer-after-limiter'): boolean => {
        if (auth !== when || authorized(req)) return false;
        refuseUnauthorized(res);
        return true;
      };
      return refused('bearer-before-limiter') || limited(req, res) || refused('bearer-after-limiter');
    };
    // E-NS-CHECK-ORDER. By default the limiter runs before the body is looked at, as a middleware would.
    const order = reading('E-NS-CHECK-ORDER');
    if (order === 'limit-first' && gate()) return;
    const parsed = parse(req, res, raw);
    if (parsed === ANSWERED) return;
    if (order === 'parse-first' && gate()) return;
    const count = validate(req, res, parsed.value);
    if (count === ANSWERED) return;
    if (order === 'validate-first' && gate()) return;
    await reply(res, count);
  }

  // E-NS-OTHER-METHODS: find-my-way's 404 for any other method, a Next.js route's 405 with Allow, or Express's page.
  const otherMethods = reading('E-NS-OTHER-METHODS');
  const notFound = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (otherMethods === '404-html') {
      const where = escapeHtml(new URL(req.url ?? '/', 'http://localhost').pathname);
      const page = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot ${req.method} ${where}</pre>\n</body>\n</html>\n`;
      return sendJson(res, 404, page, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': "default-src 'none'", 'X-Content-Type-Options': 'nosniff' });
    }
    sendJson(res, 404, { error: 'Not Found', message: 'No such route.' });
  };
  const router = Router({ defaultRoute: notFound });
  router.on('POST', '/api/chat', (req, res) => {
    handleChat(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: 'Internal Server Error', message: 'Unexpected error.' });
      else res.destroy();
    });
  });
  if (otherMethods === '405-allow') {
    router.on(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'], '/api/chat', (_req, res) => {
      res.writeHead(405, { Allow: 'OPTIONS, POST', 'Content-Length': 0 });
      res.end();
    });
    router.on('OPTIONS', '/api/chat', (_req, res) => {
      res.writeHead(204, { Allow: 'OPTIONS, POST' });
      res.end();
    });
  }

  // E-NS-LIMITER-SCOPE: every-request counts every request to the server, as a global middleware (app.use) does;
  // POST /api/chat meets the limiter in its handler, where E-NS-CHECK-ORDER puts it.
  const everyRequest = reading('E-NS-LIMITER-SCOPE') === 'every-request';
  const server = http.createServer((req, res) => {
    if (everyRequest && !(req.method === 'POST' && new URL(req.url ?? '/', 'http://localhost').pathname === '/api/chat') && limited(req, res)) return;
    router.lookup(req, res);
  });
  // Housekeeping only: answers never depend on it because each request prunes first.
  const timer = setInterval(cleanup, options.reference.cleanupIntervalMs ?? 60_000);
  timer.unref();
  return listen(server, options.host, options.port, () => clearInterval(timer));
}

function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function parseOrUndefined(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped spelling, or the name localhost. */
function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.trim().toLowerCase();
  if (a === 'localhost' || a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice('::ffff:'.length) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * The /56 prefix of an IPv6 address ("2001:db8:0:ab00::/56"), as express-rate-limit 8 keys IPv6 clients; an
 * IPv4-mapped address ("::ffff:192.0.2.1") is keyed by its IPv4 address.
 */
export function ipv6Prefix56(address: string): string | undefined {
  let text = address.trim().toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (mapped) return mapped[1];
  const v4 = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(2).map(Number);
    text = `${v4[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const groups = halves.length === 2 ? [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail] : head;
  if (groups.length !== 8) return undefined;
  const words = groups.map((g) => parseInt(g, 16));
  if (words.some((w) => Number.isNaN(w))) return undefined;
  return `${words.slice(0, 3).map((w) => w.toString(16)).join(':')}:${(words[3] & 0xff00).toString(16)}::/56`;
}

function isChatRequest(value: unknown): value is ChatRequest {
  if (typeof value !== 'object' || value === null || !('messages' in value) || !Array.isArray(value.messages)) return false;
  return value.messages.every(
    (m: unknown) =>
      typeof m === 'object' && m !== null && 'role' in m && typeof m.role === 'string' && 'content' in m && typeof m.content === 'string',
  );
}
