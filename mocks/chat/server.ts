// Embedded reference of Interface E: POST /api/chat behind an in-memory sliding-window rate limiter.
// Written from the document alone; it never imports the suite's model.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import Router from 'find-my-way';
import type { components } from '../../generated/chat.js';
import { faults } from './faults.js';
import { faultSwitch, listen, readBody, sendJson } from '../plumbing.js';
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
/** What the 'message-english' fault sends instead: a translation left in from a template. */
export const ENGLISH_LIMIT_MESSAGE = 'You have exceeded the request limit. Please try again in a few seconds.';

export async function start(options: StartOptions): Promise<RunningServer> {
  const on = faultSwitch(faults, 'chat', options.fault);

  const windowMs = options.settings.windowMs * (on('window-doubled') ? 2 : 1);
  const { maxRequests } = options.settings;
  const started = performance.now();

  // Per client identifier, the stamps inside the window, one store per instance ("counters are not shared between
  // server instances"). 'split-instances' runs one more instance than the profile declares.
  const instances = Math.max(1, options.settings.instances ?? 1) + (on('split-instances') ? 1 : 0);
  const stores = Array.from({ length: instances }, () => new Map<string, number[]>());
  const turns = new Map<string, number>();
  const developmentMode = Boolean(options.settings.developmentMode) && !on('development-mode-ignored');
  const reading = options.reference.developmentModeReading ?? 'client-id';

  function clientId(req: http.IncomingMessage): string | undefined {
    const xff = headerValue(req, 'x-forwarded-for');
    const realIp = headerValue(req, 'x-real-ip')?.trim();
    if (on('x-real-ip-first') && realIp) return realIp;
    if (xff) {
      const addresses = xff.split(',').map((a) => a.trim());
      const id = on('xff-whole-header') ? xff : on('xff-last-address') ? addresses.at(-1) : addresses[0];
      if (id) return id;
    }
    if (realIp && !on('x-real-ip-ignored')) return realIp;
    if (on('no-header-not-limited')) return undefined;
    return req.socket.remoteAddress ?? 'unknown';
  }

  /** Development mode: localhost is let through without counting, in the reading the reference was started with. */
  function exempt(req: http.IncomingMessage, id: string): boolean {
    if (!developmentMode) return false;
    return isLoopback(reading === 'connection' ? req.socket.remoteAddress : id);
  }

  type Verdict = { allowed: true } | { allowed: false; waitMs: number };

  function hit(id: string): Verdict {
    const now = performance.now();
    const key = on('shared-counter') ? '*' : id;
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
      return { allowed: true };
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

  function sendLimited(res: http.ServerResponse, waitMs: number) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    const fullWindow = Math.max(1, Math.ceil(windowMs / 1000));
    const retrySeconds = on('retry-after-full-window') ? fullWindow : seconds;
    const body: TooManyRequests = { error: 'Too Many Requests', message: on('message-english') ? ENGLISH_LIMIT_MESSAGE : LIMIT_MESSAGE, retryAfter: retrySeconds };
    const sent: Partial<Record<keyof TooManyRequests, unknown>> = { ...body };
    if (on('retry-after-body-ms')) sent.retryAfter = Math.ceil(waitMs);
    if (on('retry-after-body-missing')) delete sent.retryAfter;
    if (on('error-text-differs')) sent.error = 'rate_limit_exceeded';
    if (on('empty-message')) sent.message = '';

    const retryAfter = on('retry-after-ms')
      ? String(Math.ceil(waitMs))
      : on('retry-after-fraction')
        ? String(Math.max(waitMs, 0) / 1000)
        : String(retrySeconds);
    const headers: Record<string, string> = { 'Retry-After': retryAfter };
    if (!on('remaining-header-missing')) headers['X-RateLimit-Remaining'] = '0';
    if (on('limited-text-plain')) headers['Content-Type'] = 'text/plain; charset=utf-8';
    sendJson(res, on('status-503') ? 503 : 429, sent, headers);
  }

  async function handleChat(req: http.IncomingMessage, res: http.ServerResponse) {
    const raw = await readBody(req);
    if (raw === undefined) return sendJson(res, 413, { error: 'Payload Too Large', message: 'Request body too large.' });

    // The limiter runs before the body is looked at, as a middleware would.
    const id = clientId(req);
    if (id !== undefined && !exempt(req, id)) {
      const verdict = hit(id);
      if (!verdict.allowed) return sendLimited(res, verdict.waitMs);
    }

    if (on('bad-body-redirect') && !isChatRequest(parseOrUndefined(raw))) {
      res.writeHead(303, { Location: '/chat/help', 'Content-Length': 0 });
      return res.end();
    }
    let parsed: unknown;
    if (on('invalid-json-500')) parsed = JSON.parse(raw);
    else {
      try {
        parsed = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, { error: 'Bad Request', message: 'The body is not valid JSON.' });
      }
    }
    if (on('missing-messages-500')) {
      const { messages } = parsed as ChatRequest;
      return sendJson(res, 200, { reply: `Received ${messages.map((m) => m.role).length} message(s).` });
    }
    if (on('missing-messages-accepted') && typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const messages = (parsed as { messages?: unknown }).messages;
      const count = Array.isArray(messages) ? messages.length : 0;
      return sendJson(res, 200, { reply: `Received ${count} message(s).` });
    }
    if (!isChatRequest(parsed)) {
      return sendJson(res, 400, {
        error: 'Bad Request',
        message: 'The body must be an object with messages, an array of objects with string role and content.',
      });
    }
    if (on('reply-202-accepted')) return sendJson(res, 202, { job: `chat-${Math.round(performance.now())}`, status: 'queued' });
    sendJson(res, 200, { reply: `Received ${parsed.messages.length} message(s).` });
  }

  const router = Router({
    defaultRoute: (_req, res) => sendJson(res, 404, { error: 'Not Found', message: 'No such route.' }),
  });
  router.on('POST', '/api/chat', (req, res) => {
    handleChat(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: 'Internal Server Error', message: 'Unexpected error.' });
      else res.destroy();
    });
  });

  const server = http.createServer((req, res) => router.lookup(req, res));
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

/** 127.0.0.0/8, ::1 and their IPv4-mapped spelling, or the name localhost. */
function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.trim().toLowerCase();
  if (a === 'localhost' || a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice('::ffff:'.length) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

function isChatRequest(value: unknown): value is ChatRequest {
  if (typeof value !== 'object' || value === null || !('messages' in value) || !Array.isArray(value.messages)) return false;
  return value.messages.every(
    (m: unknown) =>
      typeof m === 'object' && m !== null && 'role' in m && typeof m.role === 'string' && 'content' in m && typeof m.content === 'string',
  );
}
