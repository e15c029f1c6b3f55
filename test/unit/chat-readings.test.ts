/**
 * The chat reference (mocks/chat/) started in readings of the open points of specs/chat.yaml other than its default
 * (mocks/chat/readings.ts): each shows, with a request or two, that the reading takes effect; the default stays as it
 * was, every other reading at once still answers a valid request, and a seeded fault still shows under a reading.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { loadSpec } from '../../harness/spec/load.ts';
import type { Reading } from '../../mocks/readings.ts';
import { API_KEY_CREDENTIAL, readings, READING_API_VERSION } from '../../mocks/chat/readings.ts';
import { LIMIT_MESSAGE, MODEL_LATENCY_MS, USTED_LIMIT_MESSAGE, ipv6Prefix56, start, type ChatSettings } from '../../mocks/chat/server.ts';

/** The credential apiKey the run would draw for a deployment that asks for a bearer key (E-NS-AUTH). */
const READING_API_KEY = 'chat-reading-key';

const running: Array<{ close(): Promise<void> }> = [];
after(async () => {
  await Promise.all(running.map((r) => r.close()));
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

interface Options {
  readings?: Record<string, string>;
  settings?: Partial<ChatSettings>;
  fault?: string;
}

async function reference(o: Options = {}) {
  const settings: ChatSettings = { windowMs: 60_000, maxRequests: 1, instances: 1, clientAddressesPreserved: true, developmentMode: false, ...o.settings };
  // As --readings starts it: each reading's own reference options beside the readings themselves.
  const options = Object.entries(o.readings ?? {}).map(([point, name]) => (readings.find((p) => p.point === point)?.readings.find((r) => r.name === name) as Reading | undefined)?.reference ?? {});
  const server = await start({ settings, reference: Object.assign({}, ...options, { readings: o.readings }), secrets: { [API_KEY_CREDENTIAL]: READING_API_KEY }, fault: o.fault, port: 0 });
  running.push(server);
  let clients = 0;
  return {
    /** A client address of its own for each call that does not name one. */
    fresh: () => `198.51.100.${++clients}`,
    async send(r: { method?: string; path?: string; xff?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', ...r.headers };
      if (r.xff !== undefined) headers['X-Forwarded-For'] = r.xff;
      const method = r.method ?? 'POST';
      const body = method === 'GET' || method === 'HEAD' ? undefined : (r.raw ?? JSON.stringify(r.body ?? { messages: [{ role: 'user', content: 'Hola' }] }));
      const res = await fetch(`${server.url}${r.path ?? '/api/chat'}`, { method, headers, body });
      const text = await res.text();
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, text, json };
    },
  };
}

test('the catalogue names only open points of the spec, each with its spec readings, the first the default', () => {
  const spec = loadSpec('chat');
  for (const c of readings) {
    const point = spec.notShown.find((p) => p.id === c.point);
    assert.ok(point && point.observable !== false, c.point);
    assert.equal(c.readings[0].name, point.readings?.[0].id, c.point);
    for (const r of c.readings) assert.ok(point.readings?.some((x) => x.id === r.name), `${c.point} ${r.name}`);
  }
});

test('an unknown reading is refused at start-up', async () => {
  await assert.rejects(reference({ readings: { 'E-NS-SUCCESS-BODY': 'xml' } }), /has no reading "xml"/);
});

test('the bearer readings take their key from the credential apiKey, and need it', async () => {
  const settings: ChatSettings = { windowMs: 60_000, maxRequests: 1, instances: 1, clientAddressesPreserved: true, developmentMode: false };
  await assert.rejects(start({ settings, reference: { readings: { 'E-NS-AUTH': 'bearer-after-limiter' } }, secrets: {}, port: 0 }), /needs the credential apiKey/);
  const bearer = readings.find((p) => p.point === 'E-NS-AUTH')!.readings[1] as Reading;
  assert.deepEqual(bearer.credentials, { [API_KEY_CREDENTIAL]: 'CHAT_API_KEY' });
  assert.match(JSON.stringify(bearer.settings), /Bearer \{credential:apiKey\}/);
});

test('ipv6Prefix56 keys an address by its /56 and an IPv4-mapped one by its IPv4 address', () => {
  assert.equal(ipv6Prefix56('2001:db8:0:1::1'), '2001:db8:0:0::/56');
  assert.equal(ipv6Prefix56('2001:DB8:0:1ff::2'), '2001:db8:0:100::/56');
  assert.equal(ipv6Prefix56('::ffff:192.0.2.1'), '192.0.2.1');
});

describe('readings', { concurrency: true }, () => {
  test('default: a JSON reply; a 429 with the three documented members, two headers and the tu sentence; another method 404 JSON', async () => {
    const ref = await reference();
    const c = ref.fresh();
    const ok = await ref.send({ xff: c });
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(ok.json, { reply: 'Received 1 message(s).' });
    assert.equal(ok.headers.get('x-ratelimit-remaining'), null);
    const limited = await ref.send({ xff: c });
    assert.equal(limited.status, 429);
    assert.deepEqual(Object.keys(limited.json), ['error', 'message', 'retryAfter']);
    assert.equal(limited.json.message, LIMIT_MESSAGE);
    assert.equal(limited.json.retryAfter, Number(limited.headers.get('retry-after')));
    assert.match(limited.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(limited.headers.get('x-ratelimit-limit'), null);
    const get = await ref.send({ method: 'GET', xff: ref.fresh() });
    assert.equal(get.status, 404);
    assert.equal(get.json.error, 'Not Found');
  });

  test('E-NS-SUCCESS-BODY sse-stream: 200 text/event-stream ending with data: [DONE]', async () => {
    const ref = await reference({ readings: { 'E-NS-SUCCESS-BODY': 'sse-stream' } });
    const r = await ref.send({ xff: ref.fresh() });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.match(r.text, /^data: \{.*"chat\.completion\.chunk"/);
    assert.ok(r.text.endsWith('data: [DONE]\n\n'));
  });

  test('E-NS-SUCCESS-BODY text-stream, openai-json and ndjson-stream', async () => {
    const text = await reference({ readings: { 'E-NS-SUCCESS-BODY': 'text-stream' } });
    const t = await text.send({ xff: text.fresh() });
    assert.match(t.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(t.text, 'Received 1 message(s).');
    const openai = await reference({ readings: { 'E-NS-SUCCESS-BODY': 'openai-json' } });
    const o = await openai.send({ xff: openai.fresh() });
    assert.equal(o.json.choices[0].message.content, 'Received 1 message(s).');
    const ndjson = await reference({ readings: { 'E-NS-SUCCESS-BODY': 'ndjson-stream' } });
    const n = await ndjson.send({ xff: ndjson.fresh() });
    assert.match(n.headers.get('content-type') ?? '', /^application\/x-ndjson/);
    assert.equal(JSON.parse(n.text.trim().split('\n').at(-1)!).done, true);
  });

  test('E-NS-AUTH bearer-after-limiter: 401 without the key (counted), 200 with it; bearer-before-limiter: 401 uncounted', async () => {
    const after = await reference({ readings: { 'E-NS-AUTH': 'bearer-after-limiter' } });
    const c = after.fresh();
    const refused = await after.send({ xff: c });
    assert.equal(refused.status, 401);
    assert.match(refused.headers.get('www-authenticate') ?? '', /^Bearer/);
    assert.equal((await after.send({ xff: c, headers: { Authorization: `Bearer ${READING_API_KEY}` } })).status, 429);
    assert.equal((await after.send({ xff: after.fresh(), headers: { Authorization: `Bearer ${READING_API_KEY}` } })).status, 200);
    const before = await reference({ readings: { 'E-NS-AUTH': 'bearer-before-limiter' } });
    const d = before.fresh();
    assert.equal((await before.send({ xff: d })).status, 401);
    assert.equal((await before.send({ xff: d, headers: { Authorization: `Bearer ${READING_API_KEY}` } })).status, 200);
  });

  test('E-NS-DEVELOPMENT-MODE connection: in development mode every loopback connection is unlimited, whatever X-Forwarded-For says', async () => {
    const ref = await reference({ settings: { developmentMode: true }, readings: { 'E-NS-DEVELOPMENT-MODE': 'connection' } });
    const c = ref.fresh();
    assert.equal((await ref.send({ xff: c })).status, 200);
    assert.equal((await ref.send({ xff: c })).status, 200);
  });

  test('E-NS-CHECK-ORDER parse-first: a limited client sending a body that is not JSON gets 400, not 429', async () => {
    const ref = await reference({ readings: { 'E-NS-CHECK-ORDER': 'parse-first' } });
    const c = ref.fresh();
    assert.equal((await ref.send({ xff: c })).status, 200);
    assert.equal((await ref.send({ xff: c, raw: '{not json' })).status, 400);
    assert.equal((await ref.send({ xff: c, body: {} })).status, 429);
  });

  test('E-NS-CHECK-ORDER validate-first: a bad body is refused without a stamp', async () => {
    const ref = await reference({ readings: { 'E-NS-CHECK-ORDER': 'validate-first' } });
    const c = ref.fresh();
    assert.equal((await ref.send({ xff: c, body: {} })).status, 400);
    assert.equal((await ref.send({ xff: c })).status, 200);
  });

  test('E-NS-LIMITED-BAD-BODY not-stamped: a request refused for its body after the limiter gives its stamp back', async () => {
    const ref = await reference({ readings: { 'E-NS-LIMITED-BAD-BODY': 'not-stamped' } });
    const c = ref.fresh();
    assert.equal((await ref.send({ xff: c, body: { messages: 'hola' } })).status, 400);
    assert.equal((await ref.send({ xff: c })).status, 200);
    assert.equal((await ref.send({ xff: c })).status, 429);
  });

  test('E-NS-BAD-BODY-ANSWER 422-validation and 400-text', async () => {
    const v = await reference({ readings: { 'E-NS-BAD-BODY-ANSWER': '422-validation' } });
    const shape = await v.send({ xff: v.fresh(), body: { messages: [{ role: 'user' }] } });
    assert.equal(shape.status, 422);
    assert.ok(Array.isArray(shape.json.issues));
    assert.equal((await v.send({ xff: v.fresh(), raw: 'nope' })).status, 400);
    const t = await reference({ readings: { 'E-NS-BAD-BODY-ANSWER': '400-text' } });
    const plain = await t.send({ xff: t.fresh(), raw: 'nope' });
    assert.equal(plain.status, 400);
    assert.match(plain.headers.get('content-type') ?? '', /^text\/plain/);
  });

  test('E-NS-RETRY-ROUNDING body-unrounded: the header in whole seconds, the body to the millisecond', async () => {
    const ref = await reference({ readings: { 'E-NS-RETRY-ROUNDING': 'body-unrounded' } });
    const c = ref.fresh();
    await ref.send({ xff: c });
    await new Promise((r) => setTimeout(r, 20));
    const r = await ref.send({ xff: c });
    assert.equal(r.headers.get('retry-after'), '60');
    assert.ok(r.json.retryAfter < 60 && r.json.retryAfter > 59 && !Number.isInteger(r.json.retryAfter), String(r.json.retryAfter));
  });

  test('E-NS-RETRY-ROUNDING round: to the nearest second', async () => {
    const ref = await reference({ settings: { windowMs: 1400 }, readings: { 'E-NS-RETRY-ROUNDING': 'round' } });
    const c = ref.fresh();
    await ref.send({ xff: c });
    const r = await ref.send({ xff: c });
    assert.equal(r.headers.get('retry-after'), '1');
    assert.equal(r.json.retryAfter, 1);
  });

  test('E-NS-ALLOWED-HEADERS x-ratelimit and ietf-draft: rate-limit headers on an allowed reply', async () => {
    const x = await reference({ settings: { maxRequests: 5 }, readings: { 'E-NS-ALLOWED-HEADERS': 'x-ratelimit' } });
    const a = await x.send({ xff: x.fresh() });
    assert.equal(a.headers.get('x-ratelimit-limit'), '5');
    assert.equal(a.headers.get('x-ratelimit-remaining'), '4');
    assert.ok(Number(a.headers.get('x-ratelimit-reset')) > Date.now() / 1000);
    const d = await reference({ settings: { maxRequests: 5 }, readings: { 'E-NS-ALLOWED-HEADERS': 'ietf-draft' } });
    const b = await d.send({ xff: d.fresh() });
    assert.equal(b.headers.get('ratelimit-remaining'), '4');
    assert.equal(b.headers.get('ratelimit-policy'), '5;w=60');
  });

  test('E-NS-MESSAGE-TEXT usted-sentence, E-NS-LIMITED-BODY-MEMBERS with-limit-details, E-NS-LIMITED-MEDIA-TYPE problem-json', async () => {
    const ref = await reference({ readings: { 'E-NS-MESSAGE-TEXT': 'usted-sentence', 'E-NS-LIMITED-BODY-MEMBERS': 'with-limit-details', 'E-NS-LIMITED-MEDIA-TYPE': 'problem-json' } });
    const c = ref.fresh();
    await ref.send({ xff: c });
    const r = await ref.send({ xff: c });
    assert.equal(r.status, 429);
    assert.equal(r.json.message, USTED_LIMIT_MESSAGE);
    assert.equal(r.json.limit, 1);
    assert.equal(r.json.status, 429);
    assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
  });

  test('E-NS-OTHER-METHODS 405-allow and 404-html', async () => {
    const a = await reference({ readings: { 'E-NS-OTHER-METHODS': '405-allow' } });
    const r = await a.send({ method: 'GET', xff: a.fresh() });
    assert.equal(r.status, 405);
    assert.equal(r.headers.get('allow'), 'OPTIONS, POST');
    const h = await reference({ readings: { 'E-NS-OTHER-METHODS': '404-html' } });
    const page = await h.send({ method: 'GET', xff: h.fresh() });
    assert.equal(page.status, 404);
    assert.match(page.text, /Cannot GET \/api\/chat/);
  });

  test('E-NS-MESSAGE-RULES openai-roles: an unknown role and an empty list are refused', async () => {
    const ref = await reference({ settings: { maxRequests: 5 }, readings: { 'E-NS-MESSAGE-RULES': 'openai-roles' } });
    assert.equal((await ref.send({ xff: ref.fresh(), body: { messages: [{ role: 'robot', content: 'beep' }] } })).status, 400);
    assert.equal((await ref.send({ xff: ref.fresh(), body: { messages: [] } })).status, 400);
    assert.equal((await ref.send({ xff: ref.fresh() })).status, 200);
  });

  test('E-NS-LIMITER-SCOPE every-request: a request to another path uses the client\'s stamp', async () => {
    const ref = await reference({ readings: { 'E-NS-LIMITER-SCOPE': 'every-request' } });
    const c = ref.fresh();
    assert.equal((await ref.send({ method: 'GET', path: '/health', xff: c })).status, 404);
    assert.equal((await ref.send({ xff: c })).status, 429);
  });

  test('E-NS-REQUEST-MEDIA-TYPE json-only-415 and unparsed-400: a body labelled text/plain', async () => {
    const f = await reference({ readings: { 'E-NS-REQUEST-MEDIA-TYPE': 'json-only-415' } });
    const headers = { 'Content-Type': 'text/plain' };
    assert.equal((await f.send({ xff: f.fresh(), headers })).status, 415);
    const e = await reference({ readings: { 'E-NS-REQUEST-MEDIA-TYPE': 'unparsed-400' } });
    assert.equal((await e.send({ xff: e.fresh(), headers })).status, 400);
  });

  test('E-NS-BODY-SIZE hundred-kilobytes: a 200 kB body is refused 413', async () => {
    const ref = await reference({ readings: { 'E-NS-BODY-SIZE': 'hundred-kilobytes' } });
    assert.equal((await ref.send({ xff: ref.fresh(), body: { messages: [{ role: 'user', content: 'a'.repeat(200_000) }] } })).status, 413);
  });

  test('E-NS-EXTRA-INPUT api-version-query and model-member', async () => {
    const q = await reference({ readings: { 'E-NS-EXTRA-INPUT': 'api-version-query' } });
    assert.equal((await q.send({ xff: q.fresh() })).status, 400);
    assert.equal((await q.send({ xff: q.fresh(), path: `/api/chat?api-version=${READING_API_VERSION}` })).status, 200);
    const m = await reference({ readings: { 'E-NS-EXTRA-INPUT': 'model-member' } });
    assert.equal((await m.send({ xff: m.fresh() })).status, 400);
    assert.equal((await m.send({ xff: m.fresh(), body: { model: 'llama3.2', messages: [{ role: 'user', content: 'Hola' }] } })).status, 200);
  });

  test('E-NS-IPV6-KEY subnet-56: two addresses of one /56 share a counter', async () => {
    const ref = await reference({ readings: { 'E-NS-IPV6-KEY': 'subnet-56' } });
    assert.equal((await ref.send({ xff: '2001:db8:0:1::1' })).status, 200);
    assert.equal((await ref.send({ xff: '2001:db8:0:2::2' })).status, 429);
    assert.equal((await ref.send({ xff: '2001:db8:0:100::1' })).status, 200);
  });

  test('E-NS-CLIENT-ID-FORMAT first-valid-ip: an entry that is not an address is skipped', async () => {
    const ref = await reference({ readings: { 'E-NS-CLIENT-ID-FORMAT': 'first-valid-ip' } });
    assert.equal((await ref.send({ xff: 'unknown, 203.0.113.7' })).status, 200);
    assert.equal((await ref.send({ xff: '203.0.113.7' })).status, 429);
  });

  test('E-NS-REPLY-TIME model-latency: an allowed reply takes the model\'s time; a 429 does not', async () => {
    const ref = await reference({ readings: { 'E-NS-REPLY-TIME': 'model-latency' } });
    const c = ref.fresh();
    const t0 = performance.now();
    assert.equal((await ref.send({ xff: c })).status, 200);
    assert.ok(performance.now() - t0 >= MODEL_LATENCY_MS - 5);
    const t1 = performance.now();
    assert.equal((await ref.send({ xff: c })).status, 429);
    assert.ok(performance.now() - t1 < MODEL_LATENCY_MS / 2);
  });

  test('every point in its first other reading at once: a valid request with the profile\'s extras is answered', async () => {
    const ref = await reference({ readings: Object.fromEntries(readings.map((p) => [p.point, p.readings[1].name])) });
    const r = await ref.send({ xff: ref.fresh(), path: `/api/chat?api-version=${READING_API_VERSION}`, headers: { Authorization: `Bearer ${READING_API_KEY}` } });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.ok(r.text.endsWith('data: [DONE]\n\n'));
  });

  test('a seeded fault still shows under a reading: invalid-json-500 with parse-first', async () => {
    const ref = await reference({ fault: 'invalid-json-500', readings: { 'E-NS-CHECK-ORDER': 'parse-first' } });
    assert.equal((await ref.send({ xff: ref.fresh(), raw: '{not json' })).status, 500);
  });
});
