import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSpec } from '../../harness/spec/load.ts';
import { checkResponse, precompile, type ResponseToCheck } from '../../harness/validation/responses.ts';

const bridge = loadSpec('game-bridge');
const chat = loadSpec('chat');
const JSON_CT = { 'content-type': 'application/json; charset=utf-8' };

function players(over: Partial<ResponseToCheck> = {}): ResponseToCheck {
  return { method: 'GET', path: '/v2/players', status: 200, headers: JSON_CT, body: JSON.stringify({ ok: true, count: 2, players: ['Alex', 'Steve'] }), ...over };
}

function limited(headers: Record<string, string | string[] | undefined>, body: unknown = { error: 'Too Many Requests', message: 'Demasiadas solicitudes', retryAfter: 3 }): ResponseToCheck {
  return { method: 'POST', path: '/api/chat', status: 429, headers: { ...JSON_CT, ...headers }, body: JSON.stringify(body) };
}

const clean = { schema: [], contentType: [], headers: [], documented: true };
/** The verdict of a check, without the list of checks it could apply. */
const judged = ({ applied: _applied, ...rest }: ReturnType<typeof checkResponse>) => rest;

test('precompile compiles every documented response schema', () => {
  precompile(bridge);
  precompile(chat);
});

test('a documented response that fits passes', () => {
  assert.deepEqual(judged(checkResponse(bridge, players())), clean);
  assert.deepEqual(judged(checkResponse(bridge, players({ body: JSON.stringify({ ok: true, count: 0, players: [] }) }))), clean);
  assert.deepEqual(judged(checkResponse(chat, limited({ 'retry-after': '3', 'x-ratelimit-remaining': '0' }))), clean);
  // A response documented through components/responses ($ref) is checked against the referenced schema.
  const unauthorized = { ok: false, error: 'unauthorized', message: 'Invalid X-Auth-Key' };
  assert.deepEqual(judged(checkResponse(bridge, { method: 'GET', path: '/v2/status', status: 401, headers: JSON_CT, body: JSON.stringify(unauthorized) })), clean);
  // The chat's 200 documents no content: nothing is judged about it.
  assert.deepEqual(judged(checkResponse(chat, { method: 'POST', path: '/api/chat', status: 200, headers: { 'content-type': 'text/event-stream' }, body: 'data: hi' })), clean);
});

test('a member of the wrong type is a schema problem', () => {
  const r = checkResponse(bridge, players({ body: JSON.stringify({ ok: true, count: '2', players: ['Alex', 'Steve'] }) }));
  assert.equal(r.documented, true);
  assert.equal(r.schema.length, 1);
  assert.match(r.schema[0], /^GET \/v2\/players 200: .*count.*must be integer/);
  assert.deepEqual([r.contentType, r.headers], [[], []]);

  const nested = checkResponse(bridge, players({ body: JSON.stringify({ ok: true, count: 1, players: [7] }) }));
  assert.match(nested.schema.join(), /players\/0.*must be string/);
});

test('a missing required member is a schema problem', () => {
  const r = checkResponse(bridge, players({ body: JSON.stringify({ ok: true, count: 2 }) }));
  assert.equal(r.schema.length, 1);
  assert.match(r.schema[0], /must have required property 'players'/);
  assert.deepEqual([r.contentType, r.headers], [[], []]);

  // $ref'd schema: the 401 body from components/responses.
  const u = checkResponse(bridge, { method: 'POST', path: '/v2/log', status: 401, headers: JSON_CT, body: JSON.stringify({ ok: false, error: 'unauthorized' }) });
  assert.match(u.schema.join(), /must have required property 'message'/);
});

test('other schema problems: an extra member where none is allowed, a body that is not JSON', () => {
  const extra = checkResponse(bridge, { method: 'GET', path: '/v2/status', status: 200, headers: JSON_CT, body: JSON.stringify({ ok: true, uptime: 5 }) });
  assert.match(extra.schema.join(), /must NOT have additional properties/);
  const notJson = checkResponse(bridge, players({ body: '<html>' }));
  assert.match(notJson.schema.join(), /body is not JSON/);
  assert.deepEqual(notJson.contentType, []);
});

test('a wrong or missing content type is a content-type problem, not a schema one', () => {
  const r = checkResponse(bridge, players({ headers: { 'content-type': 'text/plain' } }));
  assert.deepEqual(r.schema, []);
  assert.equal(r.contentType.length, 1);
  assert.match(r.contentType[0], /content type "text\/plain", documented application\/json/);

  const missing = checkResponse(bridge, players({ headers: {} }));
  assert.match(missing.contentType.join(), /content type missing/);
  // Parameters and letter case do not matter.
  assert.deepEqual(checkResponse(bridge, players({ headers: { 'content-type': 'Application/JSON ; charset=UTF-8' } })).contentType, []);
});

test('a missing required header, or a header of the wrong value, is a header problem', () => {
  const r = checkResponse(chat, limited({ 'x-ratelimit-remaining': '0' }));
  assert.deepEqual(r.schema, []);
  assert.deepEqual(r.contentType, []);
  assert.equal(r.headers.length, 1);
  assert.match(r.headers[0], /^POST \/api\/chat 429: header retry-after is missing/);

  const wrong = checkResponse(chat, limited({ 'retry-after': 'soon', 'x-ratelimit-remaining': '1' }));
  assert.equal(wrong.headers.length, 2);
  assert.match(wrong.headers.join('\n'), /retry-after: "soon"/);
  assert.match(wrong.headers.join('\n'), /x-ratelimit-remaining: "1"/);
  // Numbers on the wire are strings: an integer header is compared as a number, and a repeated one by its first value.
  assert.deepEqual(checkResponse(chat, limited({ 'retry-after': ['2', '9'], 'x-ratelimit-remaining': '0' })).headers, []);
});

test('an undocumented status, method or path is not judged', () => {
  assert.deepEqual(checkResponse(bridge, players({ status: 500, headers: { 'content-type': 'text/html' }, body: 'oops' })), { ...clean, documented: false });
  assert.deepEqual(checkResponse(chat, { method: 'POST', path: '/api/chat', status: 400, headers: {}, body: '' }), { ...clean, documented: false });
  assert.deepEqual(checkResponse(bridge, players({ method: 'DELETE' })), { ...clean, documented: false });
  assert.deepEqual(checkResponse(bridge, players({ path: '/v2/tps' })), { ...clean, documented: false });
});

test('a check made before is remembered only for the same operation, status, headers and body', () => {
  // The same body with a documented header now missing, now wrong, now right: three different verdicts.
  const missing = checkResponse(chat, limited({}));
  const wrong = checkResponse(chat, limited({ 'retry-after': 'soon', 'x-ratelimit-remaining': '0' }));
  const right = checkResponse(chat, limited({ 'retry-after': '3', 'x-ratelimit-remaining': '0' }));
  assert.ok(missing.headers.length > 0 && wrong.headers.length > 0);
  assert.notDeepEqual(missing.headers, wrong.headers);
  assert.deepEqual(right.headers, []);
  // Another content type, the same body: judged again.
  assert.ok(checkResponse(chat, limited({ 'content-type': 'text/plain', 'retry-after': '3', 'x-ratelimit-remaining': '0' })).contentType.length > 0);
  // The same body and headers again: the same verdict.
  assert.deepEqual(checkResponse(chat, limited({ 'retry-after': 'soon', 'x-ratelimit-remaining': '0' })), wrong);
});

test('a documented JSON body may come as a +json media type; other types do not fit', async () => {
  const { mediaTypeFits } = await import('../../harness/validation/responses.ts');
  assert.ok(mediaTypeFits('application/json', ['application/json']));
  assert.ok(mediaTypeFits('application/problem+json', ['application/json']));
  assert.ok(mediaTypeFits('text/csv', ['application/json', 'text/csv']));
  assert.ok(!mediaTypeFits('text/plain', ['application/json']));
  assert.ok(!mediaTypeFits('application/problem+json', ['text/csv']));
});
