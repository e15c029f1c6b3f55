/**
 * The usage-events reference in other readings of its open points (mocks/usage-events/readings.ts): each is started
 * alone, the way --readings starts it (the reading's reference options and settings merged into the profile entry's),
 * and one request (an ingest first where there must be something to read) shows that the reading takes effect. Then
 * every point in its first other reading at once, and a few seeded faults under them.
 */
import { after, describe, test } from 'node:test';
import { answerOf, type Answer } from '../support/answer.ts';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { usageEventsEntry, type UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';
import { readings } from '../../mocks/usage-events/readings.ts';
import { start } from '../../mocks/usage-events/server.ts';
import { deepMerge } from '../../harness/readings.ts';

const TOKEN = 'usage-token-readings';
const ORG = 'conformance-organization';
const METERS: UsageEventsSettings['meters'] = [
  { id: 'api-calls', filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'conformance.api_call' }] }, aggregation: { func: 'count' } },
];

const running: Array<{ close(): Promise<void> }> = [];
after(async () => {
  await Promise.all(running.map((r) => r.close()));
});


type Asked = Record<string, string>;

/** The reference started in the readings asked, as applyReadings (harness/readings.ts) starts it. */
async function reference(asked: Asked, o: { fault?: string; settings?: Record<string, unknown> } = {}) {
  let settings: Record<string, unknown> = { meters: METERS, ...o.settings };
  let options: Record<string, unknown> = { queryableAfterMs: 0 };
  for (const [point, name] of Object.entries(asked)) {
    // An unknown reading is merged as nothing: the server refuses it at start-up.
    const r = readings.find((p) => p.point === point)?.readings.find((x) => x.name === name) as { reference?: Record<string, unknown>; settings?: Record<string, unknown> } | undefined;
    options = deepMerge(options, r?.reference ?? {});
    settings = deepMerge(settings, r?.settings ?? {});
  }
  const full = Value.Default(usageEventsEntry().properties.settings, settings) as UsageEventsSettings;
  const server = await start({ settings: full, reference: { ...options, readings: asked }, secrets: { accessToken: TOKEN }, fault: o.fault, port: 0 });
  running.push(server);
  const call = async (method: string, path: string, opts: { body?: unknown; raw?: string; token?: string | null; query?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Answer> => {
    const search = new URLSearchParams(opts.query ?? {});
    const text = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    const headers: Record<string, string> = { ...(text === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers };
    if (opts.token !== null) headers.authorization = `Bearer ${opts.token ?? TOKEN}`;
    const res = await fetch(`${server.url}${path}${search.size ? `?${search}` : ''}`, { method, headers, body: text });
    return answerOf(res);
  };
  return {
    settings: full,
    call,
    ingest: (events: unknown[], headers?: Record<string, string>) => call('POST', '/v1/events/ingest', { body: { events }, headers }),
    list: (query: Record<string, string> = {}, headers?: Record<string, string>) => call('GET', '/v1/events', { query, headers }),
    stats: (query: Record<string, string>) => call('GET', '/v1/events/statistics', { query: { organization_id: ORG, ...query } }),
  };
}

const ev = (name: string, timestamp: string, properties: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  name: `conformance.${name}`,
  external_customer_id: 'conformance-ext-1',
  timestamp,
  properties,
  ...extra,
});
const day = { meter_id: 'api-calls', interval: 'day', aggregation: 'count', start_timestamp: '2024-01-01T00:00:00Z', end_timestamp: '2024-01-03T00:00:00Z' };
const clause = (operator: string, value: unknown, property = 'name') => JSON.stringify({ conjunction: 'and', clauses: [{ property, operator, value }] });

describe('the catalogue', () => {
  test('every point has two readings or more, named once; an unknown reading is refused at start-up', async () => {
    for (const p of readings) {
      assert.ok(p.readings.length >= 2, p.point);
      assert.equal(new Set(p.readings.map((r) => r.name)).size, p.readings.length, p.point);
    }
    await assert.rejects(() => reference({ 'D-NS-BOUNDS': 'sideways' }), /has no reading "sideways"/);
  });
});

describe('the ingest answer', () => {
  test('member names, shape, duplicates, error entries and statuses', async () => {
    const names = await reference({ 'D-NS-INGEST-RESPONSE': 'other-names' });
    assert.deepEqual((await names.ingest([ev('a', '2024-01-01T00:00:00Z')])).json, { accepted: 1, duplicates: 0, rejected: [] });

    const omitted = await reference({ 'D-NS-INGEST-SHAPE': 'errors-omitted-when-empty' });
    assert.deepEqual((await omitted.ingest([ev('a', '2024-01-01T00:00:00Z')])).json, { inserted: 1 });
    const wrapped = await reference({ 'D-NS-INGEST-SHAPE': 'data-envelope' });
    assert.deepEqual((await wrapped.ingest([ev('a', '2024-01-01T00:00:00Z')])).json, { data: { inserted: 1, duplicates: 0, errors: [] } });

    const keyed = [ev('a', '2024-01-01T00:00:00Z', {}, { idempotency_key: 'k' }), ev('a', '2024-01-01T00:00:00Z', {}, { idempotency_key: 'k' })];
    assert.deepEqual((await (await reference({ 'D-NS-DUPLICATES': 'counted-as-ingested' })).ingest(keyed)).json, { inserted: 2, errors: [] });
    const asError = (await (await reference({ 'D-NS-DUPLICATES': 'error-entry' })).ingest(keyed)).json;
    assert.deepEqual([asError.inserted, asError.errors.map((e: any) => e.index)], [1, [1]]);

    const twoProblems = [ev('ok', '2024-01-01T00:00:00Z'), { name: 'bad-name', timestamp: 'yesterday', properties: {} }];
    const perProblem = (await (await reference({ 'D-NS-ERROR-ENTRIES': 'entry-per-problem' })).ingest(twoProblems)).json.errors;
    assert.deepEqual(perProblem.map((e: any) => [e.index, e.field]), [[1, 'name'], [1, 'customer_id'], [1, 'timestamp']]);
    const loc = (await (await reference({ 'D-NS-ERROR-ENTRIES': 'loc-path' })).ingest(twoProblems)).json.errors;
    assert.deepEqual(loc[0].loc, ['body', 'events', 1, 'name']);
    assert.equal(loc[0].index, undefined);
    assert.deepEqual((await (await reference({ 'D-NS-ERROR-ENTRIES': 'other-index-name' })).ingest(twoProblems)).json.errors.map((e: any) => e.event_index), [1]);

    assert.equal((await (await reference({ 'D-NS-SUCCESS-STATUS': 'accepted-202' })).ingest([ev('a', '2024-01-01T00:00:00Z')])).status, 202);
    assert.equal((await (await reference({ 'D-NS-PARTIAL-STATUS': 'multi-status-207' })).ingest(twoProblems)).status, 207);
    const allFailed = await (await reference({ 'D-NS-PARTIAL-STATUS': 'all-failed-422' })).ingest(twoProblems.slice(1));
    assert.deepEqual([allFailed.status, allFailed.json.inserted], [422, 0]);
  });
});

describe('what an ingest accepts', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => ev('bulk', '2024-01-01T00:00:00Z', { i }));

  test('over the limit, empty batches, members, body size and media type', async () => {
    const excess = (await (await reference({ 'D-NS-OVER-LIMIT': 'excess-as-errors' })).ingest(many(102))).json;
    assert.deepEqual([excess.inserted, excess.errors.map((e: any) => e.index)], [100, [100, 101]]);
    assert.equal((await (await reference({ 'D-NS-EMPTY-BATCH': 'refused' })).ingest([])).status, 422);
    const strict = await reference({ 'D-NS-UNKNOWN-MEMBERS': 'refused' });
    assert.deepEqual((await strict.ingest([ev('a', '2024-01-01T00:00:00Z', {}, { unit: 'x' })])).json.errors.map((e: any) => e.index), [0]);
    assert.equal((await strict.call('POST', '/v1/events/ingest', { body: { events: [], source: 'x' } })).status, 422);
    const required = await reference({ 'D-NS-REQUIRED-MEMBERS': 'all-required' });
    assert.equal((await required.ingest([{ name: 'conformance.a', customer_id: 'c1' }])).json.errors.length, 1);
    const big = [ev('big', '2024-01-01T00:00:00Z', { blob: 'x'.repeat(150 * 1024) })];
    assert.equal((await (await reference({ 'D-NS-BODY-LIMIT': 'hundred-kib' })).ingest(big)).status, 413);
    const typed = await reference({ 'D-NS-REQUEST-CONTENT-TYPE': 'json-required' });
    assert.equal((await typed.call('POST', '/v1/events/ingest', { raw: '{"events":[]}', headers: { 'content-type': 'text/plain' } })).status, 415);
  });

  test('customers, names, property types, timestamps and idempotency scope', async () => {
    const existing = await reference({ 'D-NS-CUSTOMER-IDS': 'customer-must-exist' });
    const customers = (await existing.ingest([{ ...ev('a', '2024-01-01T00:00:00Z'), external_customer_id: undefined, customer_id: 'nobody' }, { ...ev('a', '2024-01-01T00:00:00Z'), customer_id: 'conformance-customer-1' }])).json;
    assert.deepEqual(customers.errors.map((e: any) => e.index), [0]);
    assert.equal((await (await reference({ 'D-NS-CUSTOMER-IDS': 'both-refused' })).ingest([{ ...ev('a', '2024-01-01T00:00:00Z'), customer_id: 'c1' }])).json.errors.length, 1);
    assert.equal((await (await reference({ 'D-NS-NAME-CHARACTERS': 'unicode' })).ingest([ev('naïve_événement', '2024-01-01T00:00:00Z')])).json.inserted, 1);
    const asSent = await reference({ 'D-NS-PROPERTY-TYPES': 'scalars-as-sent' });
    assert.equal((await asSent.ingest([ev('t', '2024-01-01T00:00:00Z', { n: 1 }), ev('t', '2024-01-01T00:00:01Z', { n: 'one' })])).json.inserted, 2);
    assert.equal((await (await reference({ 'D-NS-PROPERTY-TYPES': 'any-json' })).ingest([ev('t', '2024-01-01T00:00:00Z', { deep: { a: [1] } })])).json.inserted, 1);
    assert.equal((await (await reference({ 'D-NS-TIMESTAMP-FORMS': 'offset-required' })).ingest([ev('t', '2024-01-01T00:00:00')])).json.errors.length, 1);
    assert.equal((await (await reference({ 'D-NS-TIMESTAMP-RANGE': 'unix-epoch' })).ingest([ev('t', '1969-12-31T23:59:59Z')])).json.errors.length, 1);
    assert.equal((await (await reference({ 'D-NS-TIMESTAMP-RANGE': 'past-only' })).ingest([ev('t', '2999-01-01T00:00:00Z')])).json.errors.length, 1);
    const scoped = await reference({ 'D-NS-IDEMPOTENCY-SCOPE': 'per-customer' });
    const sameKey = [ev('a', '2024-01-01T00:00:00Z', {}, { idempotency_key: 'k' }), { ...ev('a', '2024-01-01T00:00:00Z', {}, { idempotency_key: 'k' }), external_customer_id: 'conformance-ext-2' }];
    assert.equal((await scoped.ingest(sameKey)).json.inserted, 2);
  });
});

describe('refusals and their precedence', () => {
  test('statuses of a refused token, an oversized batch, a bad parameter, an unknown id; the error body', async () => {
    assert.equal((await (await reference({ 'D-NS-ERROR-STATUSES': 'one-status' })).list({}, {})).status, 200);
    assert.equal((await (await reference({ 'D-NS-ERROR-STATUSES': 'one-status' })).call('GET', '/v1/events', { token: 'wrong' })).status, 400);
    assert.equal((await (await reference({ 'D-NS-AUTH-STATUS': 'forbidden-403' })).call('GET', '/v1/events', { token: null })).status, 403);
    const split = await reference({ 'D-NS-AUTH-STATUS': 'missing-401-invalid-403' });
    assert.deepEqual([(await split.call('GET', '/v1/events', { token: null })).status, (await split.call('GET', '/v1/events', { token: 'wrong' })).status], [401, 403]);
    const many = Array.from({ length: 101 }, () => ev('bulk', '2024-01-01T00:00:00Z'));
    assert.equal((await (await reference({ 'D-NS-LIMIT-STATUS': 'payload-too-large-413' })).ingest(many)).status, 413);
    assert.equal((await (await reference({ 'D-NS-VALIDATION-STATUS': 'bad-request-400' })).list({ start_timestamp: 'soon' })).status, 400);
    const typed = await reference({ 'D-NS-UNKNOWN-ID': 'malformed-422' });
    assert.deepEqual([(await typed.call('GET', '/v1/events/not-a-uuid')).status, (await typed.call('GET', '/v1/events/3f1b7a0e-0000-4000-8000-000000000000')).status], [422, 404]);
    const problem = await (await reference({ 'D-NS-ERROR-BODY': 'problem-json' })).call('GET', '/v1/events', { token: null });
    assert.deepEqual([problem.headers.get('content-type'), problem.json.status, problem.json.title], ['application/problem+json', 401, 'Unauthorized']);
    const plain = await (await reference({ 'D-NS-ERROR-BODY': 'plain-text' })).call('GET', '/v1/nothing');
    assert.deepEqual([plain.status, plain.headers.get('content-type'), plain.text], [404, 'text/plain; charset=utf-8', 'NotFound: Not Found']);
  });

  test('which refusal wins; methods, parameters and rate limits', async () => {
    assert.equal((await (await reference({ 'D-NS-WRONG-METHOD': 'not-found-404' })).call('DELETE', '/v1/events')).status, 404);
    assert.equal((await (await reference({ 'D-NS-AUTH-ORDER': 'auth-first' })).call('GET', '/v1/nothing', { token: null })).status, 401);
    assert.equal((await (await reference({ 'D-NS-BODY-ORDER': 'body-first' })).call('POST', '/v1/events/ingest', { raw: '{not json', token: null })).status, 422);
    const orgFirst = await reference({ 'D-NS-STATS-CHECK-ORDER': 'organization-first' });
    assert.equal((await orgFirst.call('GET', '/v1/events/statistics', { query: { organization_id: 'elsewhere' } })).status, 404);
    assert.equal((await (await reference({ 'D-NS-UNKNOWN-PARAMETERS': 'refused' })).list({ colour: 'blue' })).status, 422);
    const limited = await reference({ 'D-NS-RATE-LIMITS': 'per-token-window' });
    const statuses = await Promise.all(Array.from({ length: 60 }, () => limited.list().then((a) => a.status)));
    assert.ok(statuses.includes(429) && statuses.filter((s) => s === 200).length === 50, statuses.join());
  });
});

describe('what an operation needs beyond the document', () => {
  test('organization_id on the reads, X-Organization-Id everywhere (the profile\'s extras), another organization', async () => {
    const onReads = await reference({ 'D-NS-ORGANIZATION-SCOPE': 'query-on-reads' });
    const extras = onReads.settings.extras!['GET /v1/events']!.query!;
    assert.deepEqual([(await onReads.list()).status, (await onReads.list(extras)).status], [422, 200]);
    const header = await reference({ 'D-NS-ORGANIZATION-SCOPE': 'header-everywhere' });
    const headers = header.settings.extras!['POST /v1/events/ingest']!.headers!;
    assert.deepEqual([(await header.ingest([])).status, (await header.ingest([], headers)).status], [422, 200]);
    assert.equal((await (await reference({ 'D-NS-ORGANIZATION': 'forbidden-403' })).stats({ ...day, organization_id: 'elsewhere' })).status, 403);
    assert.equal((await (await reference({ 'D-NS-ORGANIZATION': 'ignored' })).stats({ ...day, organization_id: 'elsewhere' })).status, 200);
  });
});

describe('stored events and the list', () => {
  test('members, ids, envelopes and written-back instants', async () => {
    const more = await reference({ 'D-NS-EVENT-FIELDS': 'more-members' });
    await more.ingest([ev('api_call', '2024-01-01T10:00:00Z', {}, { idempotency_key: 'k1' })]);
    const [shown] = (await more.list()).json.items;
    assert.deepEqual([shown.idempotency_key, shown.meter_ids, shown.customer], ['k1', ['api-calls'], null]);
    const named = await reference({ 'D-NS-EVENT-FIELDS': 'other-id-name' });
    await named.ingest([ev('a', '2024-01-01T10:00:00Z')]);
    assert.equal(typeof (await named.list()).json.items[0].event_id, 'string');

    const numbered = await reference({ 'D-NS-EVENT-ID-FORMAT': 'integer' });
    await numbered.ingest([ev('a', '2024-01-01T10:00:00Z')]);
    assert.equal((await numbered.list()).json.items[0].id, 1);
    assert.equal((await numbered.call('GET', '/v1/events/1')).json.id, 1);
    const prefixed = await reference({ 'D-NS-EVENT-ID-FORMAT': 'prefixed' });
    await prefixed.ingest([ev('a', '2024-01-01T10:00:00Z')]);
    assert.match((await prefixed.list()).json.items[0].id, /^evt_[0-9a-f]{24}$/);

    const omitted = await reference({ 'D-NS-ABSENT-MEMBERS': 'omitted' });
    await omitted.ingest([ev('a', '2024-01-01T10:00:00Z')]);
    assert.equal('customer_id' in (await omitted.list()).json.items[0], false);
    const wrapped = await reference({ 'D-NS-EVENT-ENVELOPE': 'data-envelope' });
    await wrapped.ingest([ev('a', '2024-01-01T10:00:00Z')]);
    assert.equal((await wrapped.call('GET', `/v1/events/${(await wrapped.list()).json.items[0].id}`)).json.data.name, 'conformance.a');

    const python = await reference({ 'D-NS-TIMESTAMP-ECHO': 'offset-zero' });
    await python.ingest([ev('a', '2024-01-01T10:00:00.5Z')]);
    assert.equal((await python.list()).json.items[0].timestamp, '2024-01-01T10:00:00.500000+00:00');
    const millis = await reference({ 'D-NS-TIMESTAMP-PRECISION': 'milliseconds' });
    await millis.ingest([ev('a', '2024-01-01T10:00:00.123456Z')]);
    assert.equal((await millis.list()).json.items[0].timestamp, '2024-01-01T10:00:00.123Z');
  });

  test('queryable later: staggered, slow, statistics behind the list', async () => {
    const staggered = await reference({ 'D-NS-FEW-SECONDS': 'staggered' }, {});
    // The profile entry's queryableAfterMs is 0 here: every partition is drained at once.
    await staggered.ingest([ev('a', '2024-01-01T10:00:00Z'), ev('a', '2024-01-01T10:00:01Z')]);
    assert.equal((await staggered.list()).json.items.length, 2);
    const slow = await reference({ 'D-NS-FEW-SECONDS': 'slow-pipeline' });
    assert.equal(slow.settings.queryableWithinMs, 5000);
    await slow.ingest([ev('a', '2024-01-01T10:00:00Z')]);
    assert.equal((await slow.list()).json.items.length, 0);
    const lagging = await reference({ 'D-NS-READ-CONSISTENCY': 'statistics-later' });
    await lagging.ingest([ev('api_call', '2024-01-01T10:00:00Z')]);
    assert.deepEqual([(await lagging.list()).json.items.length, (await lagging.stats(day)).json[0].value], [1, 0]);
  });

  test('paging styles, page size and order', async () => {
    const events = [ev('a', '2024-01-01T10:00:00Z'), ev('b', '2024-01-01T11:00:00Z'), ev('c', '2024-01-01T12:00:00Z')];
    const cursor = await reference({ 'D-NS-LIST-PAGING': 'cursor' });
    await cursor.ingest(events);
    const first = (await cursor.list({ limit: '2' })).json;
    const second = (await cursor.list({ limit: '2', cursor: first.next_cursor })).json;
    assert.deepEqual([first.data.length, second.data.map((e: any) => e.name), second.next_cursor], [2, ['conformance.c'], null]);
    const bare = await reference({ 'D-NS-LIST-PAGING': 'bare-array' });
    await bare.ingest(events);
    assert.equal((await bare.list({ limit: '1' })).json.length, 3);
    const offset = await reference({ 'D-NS-LIST-PAGING': 'offset-limit' });
    await offset.ingest(events);
    assert.deepEqual((await offset.list({ offset: '2', limit: '5' })).json.items.map((e: any) => e.name), ['conformance.c']);
    assert.equal((await (await reference({ 'D-NS-PAGE-SIZE': 'refused-above-50' })).list({ limit: '100' })).status, 422);
    assert.equal((await (await reference({ 'D-NS-PAGE-SIZE': 'clamped-at-50' })).list({ limit: '100' })).status, 200);
    const newest = await reference({ 'D-NS-LIST-ORDER': 'timestamp-descending' });
    await newest.ingest(events);
    assert.equal((await newest.list()).json.items[0].name, 'conformance.c');
  });

  test('bounds, reversed ranges, repeated filters, unknown meters', async () => {
    const atBounds = [ev('a', '2024-01-01T10:00:00Z'), ev('b', '2024-01-01T11:00:00Z')];
    const window = { start_timestamp: '2024-01-01T10:00:00Z', end_timestamp: '2024-01-01T11:00:00Z' };
    const halfOpen = await reference({ 'D-NS-BOUNDS': 'start-inclusive' });
    await halfOpen.ingest(atBounds);
    assert.deepEqual((await halfOpen.list(window)).json.items.map((e: any) => e.name), ['conformance.a']);
    const closed = await reference({ 'D-NS-BOUNDS': 'inclusive' });
    await closed.ingest(atBounds);
    assert.equal((await closed.list(window)).json.items.length, 2);
    const reversed = { start_timestamp: window.end_timestamp, end_timestamp: window.start_timestamp };
    assert.equal((await (await reference({ 'D-NS-REVERSED-RANGE': 'refused' })).list(reversed)).status, 422);
    assert.deepEqual((await (await reference({ 'D-NS-REVERSED-RANGE': 'stats-empty' })).stats({ ...day, ...reversed })).json, []);
    const last = await reference({ 'D-NS-REPEATED-FILTERS': 'last-value' });
    await last.ingest([ev('a', '2024-01-01T10:00:00Z'), { ...ev('b', '2024-01-01T10:00:00Z'), external_customer_id: 'conformance-ext-2' }]);
    const both = await last.call('GET', '/v1/events?external_customer_id=conformance-ext-1&external_customer_id=conformance-ext-2');
    assert.deepEqual(both.json.items.map((e: any) => e.name), ['conformance.b']);
    assert.equal((await (await reference({ 'D-NS-UNKNOWN-METER': 'not-found-404' })).list({ meter_id: 'nope' })).status, 404);
    assert.deepEqual((await (await reference({ 'D-NS-UNKNOWN-METER': 'empty' })).list({ meter_id: 'nope' })).json.items, []);
  });
});

describe('filter clauses', () => {
  test('query names, nesting, operators, like, missing properties, types, empty filters', async () => {
    const named = await reference({ 'D-NS-QUERY-NAMES': 'other-names' });
    await named.ingest([ev('api_call', '2024-01-01T10:00:00Z'), ev('other', '2024-01-01T10:00:00Z')]);
    assert.equal((await named.list({ query: clause('eq', 'conformance.other') })).json.items.length, 1);
    const nested = JSON.stringify({ conjunction: 'and', clauses: [{ conjunction: 'or', clauses: [] }] });
    assert.equal((await (await reference({ 'D-NS-METERS': 'flat-filters' })).list({ filter: nested })).status, 422);
    assert.equal((await (await reference({ 'D-NS-FILTER-OPERATORS': 'comparisons-only' })).list({ filter: clause('like', 'api') })).status, 422);

    const texts = [ev('API_Call', '2024-01-01T10:00:00Z', { tier: 'gold' }), ev('storage', '2024-01-01T10:00:00Z', { units: 5 })];
    const anchored = await reference({ 'D-NS-LIKE-SEMANTICS': 'anchored' });
    await anchored.ingest(texts);
    assert.equal((await anchored.list({ filter: clause('like', 'API') })).json.items.length, 0);
    const insensitive = await reference({ 'D-NS-LIKE-SEMANTICS': 'case-insensitive' });
    await insensitive.ingest(texts);
    assert.equal((await insensitive.list({ filter: clause('like', 'api_call') })).json.items.length, 1);
    const missing = await reference({ 'D-NS-MISSING-PROPERTY': 'negations-match' });
    await missing.ingest(texts);
    assert.equal((await missing.list({ filter: clause('ne', 'silver', 'tier') })).json.items.length, 2);
    const loose = await reference({ 'D-NS-CLAUSE-TYPES': 'coerced' });
    await loose.ingest(texts);
    assert.equal((await loose.list({ filter: clause('eq', '5', 'units') })).json.items.length, 1);
    const emptyOr = JSON.stringify({ conjunction: 'or', clauses: [] });
    assert.equal((await (await reference({ 'D-NS-EMPTY-CLAUSES': 'refused' })).list({ filter: emptyOr })).status, 422);
    const all = await reference({ 'D-NS-EMPTY-CLAUSES': 'matches-all' });
    await all.ingest(texts);
    assert.equal((await all.list({ filter: emptyOr })).json.items.length, 2);
  });
});

describe('statistics', () => {
  const week = [ev('api_call', '2024-01-01T10:00:00Z', { ms: '12.5' }), ev('api_call', '2024-01-02T23:30:00Z'), ev('api_call', '2024-01-07T12:00:00Z')];

  test('required parameters, shapes and empty intervals', async () => {
    const optional = await reference({ 'D-NS-REQUIRED-PARAMETERS': 'meter-optional' });
    await optional.ingest(week);
    const { meter_id: _, ...noMeter } = day;
    assert.deepEqual((await optional.stats(noMeter)).json.map((r: any) => r.value), [1, 1, 0]);
    const strict = await reference({ 'D-NS-REQUIRED-PARAMETERS': 'aggregation-and-property-required' });
    const { aggregation: __, ...noAggregation } = day;
    assert.equal((await strict.stats(noAggregation)).status, 422);
    const extras = await reference({ 'D-NS-STATS-SHAPE': 'rows-with-extras' });
    assert.deepEqual((await extras.stats(day)).json[0], { timestamp: '2024-01-01T00:00:00Z', value: 0, end_timestamp: '2024-01-02T00:00:00Z', event_count: 0 });
    assert.equal((await (await reference({ 'D-NS-STATS-SHAPE': 'periods-envelope' })).stats(day)).json.periods.length, 3);
    const omitted = await reference({ 'D-NS-EMPTY-INTERVALS': 'omitted' });
    await omitted.ingest(week);
    assert.deepEqual((await omitted.stats(day)).json.map((r: any) => r.timestamp), ['2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z']);
    assert.deepEqual((await (await reference({ 'D-NS-EMPTY-INTERVALS': 'all-zero' })).stats({ ...day, aggregation: 'avg', property: 'ms' })).json.map((r: any) => r.value), [0, 0, 0]);
  });

  test('weeks, alignment, time zone, cut, row limit, numeric strings', async () => {
    const weekly = { ...day, interval: 'week', start_timestamp: '2024-01-01T00:00:00Z', end_timestamp: '2024-01-08T00:00:00Z' };
    const sunday = await reference({ 'D-NS-WEEK-START': 'sunday' });
    await sunday.ingest(week);
    assert.deepEqual((await sunday.stats(weekly)).json, [{ timestamp: '2023-12-31T00:00:00Z', value: 2 }, { timestamp: '2024-01-07T00:00:00Z', value: 1 }]);
    const fromStart = await reference({ 'D-NS-INTERVAL-ALIGNMENT': 'from-start' });
    await fromStart.ingest(week);
    const noon = { ...day, start_timestamp: '2024-01-01T12:00:00Z', end_timestamp: '2024-01-02T12:00:00Z' };
    assert.deepEqual((await fromStart.stats(noon)).json, [{ timestamp: '2024-01-01T12:00:00Z', value: 0 }, { timestamp: '2024-01-02T12:00:00Z', value: 1 }]);
    const zoned = await reference({ 'D-NS-STATS-TIME-ZONE': 'fixed-offset' });
    await zoned.ingest(week);
    assert.deepEqual((await zoned.stats(day)).json.map((r: any) => [r.timestamp, r.value]), [
      ['2024-01-01T00:00:00+01:00', 1],
      ['2024-01-02T00:00:00+01:00', 0],
      ['2024-01-03T00:00:00+01:00', 1],
    ]);
    const cut = await reference({ 'D-NS-STATS-CUT': 'cut-at-bounds' });
    await cut.ingest(week);
    assert.deepEqual((await cut.stats({ ...day, start_timestamp: '2024-01-01T12:00:00Z' })).json.map((r: any) => r.value), [0, 1, 0]);
    const hourly = { ...day, interval: 'hour', end_timestamp: '2024-02-01T00:00:00Z' };
    assert.equal((await (await reference({ 'D-NS-STATS-ROW-LIMIT': 'rows-up-to-500' })).stats(hourly)).status, 422);
    const strings = await reference({ 'D-NS-AGGREGATED-VALUES': 'numeric-strings' });
    await strings.ingest(week);
    assert.equal((await strings.stats({ ...day, aggregation: 'sum', property: 'ms' })).json[0].value, 12.5);
  });
});

describe('every point in its first other reading at once', () => {
  const others = Object.fromEntries(readings.map((p) => [p.point, p.readings[1].name]));

  test('the reference starts, ingests, and lists with the profile\'s extras', async () => {
    const c = await reference(others);
    const answer = await c.ingest([ev('api_call', '2024-01-01T10:00:00Z', { ms: 3 }), ev('bad-name', '2024-01-01T10:00:00Z')]);
    assert.equal(answer.status, 207);
    assert.deepEqual([answer.json.accepted, answer.json.rejected.map((e: any) => [e.index, e.field])], [1, [[1, 'name']]]);
    await new Promise((r) => setTimeout(r, 50));
    const listed = await c.list(c.settings.extras!['GET /v1/events']!.query);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.json.data.map((e: any) => [e.name, e.timestamp]), [['conformance.api_call', '2024-01-01T10:00:00+00:00']]);
  });

  test('seeded faults still misbehave under them', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ev('bulk', '2024-01-01T00:00:00Z', { i }));
    const lenient = await reference(others, { fault: 'limit-101-accepted' });
    assert.equal((await lenient.ingest(many)).json.accepted, 101);
    const open = await reference(others, { fault: 'no-auth' });
    assert.equal((await open.call('GET', '/v1/events', { token: null, query: open.settings.extras!['GET /v1/events']!.query })).status, 200);
  });
});
