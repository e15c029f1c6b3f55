/**
 * The usage-events reference (mocks/usage-events/) driven over HTTP as a client of Interface D would drive it:
 * bearer authentication, ingestion (valid, mixed, over the limit, property types, idempotency within a batch, across
 * batches and at the same moment), the asynchronous delay, the stored fields, every list filter alone and together,
 * paging, the event by id, statistics for each interval and aggregation; then a handful of seeded faults misbehaving.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { usageEventsEntry, type UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';
import { faults } from '../../mocks/usage-events/faults.ts';
import { start, type StartOptions } from '../../mocks/usage-events/server.ts';

const TOKEN = 'usage-token-1';
const ORG = 'conformance-organization';
const QUICK = 60;

const METERS: UsageEventsSettings['meters'] = [
  { id: 'api-calls', filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'conformance.api_call' }] }, aggregation: { func: 'count' } },
  {
    id: 'tokens',
    filter: {
      conjunction: 'or',
      clauses: [
        { property: 'name', operator: 'eq', value: 'conformance.llm' },
        { property: 'name', operator: 'like', value: 'conformance.gpt%' },
      ],
    },
    aggregation: { func: 'sum', property: 'tokens' },
  },
];

function settingsWith(tweak: Record<string, unknown> = {}): UsageEventsSettings {
  return Value.Default(usageEventsEntry().properties.settings, { meters: METERS, ...tweak }) as UsageEventsSettings;
}

const running: Array<{ close(): Promise<void> }> = [];
after(async () => {
  await Promise.all(running.map((r) => r.close()));
});

interface Answer {
  status: number;
  headers: Headers;
  json: any;
}

interface Client {
  url: string;
  call(method: string, path: string, o?: { body?: unknown; raw?: string; token?: string | null; query?: Record<string, string | string[]> }): Promise<Answer>;
  ingest(events: unknown[]): Promise<Answer>;
  list(query?: Record<string, string | string[]>): Promise<any[]>;
  stats(query: Record<string, string>): Promise<Answer>;
}

async function reference(o: { fault?: string; settings?: Record<string, unknown>; reference?: StartOptions['reference'] } = {}): Promise<Client> {
  const server = await start({ settings: settingsWith(o.settings), reference: o.reference ?? { queryableAfterMs: QUICK }, secrets: { accessToken: TOKEN }, fault: o.fault, port: 0 });
  running.push(server);
  const call: Client['call'] = async (method, path, opts = {}) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) for (const one of [v].flat()) search.append(k, one);
    const text = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    const headers: Record<string, string> = text === undefined ? {} : { 'content-type': 'application/json' };
    if (opts.token !== null) headers.authorization = `Bearer ${opts.token ?? TOKEN}`;
    const res = await fetch(`${server.url}${path}${search.size ? `?${search}` : ''}`, { method, headers, body: text });
    const body = await res.text();
    return { status: res.status, headers: res.headers, json: body ? JSON.parse(body) : undefined };
  };
  return {
    url: server.url,
    call,
    ingest: (events) => call('POST', '/v1/events/ingest', { body: { events } }),
    list: async (query = {}) => {
      const a = await call('GET', '/v1/events', { query: { limit: '100', ...query } });
      assert.equal(a.status, 200, JSON.stringify(a.json));
      return a.json.items;
    },
    stats: (query) => call('GET', '/v1/events/statistics', { query: { organization_id: ORG, ...query } }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Nothing is listed yet, when the list was answered before `delayMs` had passed since the ingest was sent (`since`). */
async function invisibleWhileEarly(c: Client, since: number, delayMs: number): Promise<void> {
  const items = await c.list();
  // On a loaded machine the answer may come after the delay, when the events may rightly be there.
  if (Date.now() - since < delayMs) assert.deepEqual(items, []);
}
const ev = (name: string, who: { c?: string; x?: string }, timestamp: string, properties?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: `conformance.${name}`,
  ...(who.c ? { customer_id: who.c } : {}),
  ...(who.x ? { external_customer_id: who.x } : {}),
  timestamp,
  ...(properties ? { properties } : {}),
  ...extra,
});

// A fixed data set for the reads: e1..e8 by their route/model/position (2024-01-01 is a Monday).
const DATA = [
  ev('api_call', { c: 'c1' }, '2024-01-01T10:15:00Z', { route: '/a', ms: 10, ok: true }, { idempotency_key: 'e1' }),
  ev('api_call', { c: 'c2' }, '2024-01-01T10:45:00Z', { route: '/b', ms: 30, ok: false }, { idempotency_key: 'e2' }),
  ev('api_call', { x: 'x1' }, '2024-01-01T12:00:00Z', { route: '/a', ms: 20, ok: true }, { idempotency_key: 'e3' }),
  ev('llm', { c: 'c1' }, '2024-01-02T00:30:00Z', { tokens: 100, model: 'gpt-4' }, { idempotency_key: 'e4' }),
  ev('llm', { x: 'x1' }, '2024-01-03T23:59:00Z', { tokens: 50, model: 'claude' }, { idempotency_key: 'e5' }),
  ev('gpt_mini', { c: 'c2' }, '2024-01-08T09:00:00Z', { tokens: 7 }, { idempotency_key: 'e6' }),
  ev('other', { c: 'c1' }, '2024-02-15T00:00:00Z', { tokens: 1000 }, { idempotency_key: 'e7' }),
  ev('api_call', { c: 'c1' }, '2024-02-01T00:00:00.123456+01:00', { ms: 5 }, { idempotency_key: 'e8' }),
];
/** The data set's keys (e1..e8) of a list's items, matched by timestamp. */
const TIMES: Record<string, string> = {
  '2024-01-01T10:15:00Z': 'e1',
  '2024-01-01T10:45:00Z': 'e2',
  '2024-01-01T12:00:00Z': 'e3',
  '2024-01-02T00:30:00Z': 'e4',
  '2024-01-03T23:59:00Z': 'e5',
  '2024-01-08T09:00:00Z': 'e6',
  '2024-02-15T00:00:00Z': 'e7',
  '2024-01-31T23:00:00.123456Z': 'e8',
};
const keys = (items: any[]) => items.map((i) => TIMES[i.timestamp] ?? i.timestamp);

async function seeded(o: Parameters<typeof reference>[0] = {}): Promise<Client> {
  const c = await reference({ reference: { queryableAfterMs: 0 }, ...o });
  const a = await c.ingest(DATA);
  assert.equal(a.status, 200);
  return c;
}

// ---- authentication and routing ----------------------------------------------------------------------------------

describe('authentication and routing', () => {
  test('every operation refuses a missing or wrong bearer token with 401 JSON; unknown paths 404, other methods 405', async () => {
    const c = await reference();
    const operations: Array<[string, string, unknown?]> = [
      ['POST', '/v1/events/ingest', { events: [] }],
      ['GET', '/v1/events'],
      ['GET', '/v1/events/3f1b7a0e-0000-4000-8000-000000000000'],
      ['GET', '/v1/events/statistics'],
    ];
    for (const [method, path, body] of operations) {
      for (const token of [null, 'wrong-token', `${TOKEN}x`]) {
        const a = await c.call(method, path, { body, token });
        assert.equal(a.status, 401, `${method} ${path} with ${token}`);
        assert.equal(a.headers.get('content-type'), 'application/json; charset=utf-8');
        assert.equal(a.json.error, 'Unauthorized');
        assert.equal(a.headers.get('www-authenticate'), 'Bearer');
      }
    }
    assert.equal((await c.call('GET', '/v1/events')).status, 200);
    assert.equal((await c.call('GET', '/v1/nothing')).status, 404);
    assert.equal((await c.call('GET', '/v2/events', { token: null })).status, 404);
    const wrongMethod = await c.call('DELETE', '/v1/events');
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'GET');
    assert.equal((await c.call('POST', '/v1/events', { body: {} })).status, 405);
  });

  test('a profile\'s refusalStatus is the status of a bad token and of an oversized batch', async () => {
    const c = await reference({ settings: { refusalStatus: 400 } });
    assert.equal((await c.call('GET', '/v1/events', { token: 'nope' })).status, 400);
    assert.equal((await c.ingest(Array.from({ length: 101 }, (_, i) => ev('a', { c: 'c1' }, '2024-01-01T00:00:00Z', {}, { idempotency_key: `k${i}` })))).status, 400);
  });

  test('a reference without an access token refuses to start', async () => {
    await assert.rejects(() => start({ settings: settingsWith(), secrets: {}, port: 0 }), /no accessToken/);
  });
});

// ---- ingestion -----------------------------------------------------------------------------------------------------

describe('ingestion', () => {
  test('a valid batch is ingested whole; its events become visible after the delay, with their fields as sent', async () => {
    const c = await reference({ reference: {} });
    const sent = Date.now();
    const a = await c.ingest([
      ev('api.Call_1', { c: 'c1' }, '2024-03-10T12:00:00+02:00', { route: '/x', n: 1.5, ok: true }),
      ev('api.call', { x: 'ext-1' }, '2024-03-10T10:00:00.000123Z'),
      { name: 'no.timestamp', customer_id: 'c2' },
    ]);
    const answered = Date.now();
    assert.equal(a.status, 200);
    assert.deepEqual(a.json, { inserted: 3, duplicates: 0, errors: [] });
    // Ingestion is asynchronous: nothing is visible at first, everything after the default 300 ms.
    await invisibleWhileEarly(c, sent, 300);
    await sleep(150);
    await invisibleWhileEarly(c, sent, 300);
    await sleep(Math.max(0, answered + 350 - Date.now()));
    const items = await c.list();
    assert.equal(items.length, 3);
    const [first, second] = items;
    assert.match(first.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(first, {
      id: first.id,
      name: 'conformance.api.Call_1',
      customer_id: 'c1',
      external_customer_id: null,
      timestamp: '2024-03-10T10:00:00Z',
      properties: { route: '/x', n: 1.5, ok: true },
      source: 'user',
      organization_id: ORG,
    });
    assert.equal(second.timestamp, '2024-03-10T10:00:00.000123Z', 'microseconds kept, sorted after the whole second');
    assert.deepEqual([second.customer_id, second.external_customer_id, second.properties], [null, 'ext-1', {}]);
    // Without a timestamp: the time of ingestion.
    assert.ok(Math.abs(Date.parse(items[2].timestamp) - Date.now()) < 5000);
  });

  test('a mixed batch: each invalid event is an error naming its index, the valid ones are ingested', async () => {
    const c = await reference();
    const batch = [
      ev('ok.one', { c: 'c1' }, '2024-01-01T00:00:00Z'),
      ev('has-hyphen', { c: 'c1' }, '2024-01-01T00:00:00Z'),
      ev('has space', { c: 'c1' }, '2024-01-01T00:00:00Z'),
      ev('nobody', {}, '2024-01-01T00:00:00Z'),
      ev('bad.time', { c: 'c1' }, 'yesterday'),
      ev('bad.day', { c: 'c1' }, '2024-02-30T00:00:00Z'),
      ev('bad.props', { c: 'c1' }, '2024-01-01T00:00:00Z', 'not an object' as unknown as Record<string, unknown>),
      ev('array.props', { c: 'c1' }, '2024-01-01T00:00:00Z', [1, 2] as unknown as Record<string, unknown>),
      ev('nested.props', { c: 'c1' }, '2024-01-01T00:00:00Z', { deep: { a: 1 } }),
      'not an event',
      ev('ok.two', { x: 'x9' }, '2024-01-01T00:00:01Z', { n: 1 }),
      ev('numeric.customer', {}, '2024-01-01T00:00:00Z', undefined, { customer_id: 42 }),
    ];
    const a = await c.ingest(batch);
    assert.equal(a.status, 200);
    assert.equal(a.json.inserted, 2);
    assert.equal(a.json.duplicates, 0);
    assert.deepEqual(a.json.errors.map((e: any) => e.index), [1, 2, 3, 4, 5, 6, 7, 8, 9, 11]);
    for (const e of a.json.errors) assert.equal(typeof e.message, 'string');
    await sleep(QUICK + 40);
    assert.deepEqual((await c.list()).map((i) => i.name), ['conformance.ok.one', 'conformance.ok.two']);
  });

  test('more than 100 events is refused (422) and ingests nothing; 100 is accepted; a body without events is 422', async () => {
    const c = await reference();
    const many = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ev(`bulk.${tag}`, { c: 'c1' }, '2024-01-01T00:00:00Z', { i }));
    const refused = await c.ingest(many(101, 'refused'));
    assert.equal(refused.status, 422);
    assert.equal(refused.json.error, 'RequestValidationError');
    assert.deepEqual((await c.ingest(many(100, 'accepted'))).json, { inserted: 100, duplicates: 0, errors: [] });
    await sleep(QUICK + 40);
    const all = await c.list({ filter: JSON.stringify({ conjunction: 'and', clauses: [{ property: 'name', operator: 'like', value: 'bulk.' }] }) });
    assert.equal(all.length, 100);
    assert.ok(all.every((e) => e.name === 'conformance.bulk.accepted'));
    assert.equal((await c.call('POST', '/v1/events/ingest', { raw: '{not json' })).status, 422);
    assert.equal((await c.call('POST', '/v1/events/ingest', { body: { event: [] } })).status, 422);
    assert.deepEqual((await c.ingest([])).json, { inserted: 0, duplicates: 0, errors: [] });
  });

  test('a property name keeps its first type: a value of another type is an error, never coerced', async () => {
    const c = await reference();
    assert.equal((await c.ingest([ev('t', { c: 'c1' }, '2024-01-01T00:00:00Z', { label: 'a', n: 1, flag: true })])).json.inserted, 1);
    const a = await c.ingest([
      ev('t', { c: 'c1' }, '2024-01-01T00:00:01Z', { label: 5 }),
      ev('t', { c: 'c1' }, '2024-01-01T00:00:02Z', { n: '1' }),
      ev('t', { c: 'c1' }, '2024-01-01T00:00:03Z', { flag: 'true' }),
      ev('t', { c: 'c1' }, '2024-01-01T00:00:04Z', { label: 'b', n: 2.5, flag: false, fresh: 'x' }),
      // fresh became a string earlier in this batch
      ev('t', { c: 'c1' }, '2024-01-01T00:00:05Z', { fresh: 1 }),
    ]);
    assert.equal(a.json.inserted, 1);
    assert.deepEqual(a.json.errors.map((e: any) => e.index), [0, 1, 2, 4]);
    assert.match(a.json.errors[0].message, /label/);
  });

  test('idempotency keys: a repeat within the batch, in a later batch or in a batch sent at the same moment is skipped', async () => {
    const c = await reference();
    const keyed = (key: string, n: number) => ev('keyed', { c: 'c1' }, `2024-01-01T00:00:0${n}Z`, { n }, { idempotency_key: key });
    assert.deepEqual((await c.ingest([keyed('k1', 1), keyed('k1', 2), keyed('k2', 3)])).json, { inserted: 2, duplicates: 1, errors: [] });
    assert.deepEqual((await c.ingest([keyed('k2', 4), keyed('k3', 5)])).json, { inserted: 1, duplicates: 1, errors: [] });
    // An invalid event does not record its key.
    const invalidThenValid = await c.ingest([{ ...keyed('k4', 6), name: 'bad-name' }, keyed('k4', 7)]);
    assert.deepEqual([invalidThenValid.json.inserted, invalidThenValid.json.errors.length], [1, 1]);
    const together = await Promise.all(Array.from({ length: 4 }, (_, i) => c.ingest([keyed('k5', i)])));
    assert.equal(together.reduce((n, a) => n + a.json.inserted, 0), 1);
    assert.equal(together.reduce((n, a) => n + a.json.duplicates, 0), 3);
    assert.equal((await c.ingest([{ ...keyed('x', 8), idempotency_key: 7 }])).json.errors.length, 1);
    await sleep(QUICK + 40);
    const stored = (await c.list()).map((e) => e.properties.n);
    assert.equal(stored.length, 5);
    for (const n of [1, 3, 5, 7]) assert.ok(stored.includes(n), `event ${n} stored`);
  });

  test('ingest answer member names follow the profile', async () => {
    const c = await reference({ settings: { ingestResponse: { inserted: 'count', errors: 'failures', errorIndex: 'position' } } });
    const a = await c.ingest([ev('a', { c: 'c1' }, '2024-01-01T00:00:00Z'), ev('b-c', { c: 'c1' }, '2024-01-01T00:00:00Z')]);
    assert.equal(a.json.count, 1);
    assert.equal(a.json.failures[0].position, 1);
  });
});

// ---- reads -------------------------------------------------------------------------------------------------------

describe('reading events', () => {
  let c: Client;
  before(async () => {
    c = await seeded();
  });
  const clause = (conjunction: 'and' | 'or', ...clauses: Array<[string, string, string | number | boolean]>) =>
    JSON.stringify({ conjunction, clauses: clauses.map(([property, operator, value]) => ({ property, operator, value })) });

  test('the list is sorted by timestamp; customer and external customer filters', async () => {
    assert.deepEqual(keys(await c.list()), ['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e8', 'e7']);
    assert.deepEqual(keys(await c.list({ customer_id: 'c1' })), ['e1', 'e4', 'e8', 'e7']);
    assert.deepEqual(keys(await c.list({ customer_id: ['c1', 'c2'] })), ['e1', 'e2', 'e4', 'e6', 'e8', 'e7']);
    assert.deepEqual(keys(await c.list({ external_customer_id: 'x1' })), ['e3', 'e5']);
    assert.deepEqual(await c.list({ customer_id: 'nobody' }), []);
  });

  test('start_timestamp and end_timestamp are exclusive bounds', async () => {
    assert.deepEqual(keys(await c.list({ start_timestamp: '2024-01-01T10:45:00Z', end_timestamp: '2024-01-02T00:30:00Z' })), ['e3']);
    assert.deepEqual(keys(await c.list({ start_timestamp: '2024-01-31T23:00:00.123455Z' })), ['e8', 'e7']);
    assert.deepEqual(keys(await c.list({ end_timestamp: '2024-01-01T11:45:00+01:00' })), ['e1'], 'an event on the bound is left out');
    assert.deepEqual(keys(await c.list({ end_timestamp: '2024-01-01T11:45:00.000001+01:00' })), ['e1', 'e2']);
    // An unencoded + arrives as a space.
    const raw = await fetch(`${c.url}/v1/events?end_timestamp=2024-01-01T11:46:00+01:00`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.deepEqual(keys((await raw.json()).items), ['e1', 'e2']);
    assert.equal((await c.call('GET', '/v1/events', { query: { start_timestamp: 'last week' } })).status, 422);
  });

  test('a JSON filter clause: conjunctions, every operator, own fields and properties', async () => {
    const by = async (filter: string) => keys(await c.list({ filter }));
    assert.deepEqual(await by(clause('and', ['route', 'eq', '/a'], ['ok', 'eq', true])), ['e1', 'e3']);
    assert.deepEqual(await by(clause('or', ['ms', 'gte', 30], ['model', 'like', 'clau'])), ['e2', 'e5']);
    assert.deepEqual(await by(clause('and', ['route', 'ne', '/a'])), ['e2'], 'events without the property match no clause');
    assert.deepEqual(await by(clause('and', ['ms', 'lt', 20])), ['e1', 'e8']);
    assert.deepEqual(await by(clause('and', ['ms', 'lte', 20])), ['e1', 'e3', 'e8']);
    assert.deepEqual(await by(clause('and', ['ms', 'gt', 10], ['ms', 'lt', 30])), ['e3']);
    assert.deepEqual(await by(clause('and', ['ms', 'eq', '10'])), [], 'a number property against a string value matches nothing');
    assert.deepEqual(await by(clause('and', ['model', 'not_like', 'gpt'])), ['e5']);
    assert.deepEqual(await by(clause('and', ['model', 'like', 'g_t-%'])), ['e4']);
    assert.deepEqual(await by(clause('and', ['name', 'like', 'conformance.%call'])), ['e1', 'e2', 'e3', 'e8']);
    assert.deepEqual(await by(clause('and', ['name', 'like', 'API'])), [], 'like counts letter case');
    assert.deepEqual(await by(clause('and', ['customer_id', 'eq', 'c2'])), ['e2', 'e6']);
    assert.deepEqual(await by(clause('and', ['external_customer_id', 'ne', 'x2'])), ['e3', 'e5']);
    assert.deepEqual(await by(clause('and', ['timestamp', 'gt', '2024-02-01T00:00:00Z'])), ['e7']);
    assert.deepEqual(await by(clause('and', ['timestamp', 'lte', Date.parse('2024-01-01T10:45:00Z') / 1000])), ['e1', 'e2']);
    assert.deepEqual(await by(clause('and', ['metadata.tokens', 'gte', 100])), ['e4', 'e7']);
    const nested = JSON.stringify({ conjunction: 'and', clauses: [{ property: 'customer_id', operator: 'eq', value: 'c1' }, JSON.parse(clause('or', ['tokens', 'eq', 100], ['ms', 'eq', 5]))] });
    assert.deepEqual(await by(nested), ['e4', 'e8']);
    assert.deepEqual(await by(clause('or')), []);
    assert.equal((await by(clause('and'))).length, 8);
    for (const bad of ['{', '[]', '{"conjunction":"xor","clauses":[]}', clause('and', ['ms', 'between', 1]), '{"conjunction":"and","clauses":[{"property":"a","operator":"eq","value":null}]}']) {
      assert.equal((await c.call('GET', '/v1/events', { query: { filter: bad } })).status, 422, bad);
    }
  });

  test('a meter\'s filter, and every filter together (AND)', async () => {
    assert.deepEqual(keys(await c.list({ meter_id: 'tokens' })), ['e4', 'e5', 'e6']);
    assert.deepEqual(keys(await c.list({ meter_id: 'api-calls' })), ['e1', 'e2', 'e3', 'e8']);
    assert.equal((await c.call('GET', '/v1/events', { query: { meter_id: 'no-such-meter' } })).status, 422);
    assert.deepEqual(keys(await c.list({ meter_id: 'tokens', customer_id: 'c1' })), ['e4']);
    assert.deepEqual(keys(await c.list({ meter_id: 'api-calls', customer_id: 'c1', end_timestamp: '2024-01-15T00:00:00Z' })), ['e1']);
    assert.deepEqual(
      keys(await c.list({ external_customer_id: 'x1', start_timestamp: '2024-01-01T00:00:00Z', end_timestamp: '2024-02-01T00:00:00Z', filter: clause('or', ['tokens', 'gt', 0], ['ms', 'gt', 100]), meter_id: 'tokens' })),
      ['e5'],
    );
    assert.deepEqual(keys(await c.list({ customer_id: 'c2', external_customer_id: 'x1' })), []);
  });

  test('paging: 1-based pages of at most 100, total_count and max_page; the items where the profile says', async () => {
    const page = async (p: string, limit?: string) => (await c.call('GET', '/v1/events', { query: { page: p, ...(limit ? { limit } : {}) } })).json;
    const pages = await Promise.all(['1', '2', '3', '4'].map((p) => page(p, '3')));
    assert.deepEqual(pages.map((p) => keys(p.items)), [['e1', 'e2', 'e3'], ['e4', 'e5', 'e6'], ['e8', 'e7'], []]);
    assert.deepEqual(pages[0].pagination, { total_count: 8, max_page: 3 });
    const defaults = await page('1');
    assert.equal(defaults.items.length, 8);
    for (const bad of [{ limit: '101' }, { limit: '0' }, { page: '0' }, { page: 'two' }] as Array<Record<string, string>>) assert.equal((await c.call('GET', '/v1/events', { query: bad })).status, 422, JSON.stringify(bad));
    assert.deepEqual((await c.call('GET', '/v1/events', { query: { customer_id: 'nobody' } })).json.pagination, { total_count: 0, max_page: 0 });

    const elsewhere = await seeded({ settings: { paging: { page: 'p', limit: 'per_page', size: 100, items: '/result/data' }, eventId: 'event_id' } });
    const a = await elsewhere.call('GET', '/v1/events', { query: { p: '2', per_page: '5' } });
    assert.deepEqual(keys(a.json.result.data), ['e6', 'e8', 'e7']);
    assert.deepEqual(a.json.pagination, { total_count: 8, max_page: 2 });
    assert.equal(typeof a.json.result.data[0].event_id, 'string');
    const bare = await seeded({ settings: { paging: { page: 'page', limit: 'limit', size: 100, items: '' } } });
    assert.equal((await bare.call('GET', '/v1/events')).json.length, 8);
  });

  test('an event by id; an unknown or malformed id is 404', async () => {
    const listed = await c.list({ customer_id: 'c2' });
    for (const e of listed) assert.deepEqual((await c.call('GET', `/v1/events/${e.id}`)).json, e);
    const unknown = await c.call('GET', '/v1/events/3f1b7a0e-0000-4000-8000-000000000000');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error, 'ResourceNotFound');
    assert.equal((await c.call('GET', '/v1/events/not-an-id')).status, 404);
  });

  test('an event is not readable by id before it is visible', async () => {
    const slow = await reference({ reference: { queryableAfterMs: 150 } });
    const sent = Date.now();
    await slow.ingest([ev('later', { c: 'c1' }, '2024-01-01T00:00:00Z')]);
    await invisibleWhileEarly(slow, sent, 150);
    await sleep(200);
    const [e] = await slow.list();
    assert.equal((await slow.call('GET', `/v1/events/${e.id}`)).status, 200);
  });
});

// ---- statistics --------------------------------------------------------------------------------------------------

describe('statistics', () => {
  let c: Client;
  before(async () => {
    c = await seeded();
  });
  const rows = async (query: Record<string, string>) => {
    const a = await c.stats(query);
    assert.equal(a.status, 200, JSON.stringify(a.json));
    return (a.json as Array<{ timestamp: string; value: number | null }>).map((r) => [r.timestamp, r.value]);
  };

  test('hour and day: one row per interval start in UTC, empty intervals 0 for count and sum', async () => {
    assert.deepEqual(await rows({ meter_id: 'api-calls', interval: 'hour', start_timestamp: '2024-01-01T10:30:00Z', end_timestamp: '2024-01-01T12:30:00Z' }), [
      ['2024-01-01T10:00:00Z', 2],
      ['2024-01-01T11:00:00Z', 0],
      ['2024-01-01T12:00:00Z', 1],
    ]);
    // The meter's own aggregation (sum of tokens); the bounds' own intervals are whole.
    assert.deepEqual(await rows({ meter_id: 'tokens', interval: 'day', start_timestamp: '2024-01-01T05:00:00Z', end_timestamp: '2024-01-04T01:00:00+02:00' }), [
      ['2024-01-01T00:00:00Z', 0],
      ['2024-01-02T00:00:00Z', 100],
      ['2024-01-03T00:00:00Z', 50],
    ]);
  });

  test('week (from Monday) and month', async () => {
    assert.deepEqual(await rows({ meter_id: 'tokens', interval: 'week', start_timestamp: '2024-01-03T12:00:00Z', end_timestamp: '2024-01-14T23:00:00Z' }), [
      ['2024-01-01T00:00:00Z', 150],
      ['2024-01-08T00:00:00Z', 7],
    ]);
    assert.deepEqual(await rows({ meter_id: 'tokens', interval: 'month', start_timestamp: '2023-12-31T00:00:00Z', end_timestamp: '2024-02-20T00:00:00Z' }), [
      ['2023-12-01T00:00:00Z', 0],
      ['2024-01-01T00:00:00Z', 157],
      ['2024-02-01T00:00:00Z', 0],
    ]);
    assert.deepEqual(await rows({ meter_id: 'tokens', interval: 'month', start_timestamp: '2024-02-10T00:00:00Z', end_timestamp: '2024-02-10T00:00:00Z' }), [['2024-02-01T00:00:00Z', 0]]);
  });

  test('each aggregation over a property; avg, min and max of an empty interval are null', async () => {
    const day = { meter_id: 'api-calls', interval: 'day', start_timestamp: '2024-01-01T00:00:00Z', end_timestamp: '2024-01-02T12:00:00Z' };
    const values = async (aggregation: string, property?: string) => (await rows({ ...day, aggregation, ...(property ? { property } : {}) })).map((r) => r[1]);
    assert.deepEqual(await values('count'), [3, 0]);
    assert.deepEqual(await values('sum', 'ms'), [60, 0]);
    assert.deepEqual(await values('avg', 'ms'), [20, null]);
    assert.deepEqual(await values('min', 'ms'), [10, null]);
    assert.deepEqual(await values('max', 'ms'), [30, null]);
    assert.deepEqual(await values('sum', 'route'), [0, 0], 'string values are not added');
    assert.equal((await c.stats({ ...day, aggregation: 'sum' })).status, 422, 'the meter has no property to sum');
    assert.deepEqual((await rows({ ...day, meter_id: 'tokens', aggregation: 'max' })).map((r) => r[1]), [null, 100]);
  });

  test('only the meter\'s events count', async () => {
    // e7 (name "other", 1000 tokens) is in February but outside the tokens meter.
    assert.deepEqual(await rows({ meter_id: 'tokens', interval: 'month', start_timestamp: '2024-02-01T00:00:00Z', end_timestamp: '2024-02-29T00:00:00Z', aggregation: 'count' }), [['2024-02-01T00:00:00Z', 0]]);
    assert.deepEqual(await rows({ meter_id: 'api-calls', interval: 'month', start_timestamp: '2024-01-01T00:00:00Z', end_timestamp: '2024-02-29T00:00:00Z' }), [
      ['2024-01-01T00:00:00Z', 4],
      ['2024-02-01T00:00:00Z', 0],
    ]);
  });

  test('refusals: a missing parameter or an unknown meter 422, another organization 404', async () => {
    const ok = { meter_id: 'tokens', interval: 'day', start_timestamp: '2024-01-01T00:00:00Z', end_timestamp: '2024-01-02T00:00:00Z' };
    for (const drop of ['meter_id', 'interval', 'start_timestamp', 'end_timestamp']) {
      const query = Object.fromEntries(Object.entries(ok).filter(([k]) => k !== drop));
      assert.equal((await c.stats(query)).status, 422, drop);
    }
    assert.equal((await c.call('GET', '/v1/events/statistics', { query: ok })).status, 422, 'no organization_id');
    assert.equal((await c.stats({ ...ok, organization_id: 'someone-else' })).status, 404);
    assert.equal((await c.stats({ ...ok, meter_id: 'nope' })).status, 422);
    assert.equal((await c.stats({ ...ok, interval: 'year' })).status, 422);
    assert.equal((await c.stats({ ...ok, aggregation: 'median' })).status, 422);
    assert.equal((await c.stats({ ...ok, start_timestamp: '2024-01-03T00:00:00Z' })).status, 422, 'start after end');
    assert.equal((await c.stats({ ...ok, interval: 'hour', end_timestamp: '2026-01-01T00:00:00Z' })).status, 422, 'too many rows');
  });
});

// ---- seeded faults -----------------------------------------------------------------------------------------------

describe('seeded faults', () => {
  test('the catalogue: unique names, requirement ids of Interface D; an unknown fault is refused', async () => {
    const names = faults.map((f) => f.name);
    assert.equal(new Set(names).size, names.length);
    for (const f of faults) for (const id of [...f.violates, ...((f as { collateral?: readonly string[] }).collateral ?? [])]) assert.match(id, /^D-[A-Z0-9-]+$/);
    await assert.rejects(() => start({ settings: settingsWith(), secrets: { accessToken: TOKEN }, fault: 'no-such-fault' }), /unknown usage-events fault/);
  });

  const batchOf = (n: number) => Array.from({ length: n }, (_, i) => ev('bulk', { c: 'c1' }, '2024-01-01T00:00:00Z', { i }));

  test('ingestion faults: limit-101-accepted, one-bad-fails-batch, error-index-off-by-one, mixed-types-coerced', async () => {
    assert.equal((await (await reference({ fault: 'limit-101-accepted' })).ingest(batchOf(101))).json.inserted, 101);

    const mixed = [ev('good', { c: 'c1' }, '2024-01-01T00:00:00Z'), ev('bad-name', { c: 'c1' }, '2024-01-01T00:00:00Z')];
    const wholeBatch = await (await reference({ fault: 'one-bad-fails-batch' })).ingest(mixed);
    assert.deepEqual([wholeBatch.json.inserted, wholeBatch.json.errors.map((e: any) => e.index)], [0, [0, 1]]);
    const shifted = await (await reference({ fault: 'error-index-off-by-one' })).ingest(mixed);
    assert.deepEqual(shifted.json.errors.map((e: any) => e.index), [2]);

    const coerced = await reference({ fault: 'mixed-types-coerced', reference: { queryableAfterMs: 0 } });
    await coerced.ingest([ev('t', { c: 'c1' }, '2024-01-01T00:00:00Z', { label: 'a' })]);
    assert.deepEqual((await coerced.ingest([ev('t', { c: 'c1' }, '2024-01-01T00:00:01Z', { label: 5 })])).json.errors, []);
    assert.deepEqual((await coerced.list()).map((e) => e.properties.label), ['a', '5']);
  });

  test('idempotency-race and idempotency-within-batch ingest a key twice', async () => {
    const race = await reference({ fault: 'idempotency-race' });
    const keyed = ev('keyed', { c: 'c1' }, '2024-01-01T00:00:00Z', {}, { idempotency_key: 'same' });
    const together = await Promise.all([race.ingest([keyed]), race.ingest([keyed])]);
    assert.deepEqual(together.map((a) => a.json.inserted), [1, 1]);
    assert.equal((await race.ingest([keyed])).json.duplicates, 1, 'one after the other is still caught');

    const within = await reference({ fault: 'idempotency-within-batch' });
    assert.deepEqual((await within.ingest([keyed, keyed])).json, { inserted: 2, duplicates: 0, errors: [] });
    assert.deepEqual((await within.ingest([keyed])).json, { inserted: 0, duplicates: 1, errors: [] });
  });

  test('never-queryable, name-lowercased and unknown-id-200', async () => {
    const never = await seeded({ fault: 'never-queryable' });
    await sleep(50);
    assert.deepEqual(await never.list(), []);

    const lowered = await seeded({ fault: 'name-lowercased' });
    await lowered.ingest([ev('Upper.Case', { c: 'c9' }, '2024-01-01T00:00:00Z')]);
    const found = await lowered.list({ filter: JSON.stringify({ conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'conformance.Upper.Case' }] }) });
    assert.deepEqual(found.map((e) => e.name), ['conformance.upper.case']);

    const unknown = await (await reference({ fault: 'unknown-id-200' })).call('GET', '/v1/events/3f1b7a0e-0000-4000-8000-000000000000');
    assert.deepEqual([unknown.status, unknown.json], [200, {}]);
  });

  test('list faults: end-inclusive-after, conjunction-ignored, meter-filter-ignored, filters-or, customer-filter-ignored', async () => {
    const late = await seeded({ fault: 'end-inclusive-after' });
    assert.deepEqual(keys(await late.list({ end_timestamp: '2024-01-01T10:30:00Z' })), ['e1', 'e2', 'e3']);

    const anded = await seeded({ fault: 'conjunction-ignored' });
    const or = JSON.stringify({ conjunction: 'or', clauses: [{ property: 'ms', operator: 'gte', value: 30 }, { property: 'model', operator: 'eq', value: 'claude' }] });
    assert.deepEqual(await anded.list({ filter: or }), []);
    assert.deepEqual(keys(await anded.list({ meter_id: 'tokens' })), ['e4', 'e5', 'e6'], 'meters keep their conjunction');

    assert.equal((await (await seeded({ fault: 'meter-filter-ignored' })).list({ meter_id: 'tokens' })).length, 8);
    assert.deepEqual(keys(await (await seeded({ fault: 'filters-or' })).list({ customer_id: 'c2', external_customer_id: 'x1' })), ['e2', 'e3', 'e5', 'e6']);
    assert.equal((await (await seeded({ fault: 'customer-filter-ignored' })).list({ customer_id: 'c2' })).length, 8);
  });

  test('statistics faults: min-max-swapped, avg-over-empty, count-off-by-one, buckets-local-time, last-interval-dropped, stats-value-string', async () => {
    const day = { meter_id: 'api-calls', interval: 'day', start_timestamp: '2024-01-01T00:00:00Z', end_timestamp: '2024-01-02T00:00:00Z', property: 'ms' };
    const values = async (fault: string, query: Record<string, string>) => ((await (await seeded({ fault })).stats(query)).json as any[]).map((r) => r.value);
    assert.deepEqual(await values('min-max-swapped', { ...day, aggregation: 'min' }), [30, null]);
    // Three values in two hours of 24: (mean(10, 30) + 20) / 24.
    assert.deepEqual(await values('avg-over-empty', { ...day, aggregation: 'avg' }), [40 / 24, 0]);
    assert.deepEqual(await values('avg-over-empty', { ...day, interval: 'hour', start_timestamp: '2024-01-01T10:00:00Z', end_timestamp: '2024-01-01T10:59:00Z', aggregation: 'avg' }), [20]);
    assert.deepEqual(await values('count-off-by-one', { ...day, aggregation: 'count' }), [2, 0]);
    assert.deepEqual(await values('sum-as-count', { ...day, aggregation: 'sum' }), [3, 0]);
    assert.deepEqual(await values('stats-value-string', { ...day, aggregation: 'sum' }), ['60', '0']);
    assert.deepEqual(await values('stats-ignore-meter-filter', { ...day, aggregation: 'count' }), [3, 1]);
    const stamps = async (fault: string) => ((await (await seeded({ fault })).stats(day)).json as any[]).map((r) => r.timestamp);
    assert.deepEqual(await stamps('buckets-local-time'), ['2024-01-01T01:00:00Z', '2024-01-02T01:00:00Z']);
    assert.deepEqual(await stamps('last-interval-dropped'), ['2024-01-01T00:00:00Z']);
  });

  test('no-auth serves without a token', async () => {
    const open = await reference({ fault: 'no-auth' });
    assert.equal((await open.call('GET', '/v1/events', { token: null })).status, 200);
    assert.equal((await open.call('POST', '/v1/events/ingest', { token: 'anything', body: { events: [] } })).status, 200);
  });
});
