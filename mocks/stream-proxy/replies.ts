// Answers of the stream-proxy reference. The document gives statuses but no error body ("Error body shape: not
// shown"), so refusals carry the reason phrase of their status and a sentence: enough for a person reading a report.
import http from 'node:http';
import { readBody, sendJson } from '../plumbing.js';

export interface Reply {
  status: number;
  /** A JSON body, unless `text` or `bytes` is given. */
  body?: unknown;
  /** A plain-text body (text/plain unless `headers` say otherwise). */
  text?: string;
  /** A binary body; `headers` must give its content type. */
  bytes?: Uint8Array;
  headers?: Record<string, string>;
}

/** A handler of one route; it reads the body itself (when it has one) so that refusals before that need not. */
export type Handler = (req: http.IncomingMessage, params: Record<string, string | undefined>) => Reply | Promise<Reply>;

export const ok = (body: unknown, status = 200): Reply => ({ status, body });

export const fail = (status: number, message: string, headers?: Record<string, string>): Reply => ({
  status,
  body: { error: http.STATUS_CODES[status] ?? 'Error', message },
  ...(headers ? { headers } : {}),
});

export function send(res: http.ServerResponse, reply: Reply): void {
  const given = Object.fromEntries(Object.entries(reply.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  if (reply.bytes !== undefined || reply.text !== undefined) {
    const payload = reply.bytes ?? Buffer.from(reply.text!, 'utf8');
    res.writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8', ...given, 'content-length': payload.byteLength });
    res.end(payload);
    return;
  }
  sendJson(res, reply.status, reply.body ?? {}, given);
}

/** The body parsed as JSON, or the refusal: 413 beyond the plumbing's limit, 400 when it does not parse. */
export async function jsonBody(req: http.IncomingMessage): Promise<{ value: unknown } | Reply> {
  const raw = await readBody(req);
  if (raw === undefined) return fail(413, 'The body exceeds 1 MiB.');
  try {
    return { value: JSON.parse(raw) };
  } catch {
    return fail(400, 'The body is not valid JSON.');
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
