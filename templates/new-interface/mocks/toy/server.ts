// Embedded reference of the toy interface (specs/toy.yaml). Where the document is silent it takes the readings of
// readings.ts: which 4xx refuses an echo without a word (T-NS-REFUSAL-STATUS). It never imports the suite.
import http from 'node:http';
import type { ToySettings } from '../../interfaces/toy/settings.ts';
import { faultSwitch, listen, sendJson } from '../plumbing.ts';
import { readingSwitch } from '../readings.ts';
import type { RunningServer } from '../types.ts';
import { faults } from './faults.ts';
import { readings } from './readings.ts';
import { echo, ping, type Reply, type RouteContext } from './routes.ts';

export interface StartOptions {
  settings: ToySettings;
  reference?: { readings?: Readonly<Record<string, string>> };
  /** toyKey: the key every operation needs. */
  secrets: Record<string, string>;
  fault?: string;
  host?: string;
  port?: number;
}

/** The key's header, as the spec's security scheme names it. */
const KEY_HEADER = 'X-Toy-Key';

const ROUTES: Record<string, (ctx: RouteContext, query: URLSearchParams) => Reply> = { '/toy/ping': ping, '/toy/echo': echo };

export async function start(options: StartOptions): Promise<RunningServer> {
  const on = faultSwitch(faults, 'toy', options.fault);
  const reading = readingSwitch(readings, 'toy', options.reference?.readings);
  const ctx: RouteContext = { on, refusalStatus: reading('T-NS-REFUSAL-STATUS') === 'status-422' ? 422 : 400 };
  const server = http.createServer((req, res) => {
    const [path = '', rawQuery] = (req.url ?? '').split('?');
    const reply = guard(req, path, rawQuery) ?? ROUTES[path]!(ctx, new URLSearchParams(rawQuery));
    sendJson(res, reply.status, reply.body, { ...(on('text-plain') ? { 'content-type': 'text/plain' } : {}), ...reply.headers });
  });

  /** What every request passes before its operation: a known path, its key, its method, a query that decodes. */
  function guard(req: http.IncomingMessage, path: string, rawQuery: string | undefined): Reply | undefined {
    if (rawQuery && on('odd-query-500')) return { status: 500, body: { error: 'crash' } };
    if (!ROUTES[path]) return { status: 404, body: { error: 'not found' } };
    if (req.headers[KEY_HEADER.toLowerCase()] !== options.secrets.toyKey && !on('key-ignored')) return { status: 401, body: { error: 'unauthorized' } };
    if (req.method !== 'GET') return { status: 405, body: { error: 'method not allowed' }, headers: { allow: 'GET' } };
    if (rawQuery && !decodes(rawQuery)) return { status: ctx.refusalStatus, body: { error: 'the query string does not decode' } };
    return undefined;
  }
  return listen(server, options.host, options.port);
}

function decodes(query: string): boolean {
  try {
    decodeURIComponent(query);
    return true;
  } catch {
    return false;
  }
}
