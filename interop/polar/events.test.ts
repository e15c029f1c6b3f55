// Real-client interoperability of Interface D (usage events): the billing product's own SDK, @polar-sh/sdk, in its two
// published lines (0.x, the generated `Polar` class; 1.x, `createPolar` per API version), unmodified, ingesting into
// the embedded reference. A loopback recorder stands between the SDK and the reference and keeps every exchange, so
// each step asserts what the document says about the request the SDK actually sent and the answer the reference
// actually gave. Where the SDK and the document part ways, the step asserts that the difference is exactly the known
// one and records it (t.diagnostic): the reference keeps to the document, the SDK is driven as shipped, and nothing
// on either side is patched.
//
// Run from the repository's root: node --import tsx/esm --test interop/polar/events.test.ts
// (the SDK resolves from interop/polar/node_modules: `npm ci --prefix interop/polar` first, or `npm run test:interop`).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { Polar } from '@polar-sh/sdk';
import { HTTPValidationError as HTTPValidationError0 } from '@polar-sh/sdk/models/errors/httpvalidationerror.js';
import { SDKError } from '@polar-sh/sdk/models/errors/sdkerror.js';
import { PolarClientError } from 'polar-sdk-1';
import { createPolar, errors as errors1 } from 'polar-sdk-1/2026-10';
import { start } from '../../mocks/usage-events/server.ts';
import { usageEventsEntry, type UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';

const INGEST = '/v1/events/ingest';
const TOKEN = 'interop-polar-token';
/** Short, so that the reads below wait for the asynchronous ingestion without slowing the run. */
const QUERYABLE_AFTER_MS = 50;
/** The API version the 1.x line's README calls current; its 2026-04 and 2027-01 clients ingest with the same code. */
const API_VERSION_1 = '2026-10';
/** RFC 3339, the profile of ISO 8601 the spec reads "ISO 8601" as (format date-time). */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** "alphanumeric characters, underscores and dots" */
const NAME = /^[A-Za-z0-9_.]+$/;

interface Manifest {
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
}
const manifest = (relative: string): Manifest => JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as Manifest;
const PINNED = manifest('./package.json').dependencies!;

// ---- a recorder between the SDK and the reference ------------------------------------------------------------------

interface Exchange {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
  answer: string;
}

interface Wire {
  url: string;
  log: Exchange[];
  close(): Promise<void>;
}

/** Passes every request through to `target` untouched and keeps a copy of both sides. */
async function wire(target: string): Promise<Wire> {
  const upstream = new URL(target);
  const log: Exchange[] = [];
  const collect = async (stream: NodeJS.ReadableStream): Promise<Buffer> => {
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(part as Buffer);
    return Buffer.concat(parts);
  };
  const server = http.createServer(async (req, res) => {
    const body = await collect(req);
    const onward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, async (reply) => {
      const answer = await collect(reply);
      log.push({
        method: req.method ?? '',
        path: (req.url ?? '/').split('?')[0]!,
        headers: req.headers,
        body: body.toString('utf8'),
        status: reply.statusCode ?? 0,
        answer: answer.toString('utf8'),
      });
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      res.end(answer);
    });
    onward.on('error', (error) => res.destroy(error));
    onward.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Runs `step` and returns its outcome (or its rejection) with what crossed the wire meanwhile. */
async function observe<T>(step: () => Promise<T>): Promise<{ result?: T; error?: unknown; sent: Exchange[] }> {
  const mark = recorder.log.length;
  try {
    const result = await step();
    return { result, sent: recorder.log.slice(mark) };
  } catch (error) {
    return { error, sent: recorder.log.slice(mark) };
  }
}

const header = (e: Exchange, name: string): string | undefined => {
  const value = e.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
};

// ---- what the document says about one ingest -------------------------------------------------------------------------

interface IngestAnswer {
  inserted: number;
  duplicates: number;
  errors: Array<{ index: number; message: string }>;
}

/**
 * The request side of "POST /v1/events/ingest | JSON object with `events`, an array of usage events" under "Bearer
 * authentication", checked on what was sent; hands back the events as they went out.
 */
function assertDocumentedIngest(sent: Exchange[]): Array<Record<string, unknown>> {
  assert.deepEqual(sent.map((e) => `${e.method} ${e.path}`), [`POST ${INGEST}`], 'one request: POST /v1/events/ingest');
  const [post] = sent;
  assert.equal(header(post!, 'Authorization'), `Bearer ${TOKEN}`, 'Authorization: Bearer <ACCESS_TOKEN>');
  assert.match(header(post!, 'Content-Type') ?? '', /^application\/json\b/);
  const body = JSON.parse(post!.body) as { events?: unknown };
  assert.ok(Array.isArray(body.events), 'a JSON object with `events`, an array');
  assert.ok(body.events.length <= 100, 'at most 100 per request');
  for (const event of body.events as Array<Record<string, unknown>>) {
    assert.equal(typeof event.name, 'string');
    assert.match(event.name as string, NAME, 'name: alphanumeric characters, underscores and dots');
    assert.ok(typeof event.customer_id === 'string' || typeof event.external_customer_id === 'string', 'customer_id or external_customer_id');
    assert.equal(typeof event.timestamp, 'string');
    assert.match(event.timestamp as string, ISO_8601, 'timestamp: ISO 8601');
  }
  return body.events as Array<Record<string, unknown>>;
}

/** The reference's side: "number of events ingested and an array of errors for failed events", as its settings name them. */
function referenceAnswer(sent: Exchange[]): IngestAnswer {
  const [post] = sent;
  assert.equal(post!.status, 200, `the reference took the batch (${post!.answer})`);
  const answer = JSON.parse(post!.answer) as IngestAnswer;
  assert.ok(Number.isInteger(answer.inserted) && Number.isInteger(answer.duplicates));
  assert.ok(Array.isArray(answer.errors));
  return answer;
}

/** What the reference stored for one external customer, read as any client of the document would, once it is queryable. */
async function storedFor(externalCustomerId: string, count: number): Promise<Array<Record<string, unknown>>> {
  const deadline = Date.now() + settings.queryableWithinMs;
  // Past the reference's own delay first, so that a read expecting nothing (count 0) cannot pass merely by coming early.
  await new Promise((resolve) => setTimeout(resolve, QUERYABLE_AFTER_MS + 10));
  for (;;) {
    const url = `${reference.url}/v1/events?external_customer_id=${encodeURIComponent(externalCustomerId)}&limit=100`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200);
    const { items } = (await res.json()) as { items: Array<Record<string, unknown>> };
    if (items.length >= count || Date.now() > deadline) return items;
    await new Promise((resolve) => setTimeout(resolve, QUERYABLE_AFTER_MS));
  }
}

const sameInstant = (a: unknown, b: unknown) => assert.equal(Date.parse(a as string), Date.parse(b as string), `${String(a)} is ${String(b)}`);

// ---- the reference, one for every step -------------------------------------------------------------------------------

const settings = Value.Default(usageEventsEntry().properties.settings, {}) as UsageEventsSettings;
let reference: { url: string; close(): Promise<void> };
let recorder: Wire;

before(async () => {
  reference = await start({ settings, reference: { queryableAfterMs: QUERYABLE_AFTER_MS }, secrets: { accessToken: TOKEN }, host: '127.0.0.1', port: 0 });
  recorder = await wire(reference.url);
});

after(async () => {
  await recorder?.close();
  await reference?.close();
});

test('SDK versions', (t) => {
  const zero = manifest('./node_modules/@polar-sh/sdk/package.json');
  const one = manifest('./node_modules/polar-sdk-1/package.json');
  assert.equal(zero.version, PINNED['@polar-sh/sdk'], 'the installed 0.x line is the pinned one (npm ci --prefix interop/polar)');
  assert.equal(`npm:@polar-sh/sdk@${one.version}`, PINNED['polar-sdk-1'], 'the installed 1.x line is the pinned one');
  t.diagnostic(`@polar-sh/sdk ${zero.version} (class Polar) and ${one.version} (createPolar, API ${API_VERSION_1}), unmodified; ${reference.url} behind recorder ${recorder.url}`);
  // 1.x declares engines.node ">=22"; npm only warns, and every path below runs on the harness's Node 20 as well.
  t.diagnostic(`1.x declares engines.node ${JSON.stringify(one.engines?.node)}; running on Node ${process.versions.node}`);
});

// ---- 0.x: the generated `Polar` class --------------------------------------------------------------------------------

describe('@polar-sh/sdk 0.x (new Polar)', () => {
  const polar = () => new Polar({ accessToken: TOKEN, serverURL: recorder.url, timeoutMs: 5000 });

  test('ingest: the request is the document\'s except that the key-value pairs go out as `metadata`; the reference ingests the events without them', async (t) => {
    const customer = 'interop-polar-0-ingest';
    const times = ['2024-03-01T10:00:00Z', '2024-03-01T10:05:30Z'];
    const { result, sent } = await observe(() =>
      polar().events.ingest({
        events: [
          { name: 'interop.api_call', externalCustomerId: customer, timestamp: new Date(times[0]!), metadata: { units: 3, tier: 'tier_a' } },
          { name: 'interop.llm_tokens.v2', externalCustomerId: customer, timestamp: new Date(times[1]!), metadata: { units: 120, tier: 'tier_b' } },
        ],
      }),
    );
    const events = assertDocumentedIngest(sent);
    assert.deepEqual(events.map((e) => e.name), ['interop.api_call', 'interop.llm_tokens.v2']);
    for (const [i, event] of events.entries()) {
      assert.equal(event.external_customer_id, customer);
      assert.equal(event.customer_id, undefined);
      // The SDK writes Date#toISOString(): milliseconds and Z, ISO 8601 all the same.
      sameInstant(event.timestamp, times[i]);
    }

    // Known difference. The document's event carries its key-value pairs in `properties`; the SDK's model has no such
    // member and sends them as `metadata` (the product's name for them), with nothing in `properties`.
    assert.deepEqual(events.map((e) => Object.keys(e).sort()), [0, 1].map(() => ['external_customer_id', 'metadata', 'name', 'timestamp']));
    assert.deepEqual(events.map((e) => e.metadata), [{ units: 3, tier: 'tier_a' }, { units: 120, tier: 'tier_b' }]);

    // The document shows no rule for a member it does not name, nor for an event without `properties`; the reference
    // takes both events, and the SDK reads the two members of the answer its model has.
    assert.deepEqual(referenceAnswer(sent), { inserted: 2, duplicates: 0, errors: [] });
    assert.deepEqual(result, { inserted: 2, duplicates: 0 });

    // What the events are then, read back: everything as sent, but with no key-value pairs for a meter to count.
    const stored = await storedFor(customer, 2);
    assert.deepEqual(stored.map((e) => e.name), ['interop.api_call', 'interop.llm_tokens.v2']);
    for (const [i, event] of stored.entries()) {
      assert.equal(event.external_customer_id, customer);
      sameInstant(event.timestamp, times[i]);
      assert.deepEqual(event.properties, {}, 'the pairs sent as metadata are not the event\'s properties');
    }
    t.diagnostic(
      'DIFFERENCE (properties): the 0.x SDK sends key-value pairs as `metadata`, the document names them `properties`; the reference keeps to the document, ' +
        'answers 200 {inserted: 2, duplicates: 0, errors: []} and stores both events with properties {} (the pairs are lost without an error)',
    );
  });

  test('no way through for `properties` or `idempotency_key`: the SDK\'s input schema drops members it does not model', async (t) => {
    const customer = 'interop-polar-0-strip';
    // Typed by the document, not by the SDK: a plain object the SDK's TypeScript type accepts structurally.
    const documented = { name: 'interop.api_call', externalCustomerId: customer, timestamp: new Date('2024-03-02T10:00:00Z'), properties: { units: 1 }, idempotency_key: 'interop-polar-0-strip-1' };
    const { result, sent } = await observe(() => polar().events.ingest({ events: [documented] }));
    const [event] = assertDocumentedIngest(sent);
    assert.deepEqual(Object.keys(event!).sort(), ['external_customer_id', 'name', 'timestamp'], 'properties and idempotency_key did not go out');
    assert.deepEqual(referenceAnswer(sent), { inserted: 1, duplicates: 0, errors: [] });
    assert.deepEqual(result, { inserted: 1, duplicates: 0 });
    t.diagnostic('DIFFERENCE (no passthrough): members the 0.x model lacks (properties, idempotency_key) are removed by its input validation before sending; no path of the unmodified 0.x SDK sends the document\'s properties');
  });

  test('idempotency: the SDK has no idempotency_key; its externalId goes out as external_id, which the reference does not read as one', async (t) => {
    const customer = 'interop-polar-0-idempotency';
    const event = { name: 'interop.api_call', externalCustomerId: customer, timestamp: new Date('2024-03-03T10:00:00Z'), externalId: 'interop-polar-0-same' };
    const { result, sent } = await observe(() => polar().events.ingest({ events: [event, event] }));
    const events = assertDocumentedIngest(sent);
    for (const e of events) {
      assert.equal(e.external_id, 'interop-polar-0-same');
      assert.equal(e.idempotency_key, undefined);
    }
    // Known difference. The document: "idempotency_key | string | optional; prevents duplicate ingestion". The SDK
    // documents its externalId as "Useful for deduplication"; under the document's name nothing was sent, so both
    // events are ingested.
    assert.deepEqual(referenceAnswer(sent), { inserted: 2, duplicates: 0, errors: [] });
    assert.deepEqual(result, { inserted: 2, duplicates: 0 });
    assert.equal((await storedFor(customer, 2)).length, 2);
    t.diagnostic('DIFFERENCE (idempotency): the 0.x SDK deduplicates by externalId, sent as external_id; the document\'s member is idempotency_key, so the reference ingests both events of the same externalId');
  });

  test('a failed event: the reference names it in errors; the SDK\'s answer has no errors member', async (t) => {
    const customer = 'interop-polar-0-errors';
    const { result, sent } = await observe(() =>
      polar().events.ingest({
        events: [
          { name: 'interop.api_call', externalCustomerId: customer, timestamp: new Date('2024-03-04T10:00:00Z') },
          // The SDK checks no name rule, so a hyphen reaches the reference.
          { name: 'interop.api-call', externalCustomerId: customer, timestamp: new Date('2024-03-04T10:01:00Z') },
        ],
      }),
    );
    const [post] = sent;
    assert.deepEqual(JSON.parse(post!.body).events.map((e: { name: string }) => e.name), ['interop.api_call', 'interop.api-call']);
    const answer = referenceAnswer(sent);
    assert.equal(answer.inserted, 1);
    assert.deepEqual(answer.errors.map((e) => e.index), [1], 'the errors name exactly the second event');
    // Known difference. The document's answer holds "an array of errors for failed events"; the SDK's response model
    // is {inserted, duplicates} and its parser drops the rest, so the caller learns that one event fewer was
    // ingested, but not which one or why.
    assert.deepEqual(result, { inserted: 1, duplicates: 0 });
    assert.ok(!('errors' in (result as object)));
    t.diagnostic(`DIFFERENCE (errors): the reference answered ${post!.answer}; the 0.x SDK returns ${JSON.stringify(result)}, without the errors array`);
  });

  test('refusals: over 100 events and a wrong token reach the caller as the SDK\'s errors, with the reference\'s status', async (t) => {
    const customer = 'interop-polar-0-refused';
    const many = Array.from({ length: 101 }, (_, i) => ({ name: 'interop.api_call', externalCustomerId: customer, timestamp: new Date(Date.UTC(2024, 2, 5, 10, i)) }));
    const tooMany = await observe(() => polar().events.ingest({ events: many }));
    const [post] = tooMany.sent;
    assert.equal(JSON.parse(post!.body).events.length, 101, 'the SDK does not enforce the limit itself');
    // "at most 100 per request"; the status is not shown: the reference answers 422, with a detail list.
    assert.ok(post!.status >= 400 && post!.status < 500, `the batch is refused (${post!.status})`);
    assert.ok(tooMany.error instanceof HTTPValidationError0, 'the SDK reads the 422 as its HTTPValidationError');
    assert.equal(tooMany.error.statusCode, post!.status);
    assert.deepEqual(tooMany.error.detail, (JSON.parse(post!.answer) as { detail: unknown }).detail);
    assert.equal((await storedFor(customer, 0)).length, 0, 'none of the 101 events was ingested');

    const stranger = new Polar({ accessToken: 'not-the-token', serverURL: recorder.url, timeoutMs: 5000 });
    const badToken = await observe(() => stranger.events.ingest({ events: [many[0]!] }));
    const [refused] = badToken.sent;
    assert.equal(header(refused!, 'Authorization'), 'Bearer not-the-token');
    assert.ok(refused!.status >= 400 && refused!.status < 500, `a wrong token is refused (${refused!.status})`);
    assert.ok(badToken.error instanceof SDKError, 'the SDK\'s fallback error');
    assert.equal(badToken.error.statusCode, refused!.status);
    t.diagnostic(`refusals: agree. 101 events -> ${post!.status}, HTTPValidationError with the reference's detail; wrong token -> ${refused!.status}, SDKError (statuses are the reference's choices: "Error statuses ...: not shown")`);
  });
});

// ---- 1.x: createPolar, one client per API version ------------------------------------------------------------------

describe(`@polar-sh/sdk 1.x (createPolar, API ${API_VERSION_1})`, () => {
  // 1.x has no `Polar` class and no serverURL: createPolar takes baseUrl.
  const polar = (accessToken = TOKEN) => createPolar({ accessToken, baseUrl: recorder.url });

  test('ingest with the SDK\'s own model: the same `metadata` difference as 0.x; the request is otherwise the document\'s', async (t) => {
    const customer = 'interop-polar-1-ingest';
    const events = [
      { name: 'interop.api_call', external_customer_id: customer, timestamp: '2024-04-01T10:00:00Z', metadata: { units: 3, tier: 'tier_a' } },
      { name: 'interop.llm_tokens.v2', external_customer_id: customer, timestamp: '2024-04-01T10:05:30Z', metadata: { units: 120, tier: 'tier_b' } },
    ];
    const { result, sent } = await observe(() => polar().events.ingest({ events }));
    const out = assertDocumentedIngest(sent);
    // 1.x serialises the body as given (no schema between the caller and the wire).
    assert.deepEqual(out, events);
    // Not in the document, ignored by the reference: the API version the client was made for.
    assert.equal(header(sent[0]!, 'Polar-Version'), API_VERSION_1);

    assert.deepEqual(referenceAnswer(sent), { inserted: 2, duplicates: 0, errors: [] });
    assert.deepEqual(result, { inserted: 2, duplicates: 0, errors: [] }, '1.x hands back the parsed answer whole');
    const stored = await storedFor(customer, 2);
    assert.deepEqual(stored.map((e) => e.properties), [{}, {}]);
    t.diagnostic('DIFFERENCE (properties): the 1.x model, too, names the key-value pairs `metadata`; the reference ingests both events and stores properties {}. 1.x also sends Polar-Version: ' + API_VERSION_1 + ' (not in the document; ignored)');
  });

  test('agrees fully: events written as the document names them (properties, idempotency_key) go out as they are and are ingested, deduplicated and stored as sent', async (t) => {
    const customer = 'interop-polar-1-document';
    // The document's event, typed by the document. The SDK's TypeScript type accepts it structurally (name and
    // external_customer_id are all it requires) and its runtime sends it untouched: no cast, no hook, no patch.
    interface DocumentEvent {
      name: string;
      external_customer_id: string;
      timestamp: string;
      properties: Record<string, string | number | boolean>;
      idempotency_key?: string;
    }
    const first: DocumentEvent = { name: 'interop.api_call', external_customer_id: customer, timestamp: '2024-04-02T10:00:00Z', properties: { units: 3, tier: 'tier_a' }, idempotency_key: 'interop-polar-1-a' };
    const second: DocumentEvent = { name: 'interop.llm_tokens.v2', external_customer_id: customer, timestamp: '2024-04-02T10:05:30Z', properties: { units: 120, tier: 'tier_b' }, idempotency_key: 'interop-polar-1-b' };
    const events: DocumentEvent[] = [first, second, first];

    const { result, sent } = await observe(() => polar().events.ingest({ events }));
    assert.deepEqual(assertDocumentedIngest(sent), events, 'sent exactly as written');
    // "idempotency_key | optional; prevents duplicate ingestion": the repeat within the batch is not ingested again.
    assert.deepEqual(referenceAnswer(sent), { inserted: 2, duplicates: 1, errors: [] });
    assert.deepEqual(result, { inserted: 2, duplicates: 1, errors: [] });

    // And across batches.
    const again = await observe(() => polar().events.ingest({ events: [second] }));
    assert.deepEqual(referenceAnswer(again.sent), { inserted: 0, duplicates: 1, errors: [] });

    const stored = await storedFor(customer, 2);
    assert.equal(stored.length, 2);
    for (const [i, event] of stored.entries()) {
      const sentEvent = [first, second][i]!;
      assert.equal(event.name, sentEvent.name);
      assert.equal(event.external_customer_id, customer);
      sameInstant(event.timestamp, sentEvent.timestamp);
      assert.deepEqual(event.properties, sentEvent.properties);
    }
    t.diagnostic('agrees: through the unmodified 1.x client, events with properties and idempotency_key are sent as written, ingested once each and stored with their properties');
  });

  test('a failed event: the errors reach the caller, though the SDK\'s type does not declare them', async (t) => {
    const customer = 'interop-polar-1-errors';
    const { result, sent } = await observe(() =>
      polar().events.ingest({
        events: [
          { name: 'interop.api_call', external_customer_id: customer, timestamp: '2024-04-03T10:00:00Z' },
          { name: 'interop.api-call', external_customer_id: customer, timestamp: '2024-04-03T10:01:00Z' },
        ],
      }),
    );
    const answer = referenceAnswer(sent);
    assert.equal(answer.inserted, 1);
    assert.deepEqual(answer.errors.map((e) => e.index), [1]);
    // Known difference, of typing only: EventsIngestResponse is {inserted, duplicates?}; the object returned is the
    // reference's answer whole, so the errors are there for a caller who looks past the type.
    assert.deepEqual(result, answer);
    t.diagnostic('DIFFERENCE (errors, typing only): 1.x returns the answer whole, errors included, but its EventsIngestResponse type declares only inserted and duplicates');
  });

  test('refusals: over 100 events and a wrong token reach the caller as the SDK\'s errors, with the reference\'s status and body', async (t) => {
    const customer = 'interop-polar-1-refused';
    const many = Array.from({ length: 101 }, (_, i) => ({ name: 'interop.api_call', external_customer_id: customer, timestamp: new Date(Date.UTC(2024, 3, 4, 10, i)).toISOString() }));
    const tooMany = await observe(() => polar().events.ingest({ events: many }));
    const [post] = tooMany.sent;
    assert.equal(JSON.parse(post!.body).events.length, 101, 'the SDK does not enforce the limit itself');
    assert.ok(post!.status >= 400 && post!.status < 500, `the batch is refused (${post!.status})`);
    assert.ok(tooMany.error instanceof errors1.HTTPValidationError, 'the 422 becomes the SDK\'s HTTPValidationError');
    assert.equal(tooMany.error.statusCode, post!.status);
    assert.deepEqual(tooMany.error.error, JSON.parse(post!.answer));
    assert.equal((await storedFor(customer, 0)).length, 0, 'none of the 101 events was ingested');

    const badToken = await observe(() => polar('not-the-token').events.ingest({ events: [many[0]!] }));
    const [refused] = badToken.sent;
    assert.equal(header(refused!, 'Authorization'), 'Bearer not-the-token');
    assert.ok(refused!.status >= 400 && refused!.status < 500, `a wrong token is refused (${refused!.status})`);
    assert.ok(badToken.error instanceof PolarClientError);
    assert.equal(badToken.error.statusCode, refused!.status);
    t.diagnostic(`refusals: agree. 101 events -> ${post!.status}, HTTPValidationError carrying the reference's body; wrong token -> ${refused!.status}, PolarClientError`);
  });
});
