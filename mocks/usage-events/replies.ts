// Answers of the usage-events reference. "Error statuses of the usage-event operations: not shown": the reference
// answers as the real billing product does, a JSON body { error, detail } where error names the kind of refusal and
// detail says why (for a request that does not validate, a list of { loc, msg, type }, one per problem).
import type http from 'node:http';
import { sendJson } from '../plumbing.js';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** One reason a request does not validate: where (["query", "limit"], ["body", "events"]) and what. */
export interface Problem {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });

export const refusal = (status: number, error: string, detail: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body: { error, detail },
  ...(headers ? { headers } : {}),
});

/** A request whose parameters or body do not validate: 422, as the real product answers one. */
export const invalid = (problems: Problem[], status = 422): Reply => refusal(status, 'RequestValidationError', problems);

export const notFound = (detail: string): Reply => refusal(404, 'ResourceNotFound', detail);

/**
 * A refusal in the body style of D-NS-ERROR-BODY: error-detail (the default, as above); problem-json (RFC 9457,
 * application/problem+json: type, title, status, detail, and the problems under errors); plain-text (the reason as
 * text/plain, as a bare framework answers). Successes are left as they are.
 */
export function styled(reply: Reply, style: 'error-detail' | 'problem-json' | 'plain-text'): Reply {
  if (reply.status < 400 || style === 'error-detail') return reply;
  const { error, detail } = reply.body as { error: string; detail: unknown };
  const text = typeof detail === 'string' ? detail : Array.isArray(detail) ? (detail as Problem[]).map((p) => `${p.loc.join('.')}: ${p.msg}`).join('; ') : String(detail);
  if (style === 'plain-text') return { ...reply, body: `${error}: ${text}`, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } };
  const problem = { type: 'about:blank', title: error, status: reply.status, detail: text, ...(Array.isArray(detail) ? { errors: detail } : {}) };
  return { ...reply, body: problem, headers: { ...reply.headers, 'content-type': 'application/problem+json' } };
}

export function send(res: http.ServerResponse, reply: Reply): void {
  sendJson(res, reply.status, reply.body, reply.headers);
}
