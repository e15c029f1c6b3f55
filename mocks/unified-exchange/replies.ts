// The answers of the unified-exchange reference: the envelope of a success, the body and status of a refusal.
// "Error codes, error body shape and the indicator that separates success from failure: not shown." By default the
// reference answers as the public exchange does (U-NS-ENVELOPE code-00000): {code: "00000", msg: "success",
// requestTime, data} with HTTP 200, and a failure an HTTP 4xx with {code: <five digits of its own>, msg, requestTime,
// data: null}. The other readings: http-status-only ({data} on success, no code anywhere), U-NS-ERROR-BODY
// (problem-details, error-string for failures), U-NS-SUCCESS-STATUS (201 for the creating writes), U-NS-ID-TYPES
// (ids as JSON integers), and the refusal statuses per kind (choices.ts).
import type http from 'node:http';
import { sendJson } from '../plumbing.ts';
import type { Choices, RoutingReading } from './choices.ts';
import type { Outcome, RefusalKind } from './contract.ts';
import type { Op } from './operations.ts';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * The failure codes the routing gives (a part may give its own in Outcome.code). The state codes also tell the causes
 * of U-NS-STATE-STATUS conflict-409 apart: a part that refuses for want of balance or below a minimum is best given
 * STATE_CODES.insufficient or .belowMinimum; others are read from their message.
 */
export const CODES = {
  authMissing: '40001',
  authTimestamp: '40008',
  authKey: '40006',
  authSignature: '40009',
  authPassphrase: '40012',
  permission: '40014',
  validation: '40017',
  notJson: '40019',
  throttle: '429',
  throttleOwn: '43999',
  state: '43001',
  notFound: '40404',
  wrongMethod: '40405',
  mediaType: '40415',
  server: '50000',
} as const;
export const STATE_CODES = { insufficient: '43012', belowMinimum: '43027', taken: '43010', finished: '43011', unknownOrder: '43025' } as const;

/** The members that hold ids the deployment makes (U-NS-ID-TYPES). */
export const ID_MEMBERS = new Set(['orderId', 'transferId', 'uid', 'subUid', 'advId', 'productId']);

/** A failure's cause beyond its kind: the routing's own answers that are no refusal kind of a part. */
export type RouteFailure = { status: number; code: string; msg: string; headers?: Record<string, string> };

export interface Replies {
  /** A part's outcome (or the routing's refusal) as the answer to an operation. */
  outcome(op: Op | undefined, outcome: Outcome): Reply;
  refusal(kind: RefusalKind, msg: string, code?: string): Reply;
  /** An answer with a status of its own (404, 405, 415, 500), in the failure body of the reading. */
  failure(f: RouteFailure): Reply;
}

export function replies(c: Choices, reading: RoutingReading, now: () => number): Replies {
  const errorBody = reading('U-NS-ERROR-BODY');
  const integers = reading('U-NS-ID-TYPES') === 'integers';

  function failure(f: RouteFailure): Reply {
    const headers = { ...f.headers };
    let body: unknown;
    if (errorBody === 'problem-details') {
      headers['content-type'] = 'application/problem+json';
      body = { type: 'about:blank', title: titleOf(f.status), status: f.status, detail: f.msg };
    } else if (errorBody === 'error-string') {
      body = { error: f.msg };
    } else {
      // code-msg; an http-status-only deployment carries no code member at all.
      body = c.envelope === 'http-status-only' ? { msg: f.msg, requestTime: now(), data: null } : { code: f.code, msg: f.msg, requestTime: now(), data: null };
    }
    return { status: f.status, body, headers };
  }

  function refusal(kind: RefusalKind, msg: string, code?: string): Reply {
    const own = code && /^\d+$/.test(code) && code !== '00000' ? code : undefined;
    if (kind === 'throttle') {
      const byCode = reading('U-NS-THROTTLE-STATUS') === 'too-many-requests-429';
      return failure({ status: c.status.throttle, code: own ?? (byCode ? CODES.throttle : CODES.throttleOwn), msg: byCode ? 'Too Many Requests' : msg });
    }
    if (kind === 'state' || kind === 'not-found') return failure({ status: stateStatus(kind, msg, own), code: own ?? (kind === 'not-found' ? STATE_CODES.unknownOrder : CODES.state), msg });
    const fallback = { auth: CODES.authKey, permission: CODES.permission, validation: CODES.validation }[kind];
    return failure({ status: c.status[kind], code: own ?? fallback, msg });
  }

  /** U-NS-STATE-STATUS: one status (bad-request-400, or the profile's), or conflict-409's status per cause. */
  function stateStatus(kind: 'state' | 'not-found', msg: string, code: string | undefined): number {
    if (reading('U-NS-STATE-STATUS') !== 'conflict-409') return c.status.state;
    if (kind === 'not-found' || code === STATE_CODES.unknownOrder || /not exist|no such|not found|unknown/i.test(msg)) return 404;
    if (code === STATE_CODES.insufficient || code === STATE_CODES.belowMinimum) return 422;
    if (code === STATE_CODES.taken || code === STATE_CODES.finished) return 409;
    return /insufficient|balance|minimum|below|exceed|more than|not enough/i.test(msg) ? 422 : 409;
  }

  function success(op: Op | undefined, data: unknown): Reply {
    const payload = integers ? withIntegerIds(data) : data;
    const status = op?.creates && reading('U-NS-SUCCESS-STATUS') === 'created-201' ? 201 : 200;
    const body = c.envelope === 'http-status-only' ? { data: payload } : { code: '00000', msg: 'success', requestTime: now(), data: payload };
    return { status, body };
  }

  return {
    outcome: (op, o) => (o.ok ? success(op, o.data) : refusal(o.kind, o.msg, o.code)),
    refusal,
    failure,
  };
}

/** U-NS-ID-TYPES integers: every id member holding a string of digits becomes the integer it writes. */
function withIntegerIds(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withIntegerIds(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withIntegerIds(v, k)]));
  // Beyond 2^53 an integer would not come back as it was sent: such an id stays a string (the parts make smaller ones).
  if (key && ID_MEMBERS.has(key) && typeof value === 'string' && /^[1-9]\d*$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
  return value;
}

function titleOf(status: number): string {
  return ({ 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 415: 'Unsupported Media Type', 422: 'Unprocessable Content', 429: 'Too Many Requests' } as Record<number, string>)[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request');
}

export function send(res: http.ServerResponse, reply: Reply): void {
  sendJson(res, reply.status, reply.body, reply.headers);
}
