// Embedded reference of Interface D: usage events for metered billing (/v1/events). Written from the document; where
// it says "not shown" it follows the real billing product the document follows (its events API), or the profile's
// setting where the harness makes the point one. It never imports the suite's model, only the type of its settings.
//
// What the document leaves open, as the reference answers it:
// - authentication: Authorization: Bearer <accessToken> on every operation; a missing or wrong token is 401 (or the
//   profile's refusalStatus) with WWW-Authenticate: Bearer;
// - POST /v1/events/ingest: more than 100 events is 422 (or refusalStatus) and ingests nothing; otherwise 200 with
//   { <inserted>, duplicates, <errors>: [{ <errorIndex>, message }] }, member names from settings.ingestResponse;
//   a body that is not JSON, or has no events array, is 422;
// - a stored event: { <eventId>, name, customer_id, external_customer_id (null when not sent), timestamp (UTC, Z),
//   properties, source: "user", organization_id };
// - GET /v1/events/{id} of an unknown id is 404; a parameter that does not validate is 422; an unknown path is 404
//   and a known path with another method 405 (with Allow), before authentication, as the product's router answers.
// The reads (filters, paging, statistics) are described in reads.ts, filter clauses in filters.ts, ingestion in store.ts.
//
// Each of these choices is an open point of specs/usage-events.yaml (x-not-shown), and the reference takes the other
// readings its catalogue lists (readings.ts) when its profile entry asks for them (reference.readings). Read here:
// D-NS-AUTH-STATUS, D-NS-AUTH-ORDER, D-NS-BODY-ORDER, D-NS-WRONG-METHOD, D-NS-ERROR-BODY, D-NS-RATE-LIMITS,
// D-NS-ORGANIZATION-SCOPE (header-everywhere), D-NS-REQUEST-CONTENT-TYPE, D-NS-BODY-LIMIT, D-NS-EMPTY-BATCH,
// D-NS-UNKNOWN-MEMBERS (the body's own members), D-NS-OVER-LIMIT, D-NS-LIMIT-STATUS, D-NS-VALIDATION-STATUS, and the
// shape of the ingest answer: D-NS-INGEST-SHAPE, D-NS-DUPLICATES, D-NS-ERROR-ENTRIES, D-NS-SUCCESS-STATUS,
// D-NS-PARTIAL-STATUS.
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import Router from 'find-my-way';
import type { UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';
import { MAX_BODY_BYTES, faultSwitch, listen, readBody } from '../plumbing.js';
import { readingSwitch } from '../readings.js';
import type { RunningServer } from '../types.js';
import { faults } from './faults.js';
import { Reads } from './reads.js';
import { readings } from './readings.js';
import { invalid, refusal, send, styled, type Reply } from './replies.js';
import { EventStore, isRecord, type IngestOutcome } from './store.js';

export type { UsageEventsSettings, RunningServer };

export interface UsageEventsReferenceOptions {
  /** How long an ingested event takes to become visible to the reads, in ms (default 300). */
  queryableAfterMs?: number;
  /** The organization the events belong to and statistics answer for (default: the profile's settings.organizationId). */
  organizationId?: string;
  /**
   * For read-only profiles: an authenticated ingest is answered 500 (a run that passes sent none), and the store
   * starts with a few events of its own, so that the reads have something to read.
   */
  writeTripwire?: boolean;
  /** The readings of open points to take (point -> reading; readings.ts), beside the defaults. */
  readings?: Readonly<Record<string, string>>;
}

export interface StartOptions {
  settings: UsageEventsSettings;
  reference?: UsageEventsReferenceOptions;
  /** accessToken: the bearer token every operation needs. */
  secrets: Record<string, string>;
  fault?: string;
  host?: string;
  port?: number;
}

export const QUERYABLE_AFTER_MS = 300;

/** What a tripwired reference already holds: another client's events, from before the run. */
const PRESET_EVENTS = [1, 2, 3].map((i) => ({
  name: 'preset.api_call',
  external_customer_id: `preset-customer-${i}`,
  timestamp: `2020-01-0${i}T12:00:00Z`,
  properties: { units: i, seq: `preset-${i}` },
}));
/** "At most 100 per request". */
export const MAX_BATCH = 100;
/** D-NS-BODY-LIMIT hundred-kib: the body limit of Express's JSON parser by default. */
const SMALL_BODY_BYTES = 100 * 1024;
/** D-NS-RATE-LIMITS per-token-window: requests a token may make per window. */
const RATE_LIMIT = 50;
const RATE_WINDOW_MS = 1000;
const EVENT_MEMBERS_OF_BODY = new Set(['events']);

/** A request's body, read and found to be an object with an events array, or the refusal of it. */
type IngestBody = { events: unknown[] } | Reply;

type Handler = (req: http.IncomingMessage, params: Record<string, string | undefined>, query: URLSearchParams, body?: IngestBody) => Reply | Promise<Reply>;

export async function start(options: StartOptions): Promise<RunningServer> {
  const on = faultSwitch(faults, 'usage-events', options.fault);
  const reading = readingSwitch(readings, 'usage-events', options.reference?.readings);
  const { settings } = options;
  const reference = options.reference ?? {};
  const token = options.secrets.accessToken;
  if (!token) throw new Error('usage-events reference: no accessToken credential (the bearer token has no default)');

  const store = new EventStore(reference.organizationId ?? settings.organizationId, reference.queryableAfterMs ?? QUERYABLE_AFTER_MS, on, reading, settings.customers.customerIds);
  const reads = new Reads(settings, store, on, reading);
  if (reference.writeTripwire) await store.ingest(PRESET_EVENTS);

  /** The status of a request that does not validate (D-NS-VALIDATION-STATUS). */
  const invalidStatus = reading('D-NS-VALIDATION-STATUS') === 'bad-request-400' ? 400 : 422;
  /** The status of a batch over 100 events (D-NS-LIMIT-STATUS), unless the profile states one for every refusal. */
  const limitStatus = settings.refusalStatus ?? { 'unprocessable-422': 422, 'bad-request-400': 400, 'payload-too-large-413': 413 }[reading('D-NS-LIMIT-STATUS')];
  const out = (res: http.ServerResponse, reply: Reply) => send(res, styled(reply, reading('D-NS-ERROR-BODY')));

  /** A refused token: 401 with WWW-Authenticate (or the profile's refusalStatus), or 403 (D-NS-AUTH-STATUS). */
  const unauthorized = (kind: 'missing' | 'invalid', detail: string): Reply => {
    const auth = reading('D-NS-AUTH-STATUS');
    const forbidden = settings.refusalStatus === undefined && (auth === 'forbidden-403' || (auth === 'missing-401-invalid-403' && kind === 'invalid'));
    return forbidden ? refusal(403, 'Forbidden', detail) : refusal(settings.refusalStatus ?? 401, 'Unauthorized', detail, { 'www-authenticate': 'Bearer' });
  };
  function authenticate(req: http.IncomingMessage): Reply | undefined {
    if (on('no-auth')) return undefined;
    const header = req.headers.authorization;
    const bearer = /^Bearer +(\S+)\s*$/i.exec(typeof header === 'string' ? header : '');
    if (!bearer) return unauthorized('missing', 'Authorization: Bearer <access token> is required.');
    return same(bearer[1]!, token) ? undefined : unauthorized('invalid', 'The access token is not valid.');
  }

  /** D-NS-RATE-LIMITS per-token-window: the times of each token's requests in the last window. */
  const recent = new Map<string, number[]>();
  function rateLimited(req: http.IncomingMessage): Reply | undefined {
    if (reading('D-NS-RATE-LIMITS') !== 'per-token-window') return undefined;
    const key = String(req.headers.authorization ?? '');
    const now = Date.now();
    const stamps = (recent.get(key) ?? []).filter((t) => t > now - RATE_WINDOW_MS);
    if (stamps.length >= RATE_LIMIT) {
      recent.set(key, stamps);
      const retryAfter = Math.max(1, Math.ceil((stamps[0]! + RATE_WINDOW_MS - now) / 1000));
      return refusal(429, 'TooManyRequests', `At most ${RATE_LIMIT} requests per second.`, { 'retry-after': String(retryAfter) });
    }
    stamps.push(now);
    recent.set(key, stamps);
    return undefined;
  }

  /** D-NS-ORGANIZATION-SCOPE header-everywhere: every operation names its organization in X-Organization-Id. */
  function organizationHeader(req: http.IncomingMessage): Reply | undefined {
    if (reading('D-NS-ORGANIZATION-SCOPE') !== 'header-everywhere') return undefined;
    const id = req.headers['x-organization-id'];
    if (typeof id !== 'string' || id === '') return invalid([{ loc: ['header', 'x-organization-id'], msg: 'Field required', type: 'missing' }], invalidStatus);
    return reads.organizationRefusal(id);
  }

  /** The ingest body: read, parsed and found to hold an events array, or the refusal of it. */
  async function readIngest(req: http.IncomingMessage): Promise<IngestBody> {
    if (reading('D-NS-REQUEST-CONTENT-TYPE') === 'json-required' && !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(String(req.headers['content-type'] ?? ''))) {
      req.resume();
      return refusal(415, 'UnsupportedMediaType', 'Content-Type must be application/json.');
    }
    const small = reading('D-NS-BODY-LIMIT') === 'hundred-kib';
    const raw = await readBody(req, small ? SMALL_BODY_BYTES : MAX_BODY_BYTES);
    if (raw === undefined) return refusal(413, 'PayloadTooLarge', `The body exceeds ${small ? '100 KiB' : '1 MiB'}.`);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch (e) {
      // The fault: the parse error escapes the handler.
      if (on('broken-json-500')) throw e;
      return invalid([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }], invalidStatus);
    }
    if (!isRecord(body) || !Array.isArray(body.events)) return invalid([{ loc: ['body', 'events'], msg: 'an object with an events array is required', type: 'missing' }], invalidStatus);
    if (reading('D-NS-UNKNOWN-MEMBERS') === 'refused') {
      const extra = Object.keys(body).filter((k) => !EVENT_MEMBERS_OF_BODY.has(k));
      if (extra.length) return invalid(extra.map((k) => ({ loc: ['body', k], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' })), invalidStatus);
    }
    return { events: body.events };
  }

  const ingest: Handler = async (req, _params, _query, preread) => {
    // The fault: ingestion switched off for the organization.
    if (on('ingest-refused')) {
      if (!preread) req.resume();
      return refusal(403, 'Forbidden', 'Ingestion is not enabled for this organization.');
    }
    const read = preread ?? (await readIngest(req));
    if ('status' in read) return read;
    const { events } = read;
    if (events.length === 0 && on('ingest-auth-skipped')) return invalid([{ loc: ['body', 'events'], msg: 'at least one event is required', type: 'too_short' }], invalidStatus);
    if (events.length === 0 && reading('D-NS-EMPTY-BATCH') === 'refused') {
      return invalid([{ loc: ['body', 'events'], msg: 'List should have at least 1 item after validation, not 0', type: 'too_short' }], invalidStatus);
    }
    // The fault's bound is one too high.
    const bound = on('limit-101-accepted') ? MAX_BATCH + 1 : MAX_BATCH;
    const excessAsErrors = reading('D-NS-OVER-LIMIT') === 'excess-as-errors';
    if (events.length > bound && !excessAsErrors) {
      return invalid([{ loc: ['body', 'events'], msg: `List should have at most ${MAX_BATCH} items, not ${events.length}`, type: 'too_long' }], limitStatus);
    }
    if (reference.writeTripwire) return refusal(500, 'WriteTripwire', 'This reference runs for a read-only profile: it was sent a write.');
    const outcome = await store.ingest(events.slice(0, bound));
    // D-NS-OVER-LIMIT excess-as-errors: the events beyond the limit fail one by one.
    const beyond = `only ${MAX_BATCH} events are ingested per request`;
    const excess = events.slice(bound).map((_, i) => ({ index: bound + i, message: beyond, problems: [{ field: '', message: beyond }] }));
    return ingestAnswer(outcome, [...outcome.errors, ...excess], events.length);
  };

  /** The ingest answer: its members (D-NS-INGEST-RESPONSE, -SHAPE, -DUPLICATES, -ERROR-ENTRIES) and status. */
  function ingestAnswer(outcome: IngestOutcome, failed: IngestOutcome['errors'], sent: number): Reply {
    const names = settings.ingestResponse;
    const duplicates = reading('D-NS-DUPLICATES');
    const already = 'an event with this idempotency_key was already ingested';
    const errors =
      duplicates === 'error-entry'
        ? [...failed, ...outcome.duplicateIndexes.map((index) => ({ index, message: already, problems: [{ field: 'idempotency_key', message: already }] }))].sort((a, b) => a.index - b.index)
        : failed;
    const entries = errors.flatMap((e): Array<Record<string, unknown>> => {
      switch (reading('D-NS-ERROR-ENTRIES')) {
        case 'entry-per-problem':
          return e.problems.map((p) => ({ [names.errorIndex]: e.index, field: p.field || null, message: p.message }));
        case 'loc-path':
          return e.problems.map((p) => ({ loc: ['body', 'events', e.index, ...(p.field ? p.field.split('.') : [])], msg: p.message, type: 'value_error' }));
        default:
          return [{ [names.errorIndex]: e.index, message: e.message }];
      }
    });
    const members: Record<string, unknown> = { [names.inserted]: duplicates === 'counted-as-ingested' ? outcome.inserted + outcome.duplicates : outcome.inserted };
    if (duplicates === 'counted-apart') members.duplicates = outcome.duplicates;
    members[names.errors] = entries;
    const shape = reading('D-NS-INGEST-SHAPE');
    if (shape === 'errors-omitted-when-empty') {
      if (entries.length === 0) delete members[names.errors];
      if (members.duplicates === 0) delete members.duplicates;
    }
    const body = shape === 'data-envelope' ? { data: members } : members;

    const partial = reading('D-NS-PARTIAL-STATUS');
    // Every event failed (duplicates skipped are not failures): nothing of the batch could be taken.
    if (partial === 'all-failed-422' && sent > 0 && new Set(failed.map((e) => e.index)).size >= sent) return { status: 422, body };
    if (partial === 'multi-status-207' && errors.length > 0) return { status: 207, body };
    const success = reading('D-NS-SUCCESS-STATUS');
    return { status: success === 'accepted-202' ? 202 : success === 'created-201' ? 201 : 200, body };
  }

  const routes: Array<['GET' | 'POST', string, Handler]> = [
    ['POST', '/v1/events/ingest', ingest],
    ['GET', '/v1/events', (_req, _params, query) => reads.list(query)],
    // The fault: the statistics are written out as text, their content type left to the framework's default.
    ['GET', '/v1/events/statistics', (_req, _params, query) => asText(reads.statistics(query), on('statistics-text-plain'))],
    ['GET', '/v1/events/:id', (_req, params, query) => reads.one(params.id ?? '', query)],
  ];

  const router = Router({
    ignoreTrailingSlash: true,
    defaultRoute: (req, res) => {
      // D-NS-AUTH-ORDER auth-first: the token is checked before the route is looked up.
      const refused = reading('D-NS-AUTH-ORDER') === 'auth-first' ? authenticate(req) : undefined;
      if (refused) return out(res, refused);
      // A path served for another method is 405 (or 404, D-NS-WRONG-METHOD), anything else 404.
      const path = (req.url ?? '/').split('?')[0]!;
      const allowed = (['GET', 'POST'] as const).filter((m) => m !== req.method && router.find(m, path) !== null);
      const notAllowed = allowed.length > 0 && reading('D-NS-WRONG-METHOD') === 'method-not-allowed-405';
      out(res, notAllowed ? refusal(405, 'MethodNotAllowed', 'Method Not Allowed', { allow: allowed.join(', ') }) : refusal(404, 'NotFound', 'Not Found'));
    },
  });

  /** A routed request: (its body first, D-NS-BODY-ORDER body-first), the token, the rate limit, the organization, the handler. */
  async function serve(req: http.IncomingMessage, method: string, params: Record<string, string | undefined>, handle: Handler): Promise<Reply> {
    const url = req.url ?? '';
    // The faults: a framework that "cleans" a malformed query by redirecting to the bare path; an ingest route moved
    // under a trailing slash, its old path redirecting there.
    if (on('odd-query-redirect') && /%(?![0-9a-f]{2})/i.test(url.split('?')[1] ?? '')) return { status: 301, body: '', headers: { location: url.split('?')[0]! } };
    if (on('ingest-moved') && method === 'POST') return { status: 308, body: '', headers: { location: `${url.split('?')[0]}/` } };
    const preread = method === 'POST' && reading('D-NS-BODY-ORDER') === 'body-first' ? await readIngest(req) : undefined;
    if (preread && 'status' in preread) return preread;
    // The fault: the ingest route was mounted outside the bearer-token middleware.
    const skipped = method === 'POST' && on('ingest-auth-skipped');
    const refused = (skipped ? undefined : authenticate(req)) ?? rateLimited(req) ?? organizationHeader(req);
    if (refused) return refused;
    const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
    return handle(req, params, query, preread);
  }
  for (const [method, path, handle] of routes) {
    router.on(method, path, (req, res, params) => {
      serve(req, method, params, handle).then(
        (reply) => out(res, reply),
        () => (res.headersSent ? res.destroy() : out(res, refusal(500, 'InternalServerError', 'Unexpected error.'))),
      );
    });
  }

  const server = http.createServer((req, res) => router.lookup(req, res));
  return listen(server, options.host, options.port);
}

/** Compares secrets in constant time (their hashes, so that lengths do not matter either). */
function same(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** A success sent as text/plain (the 'statistics-text-plain' fault); refusals keep their own content type. */
function asText(reply: Reply, fault: boolean): Reply {
  return fault && reply.status < 300 ? { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain; charset=utf-8' } } : reply;
}
