/**
 * 501 Not Implemented to a method no operation of the interface has: RFC 9110 (15.6.2) makes it the server's refusal
 * of a method it does not recognise, so a check that sent one may read it so, and GEN-NO-5XX does not fail on it. Any
 * other 5xx stays a server error (a bridge that answers "get /v2/status" 501 is correct; one that answers GET 501 is not).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { methodNotImplemented, Undecided } from '../../harness/answers.ts';
import type { Reply } from '../../harness/http/client.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import { Recorder } from '../../harness/recorder.ts';
import { recordGenericResponseChecks } from '../../harness/response-checks.ts';
import { Secrets } from '../../harness/secrets.ts';
import { loadSpec } from '../../harness/spec/load.ts';

const exchange = (method: string, path: string, status: number, operation?: string): Exchange =>
  ({ label: `${method} ${path}`, operation, request: { method, url: `http://bridge${path}`, headers: [] }, requestPath: path, response: { status, headers: {}, body: '' }, startedAt: 0, durationMs: 1 }) as unknown as Exchange;
const reply = (status: number, method = 'get'): Reply => ({ status, headers: {}, text: '', exchange: exchange(method, '/v2/status', status) }) as unknown as Reply;

test('a check that sent an unknown method reads 501 as its refusal; other answers as ever', () => {
  assert.equal(methodNotImplemented(reply(501)), true);
  assert.equal(methodNotImplemented(reply(400)), false);
  assert.equal(methodNotImplemented(reply(200)), false);
  for (const status of [429, 500, 503]) assert.throws(() => methodNotImplemented(reply(status)), Undecided, String(status));
});

test('GEN-NO-5XX: a 501 to a method no operation has is no server error; a 501 to a served method is', () => {
  const spec = loadSpec('game-bridge');
  const failedWith = (ex: Exchange) => {
    const recorder = new Recorder(spec, [], new Secrets());
    recorder.exchanges.push(ex);
    recordGenericResponseChecks(spec, recorder, []);
    return recorder.verdicts.filter((v) => v.id === 'C-GEN-NO-5XX' && v.status === 'failed').length;
  };
  assert.equal(failedWith(exchange('get', '/v2/status', 501)), 0);
  assert.equal(failedWith(exchange('Get', '/v2/players', 501)), 0);
  assert.equal(failedWith(exchange('GET', '/v2/status', 501, 'GET /v2/status')), 1);
  assert.equal(failedWith(exchange('get', '/v2/status', 500)), 1);
});
