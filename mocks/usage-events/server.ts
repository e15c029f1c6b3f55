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
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import Router from 'find-my-way';
import type { UsageEventsSettings } from '../../suites/usage-events/settings.ts';
import { faultSwitch, listen, readBody } from '../plumbing.js';
import type { RunningServer } from '../types.js';
import { faults } from './faults.js';
import { Reads } from './reads.js';
import { invalid, ok, refusal, send, type Reply } from './replies.js';
import { EventStore, isRecord } from './store.js';

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

type Handler = (req: http.IncomingMessage, params: Record<string, string | undefined>, query: URLSearchParams) => Reply | Promise<Reply>;

export async function start(options: StartOptions): Promise<RunningServer> {
  const on = faultSwitch(faults, 'usage-events', options.fault);
  const { settings } = options;
  const reference = options.reference ?? {};
  const token = options.secrets.accessToken;
  if (!token) throw new Error('usage-events reference: no accessToken credential (the bearer token has no default)');

  const store = new EventStore(reference.organizationId ?? settings.organizationId, reference.queryableAfterMs ?? QUERYABLE_AFTER_MS, on);
  const reads = new Reads(settings, store, on);
  if (reference.writeTripwire) await store.ingest(PRESET_EVENTS);

  const unauthorized = (detail: string) => refusal(settings.refusalStatus ?? 401, 'Unauthorized', detail, { 'www-authenticate': 'Bearer' });
  function authenticate(req: http.IncomingMessage): Reply | undefined {
    if (on('no-auth')) return undefined;
    const header = req.headers.authorization;
    const bearer = /^Bearer +(\S+)\s*$/i.exec(typeof header === 'string' ? header : '');
    if (!bearer) return unauthorized('Authorization: Bearer <access token> is required.');
    return same(bearer[1]!, token) ? undefined : unauthorized('The access token is not valid.');
  }

  const ingest: Handler = async (req) => {
    const raw = await readBody(req);
    if (raw === undefined) return refusal(413, 'PayloadTooLarge', 'The body exceeds 1 MiB.');
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return invalid([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }]);
    }
    if (!isRecord(body) || !Array.isArray(body.events)) return invalid([{ loc: ['body', 'events'], msg: 'an object with an events array is required', type: 'missing' }]);
    // The fault's bound is one too high.
    if (body.events.length > (on('limit-101-accepted') ? MAX_BATCH + 1 : MAX_BATCH)) {
      return invalid([{ loc: ['body', 'events'], msg: `List should have at most ${MAX_BATCH} items, not ${body.events.length}`, type: 'too_long' }], settings.refusalStatus ?? 422);
    }
    if (reference.writeTripwire) return refusal(500, 'WriteTripwire', 'This reference runs for a read-only profile: it was sent a write.');
    const outcome = await store.ingest(body.events);
    const names = settings.ingestResponse;
    return ok({
      [names.inserted]: outcome.inserted,
      duplicates: outcome.duplicates,
      [names.errors]: outcome.errors.map((e) => ({ [names.errorIndex]: e.index, message: e.message })),
    });
  };

  const routes: Array<['GET' | 'POST', string, Handler]> = [
    ['POST', '/v1/events/ingest', ingest],
    ['GET', '/v1/events', (_req, _params, query) => reads.list(query)],
    ['GET', '/v1/events/statistics', (_req, _params, query) => reads.statistics(query)],
    ['GET', '/v1/events/:id', (_req, params) => reads.one(params.id ?? '')],
  ];

  const router = Router({
    ignoreTrailingSlash: true,
    defaultRoute: (req, res) => {
      // A path served for another method is 405, anything else 404.
      const path = (req.url ?? '/').split('?')[0]!;
      const allowed = (['GET', 'POST'] as const).filter((m) => m !== req.method && router.find(m, path) !== null);
      send(res, allowed.length ? refusal(405, 'MethodNotAllowed', 'Method Not Allowed', { allow: allowed.join(', ') }) : refusal(404, 'NotFound', 'Not Found'));
    },
  });
  for (const [method, path, handle] of routes) {
    router.on(method, path, (req, res, params) => {
      const refused = authenticate(req);
      if (refused) return send(res, refused);
      const url = req.url ?? '';
      const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
      Promise.resolve()
        .then(() => handle(req, params, query))
        .then(
          (reply) => send(res, reply),
          () => (res.headersSent ? res.destroy() : send(res, refusal(500, 'InternalServerError', 'Unexpected error.'))),
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
