/**
 * A-LOGIN-WHITELIST against a live target (suites/exchange-session/whitelist.ts): a whitelist-excluded key's refusal
 * counts only where the target answers it otherwise than the same login signed with a secret nobody has, before and
 * after it. The document shows no error codes, so nothing else tells a refusal for the address from a wrong
 * credential of ours (issue 43: a mistyped secret passed the rule).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Reply } from '../../harness/http/client.ts';
import { Undecided } from '../../harness/answers.ts';
import { excludedKeyRefusal } from '../../suites/exchange-session/whitelist.ts';

const answer = (status: number, label: string): Reply =>
  ({ status, headers: { 'content-type': 'application/json' }, text: '{}', json: {}, exchange: { label, request: { method: 'GET', url: 'http://t/trading-api/v1/users/hmac/login', headers: [] }, requestPath: '/trading-api/v1/users/hmac/login', startedAt: 0, durationMs: 1 } }) as unknown as Reply;
const own = (status: number) => answer(status, 'HMAC login with key3, whose whitelist leaves this machine out');
const wrong = (status: number) => answer(status, 'HMAC login with key3, signed with a secret nobody has');

test('the key\'s own refusal answered otherwise than a wrong signature (403 beside 401, 401): it counts', () => {
  assert.deepEqual(excludedKeyRefusal(own(403), [wrong(401), wrong(401)], 'key3'), { counts: true });
});

test('answered as a wrong signature is (a mistyped secret, a target that answers every refused login alike): inconclusive, saying why', () => {
  const r = excludedKeyRefusal(own(401), [wrong(401), wrong(401)], 'key3');
  assert.equal(r.counts, false);
  assert.match(!r.counts ? r.why : '', /answers them alike/);
  // The address checked first: every login of the key is refused for it, whatever its signature.
  assert.equal(excludedKeyRefusal(own(403), [wrong(403), wrong(403)], 'key3').counts, false);
});

test('the wrong signature answered differently before and after (a lockout, a limit): no answer of it tells anything apart', () => {
  const r = excludedKeyRefusal(own(403), [wrong(401), wrong(423)], 'key3');
  assert.equal(r.counts, false);
  assert.match(!r.counts ? r.why : '', /answers to it change/);
});

test('a throttle or a server error among them decides nothing: thrown as Undecided, never read as a refusal', () => {
  assert.throws(() => excludedKeyRefusal(own(429), [wrong(401), wrong(401)], 'key3'), Undecided);
  assert.throws(() => excludedKeyRefusal(own(403), [wrong(503), wrong(401)], 'key3'), Undecided);
});
