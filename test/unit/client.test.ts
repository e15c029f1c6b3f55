import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, HarnessError, TargetError, closeAgents, targetUrl } from '../../harness/http/client.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import { loadSpec } from '../../harness/spec/load.ts';
import { Secrets } from '../../harness/secrets.ts';

const servers: Server[] = [];
after(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  await closeAgents();
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const s = createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

const client = (baseUrl: string, live: boolean, timeoutMs = 3000) =>
  new Client({ interfaceName: 'test', baseUrl, secrets: new Secrets(), timeoutMs, live, requestsPerSecond: 0 });

test('against a live target, a 429 the run did not provoke is waited out and the request sent again', async () => {
  let calls = 0;
  const url = await serve((_req, res) => {
    calls++;
    if (calls === 1) res.writeHead(429, { 'Retry-After': '1' }).end();
    else res.writeHead(200).end('{}');
  });
  const t0 = Date.now();
  const r = await client(url, true).send({ method: 'GET', path: '/' });
  assert.equal(r.status, 200);
  assert.equal(calls, 2);
  assert.ok(Date.now() - t0 >= 1000, 'waited the announced second');
});

test('a remembered session refused 401/403 is sent once more when the step finds it stale; a refusal for anything else stands', async () => {
  const valid = new Set(['fresh-2']);
  let calls = 0;
  const url = await serve((req, res) => {
    calls++;
    res.writeHead(valid.has(String(req.headers.authorization)) ? 200 : 403).end('{}');
  });
  let remembered: string | undefined = 'revoked-by-another-login';
  let stale = true;
  let logins = 0;
  const c = new Client({
    interfaceName: 'test', baseUrl: url, secrets: new Secrets(), timeoutMs: 3000, live: false, requestsPerSecond: 0,
    authenticate: (r) => {
      const token = remembered ?? `fresh-${++logins + 1}`;
      const renewSession = remembered ? async () => (stale ? ((remembered = undefined), true) : false) : undefined;
      return { ...r, headers: { Authorization: token }, ...(renewSession ? { renewSession } : {}) };
    },
  });
  const r = await c.send({ method: 'GET', path: '/', authenticate: true });
  assert.equal(r.status, 200, 'sent again after a fresh login');
  assert.equal(logins, 1);
  valid.clear();
  const again = await c.send({ method: 'GET', path: '/', authenticate: true });
  assert.equal(again.status, 403, 'a fresh session refused is not sent again');
  assert.equal(logins, 2);
  // A remembered session the step finds still good: the refusal was for something else (a nonce, a scope).
  remembered = 'still-good';
  stale = false;
  calls = 0;
  const kept = await c.send({ method: 'GET', path: '/', authenticate: true });
  assert.equal(kept.status, 403);
  assert.equal(calls, 1, 'not sent again');
});

test('a 429 provoked on purpose is returned as it is', async () => {
  const url = await serve((_req, res) => res.writeHead(429, { 'Retry-After': '1' }).end());
  const r = await client(url, true).send({ method: 'GET', path: '/', provokesLimit: true });
  assert.equal(r.status, 429);
});

test('a target that never answers fails with evidence after the time-out, and after three is given up at once', async () => {
  const url = await serve(() => {}); // accepts, never answers
  const c = client(url, true, 300);
  for (let i = 0; i < 3; i++) {
    await assert.rejects(c.send({ method: 'GET', path: '/' }), (e: unknown) => e instanceof TargetError && /no answer within 300 ms/.test(e.exchange.error ?? ''));
  }
  const t0 = Date.now();
  await assert.rejects(c.send({ method: 'GET', path: '/' }), (e: unknown) => e instanceof TargetError && /stopped answering/.test(e.message));
  assert.ok(Date.now() - t0 < 100, 'the fourth request is not sent');
});

test('a body dripped a byte at a time ends at the overall deadline, named as a slow body, though no gap between chunks is long', async () => {
  const url = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const body = '{"ok":true}';
    let i = 0;
    const drip = setInterval(() => (i < body.length ? res.write(body[i++]) : (clearInterval(drip), res.end())), 100);
    res.on('close', () => clearInterval(drip));
  });
  const t0 = Date.now();
  await assert.rejects(client(url, true, 400).send({ method: 'GET', path: '/v2/status' }), (e: unknown) => e instanceof TargetError && /answered 200, but the body did not finish within 400 ms/.test(e.exchange.error ?? ''));
  assert.ok(Date.now() - t0 < 1000, `ended at the deadline, not when the body did (${Date.now() - t0} ms)`);
});

test('an answer arriving just after the deadline is a time-out, and its closing escapes as no error', async () => {
  // After the exchange's deadline and before undici's own time-out (a time-out of its own, so an agent of its own): the
  // answer the harness no longer reads is closed.
  const url = await serve((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 1250);
  });
  const escaped: unknown[] = [];
  const onEscape = (e: unknown) => escaped.push(e);
  process.on('uncaughtException', onEscape);
  try {
    await assert.rejects(client(url, true, 1100).send({ method: 'GET', path: '/v2/status' }), (e: unknown) => e instanceof TargetError && /no answer within 1100 ms/.test(e.exchange.error ?? ''));
    await new Promise((resolve) => setTimeout(resolve, 1200));
  } finally {
    process.off('uncaughtException', onEscape);
  }
  assert.deepEqual(escaped.map(String), []);
});

test('header names are sent in the letter case given (HTTP allows any; a target may not)', async () => {
  let raw: string[] = [];
  const url = await serve((req, res) => {
    raw = req.rawHeaders;
    res.end();
  });
  await client(url, false).send({ method: 'GET', path: '/', headers: { 'x-AUTH-kEy': 'v' } });
  assert.ok(raw.includes('x-AUTH-kEy'));
});

test('a base URL with a path prefix keeps the prefix in every request', async () => {
  const seen: string[] = [];
  const url = await serve((req, res) => {
    seen.push(req.url ?? '');
    res.end();
  });
  const c = client(`${url}/gateway/`, false);
  await c.send({ method: 'GET', path: '/v2/status' });
  await c.send({ method: 'GET', path: '/v2/players?x=1' });
  assert.deepEqual(seen, ['/gateway/v2/status', '/gateway/v2/players?x=1']);
  assert.equal(targetUrl('http://h/trading-api', '/v1/x').toString(), 'http://h/trading-api/v1/x');
  assert.equal(targetUrl('http://h', '/v1/x').toString(), 'http://h/v1/x');
});

test('every path reaches the target and the evidence as new URL would make it, whether it is sent as it is or parsed', async () => {
  const seen: string[] = [];
  const url = await serve((req, res) => {
    seen.push(req.url ?? '');
    res.end();
  });
  const captured: string[] = [];
  const c = new Client({ interfaceName: 'test', baseUrl: `${url}/gw`, secrets: new Secrets(), timeoutMs: 2000, live: false, requestsPerSecond: 0, onExchange: (e) => captured.push(e.request.url) });
  // Plain paths go out as they are; the others (spaces, quotes, percent signs, dot segments, non-ASCII) through URL.
  const paths = ['/v2/players', '/v2/players?limit=5&cursor=a:b', '/a b', "/q?x='y'", '/a/%2e%2e/b', '/a/../b', '/a/./b?', '/ü', '/a?x=<1>', '/x?', '/'];
  for (const p of paths) await c.send({ method: 'GET', path: p });
  const expected = paths.map((p) => new URL(`${url}/gw${p}`));
  assert.deepEqual(seen, expected.map((u) => u.pathname + u.search));
  assert.deepEqual(captured, expected.map((u) => u.href));
});

test('a request undici refuses to build is the harness\'s error, never "the target did not answer"', async () => {
  const url = await serve((_req, res) => res.end());
  await assert.rejects(client(url, false).send({ method: 'GET', path: '/', headers: { 'x-bad': 'line\nbreak' } }), (e: unknown) => e instanceof HarnessError && !(e instanceof TargetError));
});

test('a reset connection is a target error with its exchange; stillAnswers asks the health request', async () => {
  const url = await serve((req, res) => (req.url === '/drop' ? req.socket.destroy() : res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')));
  const c = new Client({ interfaceName: 'test', baseUrl: url, secrets: new Secrets(), timeoutMs: 2000, live: false, requestsPerSecond: 0, health: { request: { method: 'GET', path: '/status' }, ok: (r) => r.status === 200 } });
  await assert.rejects(c.send({ method: 'POST', path: '/drop', body: 'null' }), (e: unknown) => e instanceof TargetError && e.kind === 'broken' && e.exchange.response === undefined);
  assert.equal(await c.stillAnswers(), true);
});

test('every 2xx to an operation the spec marks as a write is reported, whoever sent it', async () => {
  const url = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  const written: string[] = [];
  const c = new Client({ interfaceName: 'game-bridge', baseUrl: url, spec: loadSpec('game-bridge'), secrets: new Secrets(), timeoutMs: 2000, live: false, requestsPerSecond: 0, onWrite: (op) => written.push(op.key) });
  await c.send({ method: 'POST', path: '/v2/log', json: { message: 'x' } });
  await c.send({ method: 'GET', path: '/v2/status' });
  assert.deepEqual(written, ['POST /v2/log']);
});

test('a write that got no answer, or one neither accepted nor refused, is reported with what is known of it: its effect is unknown', async () => {
  const url = await serve((req, res) => (req.url === '/v2/log' && req.headers['x-drop'] ? req.socket.destroy() : res.writeHead(503, { 'content-type': 'text/html' }).end('<html>down</html>')));
  const written: string[] = [];
  const c = new Client({ interfaceName: 'game-bridge', baseUrl: url, spec: loadSpec('game-bridge'), secrets: new Secrets(), timeoutMs: 2000, live: false, requestsPerSecond: 0, onWrite: (op, _ex, kind) => written.push(`${op.key} ${kind}`) });
  await assert.rejects(c.send({ method: 'POST', path: '/v2/log', json: { message: 'x' }, headers: { 'x-drop': '1' } }), (e: unknown) => e instanceof TargetError);
  await c.send({ method: 'POST', path: '/v2/log', json: { message: 'x' } });
  assert.deepEqual(written, ['POST /v2/log no-answer', 'POST /v2/log server-error']);
});

test('an exception of the harness after the answer arrived (recording, validation) is a harness error with its stack, never a target error', async () => {
  const url = await serve((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}'));
  const c = new Client({
    interfaceName: 'test', baseUrl: url, secrets: new Secrets(), timeoutMs: 3000, live: false, requestsPerSecond: 0,
    onExchange: () => {
      throw new TypeError('injected: recording broke');
    },
  });
  const e = await c.send({ method: 'GET', path: '/' }).then(() => undefined, (x: unknown) => x);
  assert.ok(e instanceof HarnessError, `got ${String(e)}`);
  assert.ok(!(e instanceof TargetError));
  assert.match(e.message, /^harness error after GET .* was answered 200 \(not the target's doing\): TypeError: injected: recording broke\n\s+at /);
});

test('an operation that answers bad input 500 each time is not given up while it answers its control; one that answers nothing is', async () => {
  const health = { request: { method: 'GET', path: '/v2/status' }, ok: (r: { status: number }) => r.status === 200 };
  const bridge = (logAnswer: (body: string) => [number, string], o: { dark?: boolean } = {}) =>
    serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (req.url === '/v2/status') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        if (!req.headers['x-auth-key'] && !o.dark) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"ok":false,"error":"unauthorized","message":"Invalid X-Auth-Key"}');
        const [status, text] = logAnswer(body);
        res.writeHead(status, { 'content-type': 'application/json' }).end(text);
      });
    });
  const crashing = await bridge((body) => (body.startsWith('{"message"') && body.endsWith('}') ? [200, '{"ok":true}'] : [500, 'Internal Server Error']));
  const c = new Client({ interfaceName: 'game-bridge', baseUrl: crashing, spec: loadSpec('game-bridge'), secrets: new Secrets(), timeoutMs: 2000, live: false, requestsPerSecond: 0, health });
  const log = (body: string) => c.send({ method: 'POST', path: '/v2/log', headers: { 'x-auth-key': 'k', 'content-type': 'application/json' }, body });
  for (let i = 0; i < 5; i++) assert.equal((await log('{"message": ')).status, 500);
  // Its control (the request without its key) is refused 401: the operation answers, and is still asked.
  assert.equal((await log('{"message":"x"}')).status, 200);

  const dark = await bridge(() => [503, '<html>unavailable</html>'], { dark: true });
  const d = new Client({ interfaceName: 'game-bridge', baseUrl: dark, spec: loadSpec('game-bridge'), secrets: new Secrets(), timeoutMs: 2000, live: false, requestsPerSecond: 0, health });
  const darkLog = (body: string) => d.send({ method: 'POST', path: '/v2/log', headers: { 'x-auth-key': 'k', 'content-type': 'application/json' }, body });
  // Behind a balancer that answers the operation 503 whatever it is sent (its control too), it is given up.
  for (let i = 0; i < 3; i++) await darkLog('{"message":"x"}');
  await assert.rejects(darkLog('{"message":"x"}'), (e: unknown) => e instanceof TargetError && e.kind === 'given-up');
});

test('a 429 waited out whose request the API then answered is marked as hiding nothing; one answered 429 again is not', async () => {
  let calls = 0;
  const url = await serve((_req, res) => (++calls % 2 === 1 ? res.writeHead(429, { 'Retry-After': '0' }).end() : res.writeHead(200).end('{}')));
  const seen: Exchange[] = [];
  const c = new Client({ interfaceName: 'test', baseUrl: url, secrets: new Secrets(), timeoutMs: 3000, live: false, requestsPerSecond: 0, onExchange: (ex) => seen.push(ex) });
  assert.equal((await c.send({ method: 'GET', path: '/' })).status, 200);
  assert.deepEqual(seen.map((ex) => [ex.response?.status, Boolean(ex.waitedOut)]), [[429, true], [200, false]]);
  // A 429 the request did not provoke is no answer a response check holds to the spec, whatever its status documents.
  assert.match(seen[0].environment ?? '', /did not provoke/);
  assert.equal(seen[1].environment, undefined);
  const always = await serve((_req, res) => res.writeHead(429, { 'Retry-After': '0' }).end());
  const marks: boolean[] = [];
  const d = new Client({ interfaceName: 'test', baseUrl: always, secrets: new Secrets(), timeoutMs: 3000, live: false, requestsPerSecond: 0, onExchange: (ex) => marks.push(Boolean(ex.waitedOut)) });
  assert.equal((await d.send({ method: 'GET', path: '/' })).status, 429);
  assert.deepEqual(marks, [false, false]);
});

/** A client of the game-bridge spec, with its status read as the harmless request that says whether the target still answers. */
const bridgeClient = (url: string) =>
  new Client({ interfaceName: 'game-bridge', baseUrl: url, spec: loadSpec('game-bridge'), secrets: new Secrets(), timeoutMs: 2000, live: false, requestsPerSecond: 0, health: { request: { method: 'GET', path: '/v2/status' }, ok: () => true } });
const json = (res: import('node:http').ServerResponse, status: number) => res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');

test('a target that answers nothing but 503 is given up after three in a row and its harmless request: later requests are not sent, and say why', async () => {
  let seen = 0;
  const url = await serve((_req, res) => (seen++, json(res, 503)));
  const c = bridgeClient(url);
  for (let i = 0; i < 3; i++) assert.equal((await c.send({ method: 'GET', path: '/v2/players' })).kind, 'server-error');
  const before = seen;
  await assert.rejects(c.send({ method: 'GET', path: '/v2/info' }), (e: unknown) => e instanceof TargetError && e.kind === 'given-up' && /stopped answering: a server error \(5xx\) \d times in a row, and its harmless documented request \(GET \/v2\/status\) was not answered normally either/.test(e.message));
  assert.equal(seen, before, 'the fourth request is not sent');
});

test('one operation that keeps being throttled while the target answers its harmless request is given up alone', async () => {
  const url = await serve((req, res) => (req.url === '/v2/players' ? json(res, 429) : json(res, 200)));
  const c = bridgeClient(url);
  for (let i = 0; i < 3; i++) assert.equal((await c.send({ method: 'GET', path: '/v2/players' })).kind, 'throttled');
  await assert.rejects(c.send({ method: 'GET', path: '/v2/players' }), (e: unknown) => e instanceof TargetError && e.kind === 'given-up' && /GET \/v2\/players stopped answering: throttled \(429\) 3 times in a row, while the target answers other requests/.test(e.message));
  assert.equal((await c.send({ method: 'GET', path: '/v2/info' })).status, 200, 'the others are still asked');
});

test('a request that got no answer is evidence only while the same operation answers a control; a reset operation is not', async () => {
  const url = await serve((req, res) => {
    if (req.url === '/v2/players') return void req.socket.destroy();
    if (req.method === 'POST' && req.headers['content-length'] === '4') return void req.socket.destroy();
    json(res, req.method === 'POST' ? 400 : 200);
  });
  const c = bridgeClient(url);
  const unanswered = async (request: Parameters<Client['send']>[0]) => {
    try {
      await c.send(request);
    } catch (e) {
      return (e as TargetError).exchange;
    }
    throw new Error('answered');
  };
  // POST /v2/log drops the body null alone: the control (no credentials, no body) is answered, so the drop is the target's.
  assert.equal(await c.whyNotAnswering(await unanswered({ method: 'POST', path: '/v2/log', body: 'null' })), undefined);
  // GET /v2/players drops everything: its control is dropped too, so nothing can be told of it.
  assert.match((await c.whyNotAnswering(await unanswered({ method: 'GET', path: '/v2/players' }))) ?? '', /GET \/v2\/players does not answer a control either/);
});

test('a target that answers its harmless request and nothing else is given up whole after one trouble of each other operation', async () => {
  const url = await serve((req, res) => (req.url === '/v2/status' ? json(res, 200) : json(res, 429)));
  const c = bridgeClient(url);
  for (const request of [{ method: 'GET', path: '/v2/players' }, { method: 'GET', path: '/v2/info' }, { method: 'POST', path: '/v2/log', body: '{}' }] as const) {
    assert.equal((await c.send(request)).kind, 'throttled');
    // A check's own request to the probe's operation, answered: it shows only what the probe shows.
    if (request.method === 'GET') assert.equal((await c.send({ method: 'GET', path: '/v2/status' })).status, 200);
  }
  // The bridge's every operation but its status troubled in a row, and the last one's control too: the whole target
  // is given up, even its status.
  await assert.rejects(c.send({ method: 'GET', path: '/v2/status' }), (e: unknown) => e instanceof TargetError && e.kind === 'given-up' && /answers only its harmless documented request \(GET \/v2\/status\): 3 operations troubled in a row/.test(e.message));
});

test('an operation given up between answers of the API to other operations leaves the target asked', async () => {
  const url = await serve((req, res) => (req.url === '/v2/players' || req.url === '/v2/info' ? json(res, 429) : json(res, 200)));
  const c = bridgeClient(url);
  for (let i = 0; i < 3; i++) await c.send({ method: 'GET', path: '/v2/players' });
  assert.equal((await c.send({ method: 'POST', path: '/v2/log', body: '{}' })).status, 200, 'another operation answered');
  for (let i = 0; i < 3; i++) await c.send({ method: 'GET', path: '/v2/info' });
  assert.equal((await c.send({ method: 'POST', path: '/v2/log', body: '{}' })).status, 200, 'the target is not given up');
});

test('an interface whose only operation is its probe\'s has nothing else to go dark: one 429 of its limiter asks nothing and gives up nothing', async () => {
  let n = 0;
  const url = await serve((_req, res) => json(res, n++ === 0 ? 429 : 200));
  const c = new Client({ interfaceName: 'chat', baseUrl: url, spec: loadSpec('chat'), secrets: new Secrets(), timeoutMs: 2000, live: false, requestsPerSecond: 0, health: { request: { method: 'POST', path: '/api/chat', json: { messages: [] } }, ok: () => true } });
  assert.equal((await c.send({ method: 'POST', path: '/api/chat', json: { messages: [] } })).kind, 'throttled');
  assert.equal((await c.send({ method: 'POST', path: '/api/chat', json: { messages: [] } })).status, 200);
  assert.equal(n, 2, 'no health request was asked');
});

test('a target that redirects every bad input is not taken for dark: a redirect is no sign of a target gone dark', async () => {
  const url = await serve((req, res) => {
    if (req.url === '/v2/status' || req.url === '/v2/players') return json(res, 200);
    res.writeHead(302, { location: '/error.html' }).end();
  });
  const c = bridgeClient(url);
  assert.equal((await c.send({ method: 'GET', path: '/v2/players' })).status, 200);
  for (const request of [{ method: 'GET', path: '/v2/players?odd=1' }, { method: 'GET', path: '/v2/info?odd=1' }, { method: 'POST', path: '/v2/log', body: '{' }] as const) {
    assert.equal((await c.send(request)).kind, 'not-the-api');
  }
  assert.equal((await c.send({ method: 'GET', path: '/v2/players' })).status, 200, 'the target is still asked');
});
