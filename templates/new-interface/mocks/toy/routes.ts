// What each operation of the toy reference answers, one function an operation: the server only routes and guards.
import type { ToyFault } from './faults.ts';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface RouteContext {
  on(fault: ToyFault): boolean;
  /** The status that refuses bad input (T-NS-REFUSAL-STATUS). */
  refusalStatus: number;
}

/** GET /toy/ping: "Answers pong". */
export function ping(ctx: RouteContext): Reply {
  return { status: ctx.on('ping-202') ? 202 : 200, body: { pong: !ctx.on('pong-false') } };
}

/** GET /toy/echo: "Answers the word it was given"; a missing or empty word is refused. */
export function echo(ctx: RouteContext, query: URLSearchParams): Reply {
  const word = query.get('word') ?? '';
  if (word === '' && !ctx.on('word-optional')) return { status: ctx.refusalStatus, body: { error: 'word is required' } };
  if (word.length > 64) return { status: ctx.refusalStatus, body: { error: 'word is longer than 64 characters' } };
  return { status: 200, body: { echo: ctx.on('echo-cut') ? word.slice(0, 8) : word } };
}
