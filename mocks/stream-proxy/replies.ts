// Answers of the stream-proxy reference. The document gives statuses but no error body ("Error body shape: not
// shown"), so refusals carry the reason phrase of their status and a sentence: enough for a person reading a report.
import http from 'node:http';
import { readBody, sendJson } from '../plumbing.js';

/**
 * Refusals whose status the document does not fix for every deployment (the server maps them by its readings): a body
 * of the wrong shape (B-NS-REFUSAL-STATUS), a source the deployment does not have (B-NS-UNKNOWN-SOURCE), a provider
 * that cannot be reached or refuses (B-NS-PROVIDER).
 */
export type RefusalKind = 'shape' | 'unknown' | 'provider';

export interface Reply {
  status: number;
  /** A JSON body, unless `text` or `bytes` is given. */
  body?: unknown;
  /** A plain-text body (text/plain unless `headers` say otherwise). */
  text?: string;
  /** A binary body; `headers` must give its content type. */
  bytes?: Uint8Array;
  headers?: Record<string, string>;
  /** No body at all (no content type either). */
  empty?: boolean;
  /** A refusal's sentence: the server shapes its error body as its reading of B-NS-ERROR-BODY says. */
  refusal?: string;
  /** What kind of refusal this is, where a reading may give it another status than the default 400. */
  kind?: RefusalKind;
}

/** A handler of one route; it reads the body itself (when it has one) so that refusals before that need not. */
export type Handler = (req: http.IncomingMessage, params: Record<string, string | undefined>) => Reply | Promise<Reply>;

export const ok = (body: unknown, status = 200): Reply => ({ status, body });

export const fail = (status: number, message: string, headers?: Record<string, string>): Reply => ({
  status,
  body: { error: http.STATUS_CODES[status] ?? 'Error', message },
  refusal: message,
  ...(headers ? { headers } : {}),
});

/** A 400 of a kind the server may answer with another status under another reading. */
export const refuse = (kind: RefusalKind, message: string): Reply => ({ ...fail(400, message), kind });

export function send(res: http.ServerResponse, reply: Reply): void {
  const given = Object.fromEntries(Object.entries(reply.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  if (reply.empty) {
    res.writeHead(reply.status, { ...given, 'content-length': 0 });
    res.end();
    return;
  }
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
