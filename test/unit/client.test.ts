import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, TargetError, closeAgents } from '../../harness/http/client.ts';
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

test('header names are sent in the letter case given (HTTP allows any; a target may not)', async () => {
  let raw: string[] = [];
  const url = await serve((req, res) => {
    raw = req.rawHeaders;
    res.end();
  });
  await client(url, false).send({ method: 'GET', path: '/', headers: { 'x-AUTH-kEy': 'v' } });
  assert.ok(raw.includes('x-AUTH-kEy'));
});
