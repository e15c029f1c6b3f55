import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerKind, mustBeRefused } from '../../harness/answers.ts';
import type { Reply } from '../../harness/http/client.ts';
import { Inconclusive, RequirementViolation } from '../../harness/verdicts.ts';

const reply = (status: number, type = 'application/json', label = 'a request'): Reply =>
  ({ status, headers: { 'content-type': type }, text: '', json: undefined, sentAt: 0, receivedAt: 0, exchange: { label } }) as unknown as Reply;
const ACCEPTED = { accepted: 'the same request made right was accepted' };

test('an answer is accepted, refused, throttled, a server error or not the API, by one rule', () => {
  assert.equal(answerKind(reply(200)), 'accepted');
  assert.equal(answerKind(reply(404)), 'refused');
  assert.equal(answerKind(reply(429)), 'throttled');
  assert.equal(answerKind(reply(503)), 'server-error');
  assert.equal(answerKind(reply(302)), 'not-the-api');
  // A login page where the API answers JSON is not the API, though it is a 200.
  assert.equal(answerKind(reply(200, 'text/html; charset=utf-8'), { json: true }), 'not-the-api');
});

test('a refusal beside an accepted control passes; beside a refused control it proves nothing', () => {
  assert.doesNotThrow(() => mustBeRefused('X-RULE', reply(401), 'without a token', { control: reply(200) }));
  assert.doesNotThrow(() => mustBeRefused('X-RULE', reply(401), 'without a token', { control: ACCEPTED }));
  assert.throws(() => mustBeRefused('X-RULE', reply(401), 'without a token', { control: reply(400, 'application/json', 'with the token (the control)') }), (e) => e instanceof Inconclusive && /control \(with the token \(the control\)\), answered 400/.test(e.message));
});

test('an acceptance, a redirect or a 5xx breaks the rule, whatever the control; a 5xx breaks GEN-NO-5XX too', () => {
  const broken = (r: Reply) => {
    try {
      mustBeRefused('X-RULE', r, 'without a token', { control: reply(400) });
    } catch (e) {
      return e instanceof RequirementViolation ? e.requirements : ['not a violation'];
    }
    return [];
  };
  assert.deepEqual(broken(reply(200)), ['X-RULE']);
  assert.deepEqual(broken(reply(302)), ['X-RULE']);
  assert.deepEqual(broken(reply(500)), ['X-RULE', 'X-GEN-NO-5XX']);
});

test('a 429 decides nothing, and a refusal of another status than the stated one breaks the rule', () => {
  assert.throws(() => mustBeRefused('X-RULE', reply(429), 'without a token', { control: reply(200) }), Inconclusive);
  assert.throws(() => mustBeRefused('X-RULE', reply(400), 'without a token', { control: reply(200), status: 401 }), RequirementViolation);
});
