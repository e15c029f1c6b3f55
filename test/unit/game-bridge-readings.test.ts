/**
 * The game-bridge reference (mocks/game-bridge/) in the readings of its open points (specs/game-bridge.yaml,
 * x-not-shown; catalogue mocks/game-bridge/readings.ts): its default answers stay as they were, each other reading is
 * shown taking effect with one request (started the way --readings starts it: the reading's reference options and
 * settings patch, and the point -> reading map), every reading of the catalogue is one of the spec's, and the
 * reference starts and serves with every point in its first other reading at once.
 */
import { after, describe, test } from 'node:test';
import { answerOf, type Answer } from '../support/answer.ts';
import assert from 'node:assert/strict';
import net from 'node:net';
import { readings } from '../../mocks/game-bridge/readings.ts';
import { start, type BridgeSettings, type StartOptions } from '../../mocks/game-bridge/server.ts';
import { loadSpec } from '../../harness/spec/load.ts';

const KEY = 'bridge-key-1';
const key = { 'x-auth-key': KEY };
const BASE: BridgeSettings = { maxList: 50, endpoints: { log: true, status: true, players: true, info: true }, platform: 'paper', onlinePlayers: 12 };

const running: Array<{ close(): Promise<void> }> = [];
after(async () => {
  await Promise.all(running.map((r) => r.close()));
});

type Asked = Readonly<Record<string, string>>;

/** The reference started as --readings starts it: each reading's reference options and settings, and the map itself. */
async function reference(asked: Asked = {}, o: { settings?: Partial<BridgeSettings>; fault?: string } = {}) {
  let settings: BridgeSettings = { ...BASE, ...o.settings };
  let options: NonNullable<StartOptions['reference']> = {};
  for (const [point, name] of Object.entries(asked)) {
    const r = readings.find((p) => p.point === point)?.readings.find((x) => x.name === name) as { reference?: object; settings?: object } | undefined;
    assert.ok(r, `${point}=${name} is in the catalogue`);
    options = { ...options, ...r.reference };
    settings = { ...settings, ...r.settings } as BridgeSettings;
  }
  const server = await start({ settings, reference: { ...options, readings: asked }, secrets: { authKey: KEY }, fault: o.fault, port: 0 });
  running.push(server);
  return server.url;
}


async function call(base: string, method: string, path: string, o: { headers?: Record<string, string>; raw?: string; body?: unknown } = {}): Promise<Answer> {
  const text = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  const res = await fetch(base + path, { method, headers: { ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers }, body: text, redirect: 'manual' });
  return answerOf(res);
}

/** A request written on a socket as it is (fetch would upper-case "get"); resolves to the raw answer. */
function raw(base: string, request: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    let out = '';
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

test('every reading of the catalogue is one of the spec\'s, the first of each point its first', () => {
  const spec = loadSpec('game-bridge');
  for (const p of readings) {
    const point = spec.notShown.find((n) => n.id === p.point);
    assert.ok(point, `${p.point} is an open point of the spec`);
    assert.equal(p.readings[0].name, point.readings?.[0]?.id, `${p.point}: the default comes first`);
    for (const r of p.readings) assert.ok(point.readings?.some((x) => x.id === r.name), `${p.point}: ${r.name} is a reading of the spec`);
  }
});

describe('the default readings', () => {
  test('answer as the reference always did', async () => {
    const url = await reference();
    const status = await call(url, 'GET', '/v2/status', { headers: key });
    assert.equal(status.status, 200);
    assert.deepEqual(status.json, { ok: true });
    assert.equal(status.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual((await call(url, 'GET', '/v2/tps', { headers: key })).json, { ok: true, tps: [20, 20, 20] });
    const unknown = await call(url, 'GET', '/v2/nothing');
    assert.equal(unknown.status, 401);
    assert.deepEqual((await call(url, 'GET', '/v2/nothing', { headers: key })).json, { ok: false, error: 'not_found', message: 'Not found' });
    const head = await call(url, 'HEAD', '/v2/status', { headers: key });
    assert.equal(head.status, 405);
    assert.equal(head.headers.get('allow'), 'GET');
    assert.equal((await call(url, 'OPTIONS', '/v2/log', { headers: key })).status, 405);
    assert.deepEqual((await call(url, 'DELETE', '/v2/players', { headers: key })).json, { ok: false, error: 'method_not_allowed', message: 'Use GET' });
    assert.equal((await call(url, 'POST', '/v2/log', { headers: { ...key, 'content-type': 'text/plain' }, raw: '{"message":"m"}' })).status, 200);
    assert.equal((await call(url, 'POST', '/v2/log', { headers: key, raw: '{"message":"m"}' })).status, 200);
    assert.deepEqual((await call(url, 'POST', '/v2/log', { headers: key, raw: '{oops' })).json, { ok: false, error: 'bad_request', message: 'Missing field: message' });
    assert.deepEqual((await call(url, 'POST', '/v2/log', { headers: key, body: { message: 5, level: 7 } })).json, { ok: true });
    assert.equal((await call(url, 'POST', '/v2/log', { headers: key, body: { message: 'x'.repeat(200_000) } })).status, 200);
    const players = await call(url, 'GET', '/v2/players', { headers: key });
    assert.deepEqual(Object.keys(players.json), ['ok', 'count', 'players']);
    assert.equal(players.json.players[3], 'Player004');
    assert.deepEqual((await call(url, 'GET', '/v2/info', { headers: key })).json, { ok: true, bridge: { version: '2.0.0', platform: 'paper', game: '1.21.4' } });
    assert.equal((await call(url, 'GET', '/v2/status/', { headers: key })).status, 404);
    assert.match(await raw(url, 'get /v2/status HTTP/1.1\r\nHost: x\r\nX-Auth-Key: bridge-key-1\r\n\r\n'), /^HTTP\/1\.1 400 /);
  });

  test('a seeded fault still shows (a lowercase method served as GET)', async () => {
    const url = await reference({}, { fault: 'method-case-insensitive' });
    assert.match(await raw(url, 'get /v2/status HTTP/1.1\r\nHost: x\r\nX-Auth-Key: bridge-key-1\r\nConnection: close\r\n\r\n'), /^HTTP\/1\.1 200 /);
  });
});

describe('each other reading takes effect', () => {
  test('C-NS-TPS', async () => {
    assert.deepEqual((await call(await reference({ 'C-NS-TPS': 'single-value' }), 'GET', '/v2/tps', { headers: key })).json, { ok: true, tps: 20 });
    const off = await call(await reference({ 'C-NS-TPS': 'switched-off' }), 'GET', '/v2/tps', { headers: key });
    assert.equal(off.status, 403);
    assert.equal(off.json.error, 'forbidden');
  });

  test('C-NS-CHECK-ORDER', async () => {
    const off = { endpoints: { ...BASE.endpoints, players: false } };
    assert.equal((await call(await reference({ 'C-NS-CHECK-ORDER': 'enabled-method-auth' }, { settings: off }), 'GET', '/v2/players')).status, 403);
    assert.equal((await call(await reference({ 'C-NS-CHECK-ORDER': 'method-auth-enabled' }), 'DELETE', '/v2/status')).status, 405);
    assert.equal((await call(await reference({ 'C-NS-CHECK-ORDER': 'body-first' }), 'POST', '/v2/log', { body: {} })).status, 400);
  });

  test('C-NS-CONTENT-TYPE', async () => {
    const plain = { headers: { ...key, 'content-type': 'text/plain' }, raw: '{"message":"m"}' };
    assert.equal((await call(await reference({ 'C-NS-CONTENT-TYPE': 'other-type-unparsed' }), 'POST', '/v2/log', plain)).json.message, 'Missing field: message');
    assert.equal((await call(await reference({ 'C-NS-CONTENT-TYPE': 'other-type-415' }), 'POST', '/v2/log', plain)).status, 415);
    const required = await reference({ 'C-NS-CONTENT-TYPE': 'json-type-required' });
    assert.equal((await call(required, 'POST', '/v2/log', { headers: key, raw: '{"message":"m"}' })).status, 400);
    assert.equal((await call(required, 'POST', '/v2/log', { headers: key, body: { message: 'm' } })).status, 200);
  });

  test('C-NS-MESSAGE-TEXTS', async () => {
    const url = await reference({ 'C-NS-MESSAGE-TEXTS': 'generic-texts' });
    assert.equal((await call(url, 'DELETE', '/v2/status', { headers: key })).json.message, 'Method not allowed');
    assert.equal((await call(url, 'GET', '/v2/log', { headers: key })).json.message, 'Use POST');
  });

  test('C-NS-MESSAGE-TYPE and C-NS-LEVEL-TYPE', async () => {
    assert.equal((await call(await reference({ 'C-NS-MESSAGE-TYPE': 'refused-422' }), 'POST', '/v2/log', { headers: key, body: { message: 5 } })).status, 422);
    assert.equal((await call(await reference({ 'C-NS-LEVEL-TYPE': 'refused-422' }), 'POST', '/v2/log', { headers: key, body: { message: 'm', level: 5 } })).status, 422);
  });

  test('C-NS-METHOD-CASE', async () => {
    const request = 'get /v2/status HTTP/1.1\r\nHost: x\r\nX-Auth-Key: bridge-key-1\r\n\r\n';
    const refused = await raw(await reference({ 'C-NS-METHOD-CASE': 'method-not-allowed-405' }), request);
    assert.match(refused, /^HTTP\/1\.1 405 /);
    assert.match(refused, /"error":"method_not_allowed"/);
    // The bridge's checks run in their order: the key first.
    assert.match(await raw(await reference({ 'C-NS-METHOD-CASE': 'method-not-allowed-405' }), 'get /v2/status HTTP/1.1\r\nHost: x\r\n\r\n'), /^HTTP\/1\.1 401 /);
    assert.match(await raw(await reference({ 'C-NS-METHOD-CASE': 'not-implemented-501' }), request), /^HTTP\/1\.1 501 /);
  });

  test('C-NS-UNKNOWN-PATHS', async () => {
    assert.equal((await call(await reference({ 'C-NS-UNKNOWN-PATHS': 'not-found-before-key' }), 'GET', '/v2/nothing')).json.error, 'not_found');
    const page = await call(await reference({ 'C-NS-UNKNOWN-PATHS': 'framework-404' }), 'GET', '/v2/nothing');
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  });

  test('C-NS-PLAYER-ORDER', async () => {
    const url = await reference({ 'C-NS-PLAYER-ORDER': 'unordered' });
    const first = (await call(url, 'GET', '/v2/players', { headers: key })).json.players;
    const second = (await call(url, 'GET', '/v2/players', { headers: key })).json.players;
    assert.deepEqual([...first].sort(), [...second].sort());
    assert.notDeepEqual(first, second);
  });

  test('C-NS-PLATFORMS (a settings patch)', async () => {
    assert.equal((await call(await reference({ 'C-NS-PLATFORMS': 'velocity' }), 'GET', '/v2/info', { headers: key })).json.bridge.platform, 'velocity');
  });

  test('C-NS-RATE-LIMITS (a reference option)', async () => {
    const url = await reference({ 'C-NS-RATE-LIMITS': 'per-client-429' });
    // 220 at once: on a loaded machine they may spread over more than the limit's second, so up to five tries.
    let limited: Awaited<ReturnType<typeof call>>[] = [];
    for (let i = 0; i < 5 && limited.length < 10; i++) {
      const answers = await Promise.all(Array.from({ length: 220 }, () => call(url, 'GET', '/v2/status', { headers: key })));
      limited = answers.filter((a) => a.status === 429);
    }
    assert.ok(limited.length >= 10, `${limited.length} of 220 requests in a second limited`);
    assert.ok(Number(limited[0].headers.get('retry-after')) >= 1);
  });

  test('C-NS-HEAD, C-NS-OPTIONS and C-NS-ALLOW-HEADER', async () => {
    const head = await call(await reference({ 'C-NS-HEAD': 'head-as-get' }), 'HEAD', '/v2/players', { headers: key });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    const options = await call(await reference({ 'C-NS-OPTIONS': 'options-204-before-key' }), 'OPTIONS', '/v2/log');
    assert.equal(options.status, 204);
    assert.equal(options.headers.get('allow'), 'POST, OPTIONS');
    const refused = await call(await reference({ 'C-NS-ALLOW-HEADER': 'no-allow-header' }), 'PUT', '/v2/info', { headers: key });
    assert.equal(refused.status, 405);
    assert.equal(refused.headers.get('allow'), null);
  });

  test('C-NS-SUCCESS-MEMBERS and C-NS-ERROR-MEMBERS', async () => {
    assert.equal((await call(await reference({ 'C-NS-SUCCESS-MEMBERS': 'extra-members' }), 'GET', '/v2/players', { headers: key })).json.maxPlayers, 100);
    const refused = await call(await reference({ 'C-NS-ERROR-MEMBERS': 'status-path-timestamp' }), 'GET', '/v2/status');
    assert.equal(refused.status, 401);
    assert.equal(refused.json.status, 401);
    assert.equal(refused.json.path, '/v2/status');
  });

  test('C-NS-PLAYER-NAMES and C-NS-VERSION-STRINGS', async () => {
    assert.equal((await call(await reference({ 'C-NS-PLAYER-NAMES': 'display-names' }), 'GET', '/v2/players', { headers: key })).json.players[3], '[VIP] Player004');
    assert.equal((await call(await reference({ 'C-NS-VERSION-STRINGS': 'build-strings' }), 'GET', '/v2/info', { headers: key })).json.bridge.game, '1.21.4-R0.1-SNAPSHOT');
  });

  test('C-NS-MALFORMED-BODY and C-NS-BODY-LIMIT', async () => {
    const malformed = await call(await reference({ 'C-NS-MALFORMED-BODY': 'invalid-json-message' }), 'POST', '/v2/log', { headers: key, raw: '{oops' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.json.message, 'Invalid JSON body');
    assert.equal((await call(await reference({ 'C-NS-BODY-LIMIT': 'limit-100kb-413' }), 'POST', '/v2/log', { headers: key, body: { message: 'x'.repeat(200_000) } })).status, 413);
  });

  test('C-NS-EXTRA-INPUT (a settings patch of extras)', async () => {
    const url = await reference({ 'C-NS-EXTRA-INPUT': 'server-parameter' });
    assert.equal((await call(url, 'GET', '/v2/players', { headers: key })).status, 400);
    assert.equal((await call(url, 'GET', '/v2/players?server=lobby', { headers: key })).status, 200);
  });

  test('C-NS-TRAILING-SLASH', async () => {
    assert.equal((await call(await reference({ 'C-NS-TRAILING-SLASH': 'same-route' }), 'GET', '/v2/status/', { headers: key })).status, 200);
    const moved = await call(await reference({ 'C-NS-TRAILING-SLASH': 'redirect-to-canonical' }), 'GET', '/v2/status/?a=1', { headers: key });
    assert.equal(moved.status, 301);
    assert.equal(moved.headers.get('location'), '/v2/status?a=1');
  });

  test('C-NS-RESPONSE-MEDIA-TYPE', async () => {
    assert.equal((await call(await reference({ 'C-NS-RESPONSE-MEDIA-TYPE': 'json-without-charset' }), 'GET', '/v2/status', { headers: key })).headers.get('content-type'), 'application/json');
  });
});

test('every point in its first other reading at once: the reference starts and serves the documented requests', async () => {
  const url = await reference(Object.fromEntries(readings.map((p) => [p.point, p.readings[1].name])));
  assert.deepEqual((await call(url, 'GET', '/v2/status', { headers: key })).json, { ok: true });
  assert.equal((await call(url, 'POST', '/v2/log', { headers: key, body: { message: 'm', level: 'warn' } })).status, 200);
  assert.equal((await call(url, 'GET', '/v2/players?server=lobby', { headers: key })).json.count, 12);
  assert.equal((await call(url, 'GET', '/v2/info', { headers: key })).json.bridge.platform, 'velocity');
});
