/**
 * A failure says why in the harness's own words: expect's messages become "expected X, found Y", and the request that
 * broke the rule becomes a curl line a person can paste, with credentials as the environment variables that hold them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { expect } from '@playwright/test';
import { inOwnWords, messageOf } from '../../harness/classify.ts';
import { curlOf } from '../../harness/http/curl.ts';

function thrown(f: () => void): string {
  try {
    f();
  } catch (e) {
    return messageOf(e);
  }
  throw new Error('did not throw');
}

test("expect's messages in the harness's own words", () => {
  assert.equal(inOwnWords(thrown(() => expect(404).toBe(200))), 'expected 200, found 404');
  assert.equal(inOwnWords(thrown(() => expect(404, 'GET /v2/status answers 200').toBe(200))), 'GET /v2/status answers 200: expected 200, found 404');
  assert.equal(inOwnWords(thrown(() => expect([1, 2]).toHaveLength(3))), 'expected 3, found 2');
  assert.doesNotMatch(inOwnWords(thrown(() => expect('abc').toMatch(/x/))), /expect\(received\)/);
  assert.equal(inOwnWords('a sentence of the check'), 'a sentence of the check');
});

test('a curl line: credentials as their variables, quotes escaped, derived values left as placeholders and said', () => {
  const plain = curlOf({ request: { method: 'POST', url: 'http://127.0.0.1:9/v2/log', headers: [['X-Auth-Key', '{{secret:authKey}}'], ['content-length', '18']], body: `{"message":"it's"}` } }, { authKey: 'BRIDGE_AUTH_KEY' });
  assert.equal(plain.signed, false);
  assert.equal(plain.line, `curl -sS -i -X POST 'http://127.0.0.1:9/v2/log' -H 'X-Auth-Key: '"$BRIDGE_AUTH_KEY" --data-raw '{"message":"it'\\''s"}'`);
  // The shell reads it back as the request was: the body's quote survives, the variable is filled in.
  const argv = execFileSync('bash', ['-c', `f() { printf '%s\\n' "$@"; }; BRIDGE_AUTH_KEY=k123; ${plain.line.replace(/^curl/, 'f')}`], { encoding: 'utf8' }).split('\n');
  assert.ok(argv.includes('X-Auth-Key: k123'), argv.join('|'));
  assert.ok(argv.includes(`{"message":"it's"}`), argv.join('|'));
  const signed = curlOf({ request: { method: 'GET', url: 'http://h/x', headers: [['Authorization', 'Bearer {{secret:key1|session}}']] } }, {});
  assert.equal(signed.signed, true);
  assert.match(signed.line, /\{\{secret:key1\|session\}\}/);
});
