/**
 * A status the spec documents (chat's 429) is held to the spec wherever it shows, unless the suite told it apart as its
 * environment's (a gateway's 429 in front of the chat endpoint, Exchange.environment): then no response check fails on
 * it, and the test that met it does not pass them on the rest.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Exchange } from '../../harness/http/exchange.ts';
import { Recorder } from '../../harness/recorder.ts';
import { recordGenericResponseChecks } from '../../harness/response-checks.ts';
import { Secrets } from '../../harness/secrets.ts';
import { loadSpec } from '../../harness/spec/load.ts';

const gateways429 = (environment?: string): Exchange =>
  ({
    operation: 'POST /api/chat',
    request: { method: 'POST', url: 'http://chat/api/chat', headers: [] },
    response: { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: '{"message":"API rate limit exceeded"}' },
    problems: { schema: ["POST /api/chat 429: body must have required property 'error'"], contentType: [], headers: ['POST /api/chat 429: header x-ratelimit-remaining is missing'] },
    checked: { schema: true, contentType: true, headers: true },
    startedAt: 0,
    durationMs: 1,
    ...(environment ? { environment } : {}),
  }) as Exchange;

const verdicts = (ex: Exchange) => {
  const spec = loadSpec('chat');
  const tags = ['@E-GEN-SCHEMA', '@E-GEN-HEADERS'];
  const recorder = new Recorder(spec, tags, new Secrets());
  recorder.exchanges.push(ex);
  recordGenericResponseChecks(spec, recorder, tags);
  return Object.fromEntries(recorder.verdicts.map((v) => [v.id, v.status]));
};

test("a documented 429 is held to the spec; one the suite took for its environment's is not, and withholds the pass", () => {
  assert.deepEqual(verdicts(gateways429()), { 'E-GEN-SCHEMA': 'failed', 'E-GEN-HEADERS': 'failed' });
  const v = verdicts(gateways429("a 429 to a fresh client's first request, unlike the limiter's own"));
  assert.notEqual(v['E-GEN-SCHEMA'], 'failed');
  assert.notEqual(v['E-GEN-HEADERS'], 'failed');
  assert.notEqual(v['E-GEN-SCHEMA'], 'passed');
});

test("a condition not seen after trouble names the trouble itself, not only how many it left undecided", () => {
  const recorder = new Recorder(loadSpec('chat'), ['@E-GEN-SCHEMA', '@E-GEN-HEADERS'], new Secrets());
  recorder.record('E-GEN-SCHEMA', 'inconclusive', "the environment's trouble left 3 undecided:\nthe target stopped answering: 3 timeouts in a row\nanother");
  recorder.record('E-GEN-HEADERS', 'not-tested', 'no header seen');
  const [, headers] = recorder.verdicts;
  assert.equal(headers.status, 'inconclusive');
  assert.match(headers.message ?? '', /left 3 undecided: the target stopped answering: 3 timeouts in a row\)$/);
});
