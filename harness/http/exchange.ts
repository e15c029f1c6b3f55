import type { Secrets } from '../secrets.ts';

/**
 * One request and what came back, bodies cut to a readable size. Captured raw, for speed: it is redacted by
 * `redactExchange` before it becomes evidence, the only way an exchange leaves the process.
 */
export interface Exchange {
  label?: string;
  operation?: string;
  request: { method: string; url: string; headers: Array<[string, string]>; body?: string };
  /** The path the check asked for, without the base URL's prefix (the URL above has it). */
  requestPath?: string;
  response?: { status: number; headers: Record<string, string>; body: string };
  /** Why no response: a time-out, a refused connection, a broken reply. */
  error?: string;
  /** Epoch milliseconds. */
  startedAt: number;
  durationMs: number;
  /** What the spec says is wrong with the response, by generic requirement. */
  problems?: { schema: string[]; contentType: string[]; headers: string[] };
  /**
   * The request as the check built it, before the interface's authentication step added credentials or a signature:
   * what a replay sends through the same step, signed afresh with the replaying profile's credentials.
   */
  beforeAuthentication?: { headers: Array<[string, string]>; body?: string; json: boolean; credential?: string };
  /** The generic checks the response could be held to (its status is documented with a schema, a media type, headers). */
  checked?: { schema: boolean; contentType: boolean; headers: boolean };
  /** A 429 the client waited out, as its Retry-After asked, whose request the API then answered: it hid nothing. */
  waitedOut?: boolean;
  /**
   * Why a suite took this answer, of a status its spec documents, for the environment's (chat: a 429 no client could
   * have earned, unlike the limiter's own): no response check holds it to the spec, and it is trouble.
   */
  environment?: string;
}

export const EVIDENCE_BODY_LIMIT = 8192;

export function cut(text: string, limit = EVIDENCE_BODY_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`;
}

/** A copy of an exchange fit to be written anywhere: every secret replaced by its token (see Secrets). */
export function redactExchange(ex: Exchange, secrets: Secrets): Exchange {
  const r = (t: string) => secrets.redact(t);
  return {
    ...ex,
    request: {
      method: ex.request.method,
      url: r(ex.request.url),
      headers: ex.request.headers.map(([k, v]) => [k, secrets.redactHeader(k, v)]),
      body: ex.request.body === undefined ? undefined : r(ex.request.body),
    },
    response: ex.response && {
      status: ex.response.status,
      headers: Object.fromEntries(Object.entries(ex.response.headers).map(([k, v]) => [k, secrets.redactHeader(k, v)])),
      body: r(ex.response.body),
    },
    error: ex.error === undefined ? undefined : r(ex.error),
    beforeAuthentication: ex.beforeAuthentication && {
      headers: ex.beforeAuthentication.headers.map(([k, v]) => [k, secrets.redactHeader(k, v)]),
      body: ex.beforeAuthentication.body === undefined ? undefined : r(ex.beforeAuthentication.body),
      json: ex.beforeAuthentication.json,
      ...(ex.beforeAuthentication.credential ? { credential: ex.beforeAuthentication.credential } : {}),
    },
    problems: ex.problems && { schema: ex.problems.schema.map(r), contentType: ex.problems.contentType.map(r), headers: ex.problems.headers.map(r) },
  };
}
