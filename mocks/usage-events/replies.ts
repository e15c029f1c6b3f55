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

export function send(res: http.ServerResponse, reply: Reply): void {
  sendJson(res, reply.status, reply.body, reply.headers);
}
