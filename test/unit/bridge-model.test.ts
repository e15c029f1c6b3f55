/**
 * The bridge model (suites/game-bridge/model.ts) against the document's own tables, row by row: Interface C's
 * endpoint table, its error table and the log request table of 002_e31f548efc8ec0bb.txt. Written from the document,
 * not from the reference server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Undecided } from '../../harness/answers.ts';
import type { Reply } from '../../harness/http/client.ts';
import { acceptable, blame, fits, methodCaseFits, writesLogLine, type BodyKind, type BridgePath, type KeyKind, type ModelCase, type Outcome } from '../../suites/game-bridge/model.ts';

/** An answer of the bridge with this status, as the client hands it to the model. */
const answer = (status: number): Reply => ({ status, headers: { 'content-type': 'application/json' }, text: '', exchange: { label: 'a case', operation: 'GET /v2/status' } }) as unknown as Reply;
/** Whether an outcome allows an answer of this status; undefined where the answer is no answer of the bridge (thrown). */
const statusFits = (o: Outcome, status: number): boolean | undefined => {
  try {
    return fits(o, answer(status));
  } catch (e) {
    if (e instanceof Undecided) return undefined;
    throw e;
  }
};
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
  // (With the profile's extras stated: what GET /v2/players needs beyond the document, if anything, is known.)
  for (const [path, requirement] of [['/v2/status', 'C-STATUS-200'], ['/v2/players', 'C-PLAYERS-200'], ['/v2/info', 'C-INFO-BRIDGE']] as const) {
    assert.deepEqual(only(base({ path, stated: { extras: true } })), { status: 200, ok: true, requirement });
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
  for (const body of ['absent', 'no-message'] as BodyKind[]) {
    const [o] = log(body);
    assert.deepEqual([o.status, o.error, o.message], [400, 'bad_request', 'Missing field: message'], body);
  }
  // A body that cannot be parsed has no field message either; whether it gets that text is open (C-NS-MALFORMED-BODY).
  for (const body of ['not-json', 'not-object'] as BodyKind[]) {
    const [o] = log(body);
    assert.deepEqual([o.status, o.error, o.message, o.requirement], [400, 'bad_request', undefined, 'C-LOG-NOT-JSON'], body);
  }
  // message present: an empty string, no level, any level: 200.
  for (const body of ['empty-message', 'message-no-level', 'message-any-level'] as BodyKind[]) {
    assert.deepEqual(log(body).map((o) => o.status), [200], body);
  }
  // "A 400 is returned only when message is absent entirely": a present message of another type is never a 400.
  const [notString] = log('message-not-string');
  assert.equal(statusFits(notString, 400), false);
  // A 5xx is no answer of the bridge: it decides nothing here (GEN-NO-5XX judges it wherever it shows).
  assert.equal(statusFits(notString, 500), undefined);
  assert.ok(statusFits(notString, 200) && statusFits(notString, 422));
});

test('the document orders no checks: where several errors apply, the answer of any one is right', () => {
  assert.deepEqual(statuses(base({ path: '/v2/status', key: 'wrong', method: 'POST', enabled: false })), [401, 403, 405]);
  // The log body's 400 may come first too (a bridge may read the body before it looks at the key).
  assert.deepEqual(statuses(base({ path: '/v2/log', method: 'POST', key: 'missing', body: 'no-message' })), [400, 401]);
  // So may the refusal a typed body gives a message that is not a string (C-NS-MESSAGE-TYPE), proving nothing of it;
  // never a 400, nor a refusal the table gives another meaning.
  const typed = acceptable(base({ path: '/v2/log', method: 'POST', key: 'wrong', body: 'message-not-string' }));
  const fitting = (status: number) => typed.find((o) => statusFits(o, status));
  assert.equal(fitting(401)?.requirement, 'C-AUTH-401');
  assert.ok(fitting(422)?.open);
  for (const status of [200, 400, 403, 404, 405]) assert.equal(fitting(status), undefined, String(status));
  // Not for a read: a query parameter is not checked before the key.
  assert.deepEqual(statuses(base({ path: '/v2/players', key: 'wrong' })), [401]);
});

test('a JSON body without Content-Type: read, unless the profile states the deployment reads only bodies labelled JSON', () => {
  const noType = (stated: ModelCase['stated']) => acceptable(base({ path: '/v2/log', method: 'POST', body: 'message-no-content-type', stated }));
  // Stated either way, the target is held to it.
  assert.deepEqual(noType({ logRequiresContentType: false }), [{ status: 200, ok: true, requirement: 'C-LOG-CONTENT-TYPE-OPTIONAL' }]);
  const [missing] = noType({ logRequiresContentType: true });
  assert.deepEqual([missing.status, missing.message, missing.requirement, missing.open], [400, 'Missing field: message', 'C-LOG-400-MISSING', undefined]);
  // Not stated: a body left unread (C-NS-CONTENT-TYPE json-type-required) is accepted, and proves nothing.
  const [read, unread] = noType(undefined);
  assert.deepEqual([read.status, read.open], [200, undefined]);
  assert.deepEqual([unread.status, unread.message, unread.requirement], [400, 'Missing field: message', 'C-LOG-CONTENT-TYPE-OPTIONAL']);
  assert.match(unread.open ?? '', /settings\.logRequiresContentType/);
  assert.deepEqual(blame(base({ path: '/v2/log', method: 'POST', body: 'message-no-content-type' }), answer(415)), ['C-LOG-CONTENT-TYPE-OPTIONAL', 'C-LOG-CONTENT-TYPE-OPTIONAL']);
});

test('GET /v2/players needs nothing but the key, unless the profile states extras; where it does not, a refusal proves nothing', () => {
  const players = (stated: ModelCase['stated']) => acceptable(base({ path: '/v2/players', stated }));
  assert.deepEqual(players({ extras: true }).map((o) => o.status), [200]);
  const open = players(undefined).find((o) => statusFits(o, 400));
  assert.match(open?.open ?? '', /settings\.extras/);
  assert.ok(players(undefined).find((o) => statusFits(o, 422))?.open);
  for (const status of [401, 403, 404, 405]) assert.equal(players(undefined).find((o) => statusFits(o, status)), undefined, String(status));
});

test('HTTP field names are case-insensitive: a 401 to the right key under another spelling blames the header-name rule', () => {
  assert.deepEqual(blame(base({ headerName: 'x-auth-key' }), answer(401)), ['C-AUTH-HEADER-CASE']);
  assert.deepEqual(blame(base({ headerName: 'X-Auth-Key' }), answer(401)), ['C-STATUS-200']);
});

test('a log request a conforming bridge answers with a console line is a write; a refused one is not', () => {
  assert.equal(writesLogLine(base({ path: '/v2/log', method: 'POST', body: 'message' })), true);
  assert.equal(writesLogLine(base({ path: '/v2/log', method: 'POST', body: 'no-message' })), false);
  assert.equal(writesLogLine(base({ path: '/v2/log', method: 'POST', body: 'message', key: 'wrong' })), false);
});

test('methods are case-sensitive: "get" is refused somehow, never served, never a server error but 501', () => {
  for (const s of [400, 404, 405, 501]) assert.equal(methodCaseFits(answer(s)), true, String(s));
  for (const s of [200, 204]) assert.equal(methodCaseFits(answer(s)), false, String(s));
  // Another server error, a throttle or a redirect is no answer of the bridge: it decides nothing (thrown).
  for (const s of [500, 429, 302]) assert.throws(() => methodCaseFits(answer(s)), Undecided, String(s));
});

test('what is no answer of the bridge decides nothing, whatever the case expected: a throttle, a 5xx, a redirect, a login page', () => {
  const cases: ModelCase[] = [base(), base({ key: 'wrong' }), base({ path: '/v2/log', method: 'POST', body: 'not-json' }), base({ path: '/v2/players', enabled: false })];
  for (const c of cases) {
    for (const status of [429, 500, 503, 302]) {
      for (const o of acceptable(c)) assert.throws(() => fits(o, answer(status)), Undecided, `${JSON.stringify(c)} ${status}`);
      assert.throws(() => blame(c, answer(status)), Undecided, `blame ${status}`);
    }
  }
  const page = { ...answer(200), kind: 'not-the-api', headers: { 'content-type': 'text/html' } } as Reply;
  assert.throws(() => fits(acceptable(base())[0], page), Undecided);
});

test('a switched-off endpoint answered 404 (a page of the framework, say) breaks the disabled rule alone', () => {
  const off = base({ path: '/v2/players', enabled: false });
  const page = { ...answer(404), headers: { 'content-type': 'text/html; charset=utf-8' } } as Reply;
  assert.equal(acceptable(off).some((o) => fits(o, page)), false);
  assert.deepEqual(blame(off, page), ['C-DISABLED-403']);
});
