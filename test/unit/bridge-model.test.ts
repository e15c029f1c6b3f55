/**
 * The bridge model (suites/game-bridge/model.ts) against the document's own tables, row by row: Interface C's
 * endpoint table, its error table and the log request table of 002_e31f548efc8ec0bb.txt. Written from the document,
 * not from the reference server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptable, blame, methodCaseFits, statusFits, writesLogLine, type BodyKind, type BridgePath, type KeyKind, type ModelCase } from '../../suites/game-bridge/model.ts';

const base = (over: Partial<ModelCase> = {}): ModelCase => ({ method: 'GET', path: '/v2/status', key: 'right', headerName: 'X-Auth-Key', body: 'absent', enabled: true, ...over });
const statuses = (c: ModelCase) => acceptable(c).map((o) => o.status).sort();
const only = (c: ModelCase) => {
  const a = acceptable(c);
  assert.equal(a.length, 1, JSON.stringify(a));
  return a[0];
};

test('endpoint table: each documented request with the right key is answered 200 with ok true', () => {
  // | POST | /v2/log | JSON body with message and level | 200 with ok true once handed to the logger |
  assert.deepEqual(only(base({ method: 'POST', path: '/v2/log', body: 'message' })), { status: 200, ok: true, requirement: 'C-LOG-200' });
  // | GET | /v2/status | none | 200 with ok true ... | and the rows of players and info
  for (const [path, requirement] of [['/v2/status', 'C-STATUS-200'], ['/v2/players', 'C-PLAYERS-200'], ['/v2/info', 'C-INFO-BRIDGE']] as const) {
    assert.deepEqual(only(base({ path })), { status: 200, ok: true, requirement });
  }
});

test('error table, 401 row: a missing or wrong key gives 401 unauthorized "Invalid X-Auth-Key", on every path', () => {
  const keys: KeyKind[] = ['missing', 'wrong', 'case-swapped', 'prefix', 'empty', 'appended'];
  for (const path of ['/v2/log', '/v2/status', '/v2/players', '/v2/info'] as BridgePath[]) {
    for (const key of keys) {
      const o = acceptable(base({ path, key, method: path === '/v2/log' ? 'POST' : 'GET', body: path === '/v2/log' ? 'message' : 'absent' }))[0];
      assert.equal(o.status, 401);
      assert.equal(o.error, 'unauthorized');
      assert.equal(o.message, 'Invalid X-Auth-Key');
    }
  }
});

test('error table, 405 row: a wrong method gives 405 method_not_allowed, "Use POST" only on /v2/log', () => {
  const log = only(base({ path: '/v2/log', method: 'GET', body: 'message' }));
  assert.deepEqual([log.status, log.error, log.message], [405, 'method_not_allowed', 'Use POST']);
  // "The 403 and 405 codes apply equally to /v2/status, /v2/players and /v2/info (405 when the method is not GET)."
  for (const path of ['/v2/status', '/v2/players', '/v2/info'] as BridgePath[]) {
    const o = only(base({ path, method: 'POST' }));
    assert.deepEqual([o.status, o.error, o.message], [405, 'method_not_allowed', undefined]);
  }
});

test('error table, 403 row: a switched-off endpoint gives 403 forbidden, "v2 log disabled" only on /v2/log', () => {
  const log = only(base({ path: '/v2/log', method: 'POST', body: 'message', enabled: false }));
  assert.deepEqual([log.status, log.error, log.message], [403, 'forbidden', 'v2 log disabled']);
  for (const path of ['/v2/status', '/v2/players', '/v2/info'] as BridgePath[]) {
    const o = only(base({ path, enabled: false }));
    assert.deepEqual([o.status, o.error, o.message], [403, 'forbidden', undefined]);
  }
});

test('error table, 400 row and the log request table: 400 only when message is absent entirely', () => {
  const log = (body: BodyKind) => acceptable(base({ path: '/v2/log', method: 'POST', body }));
  // "/v2/log body missing or without field message"
  for (const body of ['absent', 'no-message', 'not-json', 'not-object'] as BodyKind[]) {
    const [o] = log(body);
    assert.deepEqual([o.status, o.error, o.message], [400, 'bad_request', 'Missing field: message'], body);
  }
  // message present: an empty string, no level, any level, no Content-Type (only recommended): 200.
  for (const body of ['empty-message', 'message-no-level', 'message-any-level', 'message-no-content-type'] as BodyKind[]) {
    assert.deepEqual(log(body).map((o) => o.status), [200], body);
  }
  // "A 400 is returned only when message is absent entirely": a present message of another type is never a 400.
  const [notString] = log('message-not-string');
  assert.equal(statusFits(notString, 400), false);
  assert.equal(statusFits(notString, 500), false);
  assert.ok(statusFits(notString, 200) && statusFits(notString, 422));
});

test('the document orders no checks: where several errors apply, the answer of any one is right', () => {
  assert.deepEqual(statuses(base({ path: '/v2/status', key: 'wrong', method: 'POST', enabled: false })), [401, 403, 405]);
  // The log body's 400 may come first too (a bridge may read the body before it looks at the key).
  assert.deepEqual(statuses(base({ path: '/v2/log', method: 'POST', key: 'missing', body: 'no-message' })), [400, 401]);
});

test('HTTP field names are case-insensitive: a 401 to the right key under another spelling blames the header-name rule', () => {
  assert.deepEqual(blame(base({ headerName: 'x-auth-key' }), 401), ['C-AUTH-HEADER-CASE']);
  assert.deepEqual(blame(base({ headerName: 'X-Auth-Key' }), 401), ['C-STATUS-200']);
});

test('a log request a conforming bridge answers with a console line is a write; a refused one is not', () => {
  assert.equal(writesLogLine(base({ path: '/v2/log', method: 'POST', body: 'message' })), true);
  assert.equal(writesLogLine(base({ path: '/v2/log', method: 'POST', body: 'no-message' })), false);
  assert.equal(writesLogLine(base({ path: '/v2/log', method: 'POST', body: 'message', key: 'wrong' })), false);
});

test('methods are case-sensitive: "get" is refused somehow, never served, never a server error but 501', () => {
  for (const s of [400, 404, 405, 501]) assert.equal(methodCaseFits(s), true, String(s));
  for (const s of [200, 204, 302, 500]) assert.equal(methodCaseFits(s), false, String(s));
});
