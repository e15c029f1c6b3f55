import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accepted, answerKind, answered, mustAccept, mustAnswer, mustBeRefused, needAccepted, readState, Undecided } from '../../harness/answers.ts';
import type { Reply } from '../../harness/http/client.ts';
import { Inconclusive, NotTested, RequirementViolation } from '../../harness/verdicts.ts';

const reply = (status: number, type = 'application/json', label = 'a request'): Reply =>
  ({ status, headers: { 'content-type': type, ...(status === 429 ? { 'retry-after': '1' } : {}) }, text: '', json: undefined, sentAt: 0, receivedAt: 0, exchange: { label, operation: 'GET /orders' } }) as unknown as Reply;
const ACCEPTED = { accepted: 'the same request made right was accepted' };
/** What decides nothing about a rule: thrown as Undecided (inconclusive), whatever the helper. */
const TROUBLE = [429, 500, 503, 302];
const undecidedBy = (kind: string) => (e: unknown) => e instanceof Undecided && e instanceof Inconclusive && e.kind === kind && /GET \/orders/.test(e.message);

test('an answer is accepted, refused, throttled, a server error or not the API, by one rule', () => {
  assert.equal(answerKind(reply(200)), 'accepted');
  assert.equal(answerKind(reply(404)), 'refused');
  assert.equal(answerKind(reply(429)), 'throttled');
  assert.equal(answerKind(reply(503)), 'server-error');
  assert.equal(answerKind(reply(302)), 'not-the-api');
  // A login page where the API answers JSON is not the API, though it is a 200.
  assert.equal(answerKind(reply(200, 'text/html; charset=utf-8'), { json: true }), 'not-the-api');
  // The client works the kind out once, with the operation's media type: that is what helpers read.
  assert.equal(answerKind({ ...reply(200), kind: 'not-the-api' }), 'not-the-api');
});

test('a refusal beside an accepted control passes; beside a refused control it proves nothing', () => {
  assert.doesNotThrow(() => mustBeRefused('X-RULE', reply(401), 'without a token', { control: reply(200) }));
  assert.doesNotThrow(() => mustBeRefused('X-RULE', reply(401), 'without a token', { control: ACCEPTED }));
  assert.throws(() => mustBeRefused('X-RULE', reply(401), 'without a token', { control: reply(400, 'application/json', 'with the token (the control)') }), (e) => e instanceof Inconclusive && /control \(with the token \(the control\)\) was answered 400/.test(e.message));
  // A throttled control proves nothing either.
  assert.throws(() => mustBeRefused('X-RULE', reply(401), 'without a token', { control: reply(429) }), Inconclusive);
});

test('an acceptance breaks a refusal rule; a throttle, a server error or a redirect decides nothing about it', () => {
  assert.throws(() => mustBeRefused('X-RULE', reply(200), 'without a token', { control: reply(200) }), (e) => e instanceof RequirementViolation && e.requirements.join() === 'X-RULE');
  assert.throws(() => mustBeRefused('X-RULE', reply(429), 'without a token', { control: reply(200) }), undecidedBy('throttled'));
  assert.throws(() => mustBeRefused('X-RULE', reply(500), 'without a token', { control: reply(200) }), undecidedBy('server-error'));
  assert.throws(() => mustBeRefused('X-RULE', reply(302), 'without a token', { control: reply(200) }), undecidedBy('not-the-api'));
  assert.throws(() => mustBeRefused('X-RULE', reply(400), 'without a token', { control: reply(200), status: 401 }), RequirementViolation);
  // Another status beside a refused control is no wrong status of this rule's refusal: it may be another refusal.
  assert.throws(() => mustBeRefused('X-RULE', reply(403), 'without a token', { control: reply(403), status: 401 }), (e) => e instanceof Inconclusive && !(e instanceof RequirementViolation));
});

test('every helper throws what decides nothing before it reads a status', () => {
  for (const status of TROUBLE) {
    const kind = answerKind(reply(status));
    assert.throws(() => accepted(reply(status)), undecidedBy(kind), `accepted ${status}`);
    assert.throws(() => answered(reply(status), 404), undecidedBy(kind), `answered ${status}`);
    assert.throws(() => mustAccept(reply(status), 'the order'), undecidedBy(kind), `mustAccept ${status}`);
    assert.throws(() => mustAnswer(reply(status), 409, 'the order'), undecidedBy(kind), `mustAnswer ${status}`);
    assert.throws(() => needAccepted(reply(status), 'the order'), undecidedBy(kind), `needAccepted ${status}`);
    assert.throws(() => readState(reply(status), 'the order', { notFound: () => true }), undecidedBy(kind), `readState ${status}`);
  }
});

test('a rule that needs an acceptance is broken by a refusal; a step that needs one is left undecided by it', () => {
  assert.throws(() => mustAccept(reply(403), 'the cancel'), (e) => e instanceof RequirementViolation && e.requirements.length === 0);
  assert.throws(() => mustAccept(reply(403), 'the cancel', { rule: 'X-CANCEL' }), (e) => e instanceof RequirementViolation && e.requirements.join() === 'X-CANCEL');
  assert.throws(() => needAccepted(reply(403), 'the order to cancel'), (e) => e instanceof Inconclusive && !(e instanceof Undecided));
  assert.throws(() => needAccepted(reply(403), 'the order to cancel', { untested: true }), NotTested);
  assert.doesNotThrow(() => mustAnswer(reply(202), [200, 202], 'the scan'));
  assert.throws(() => mustAnswer(reply(400), [200, 202], 'the scan'), RequirementViolation);
});

test('a state read is absent only on a 2xx saying so or on the document\'s own not-found answer', () => {
  assert.deepEqual(readState(reply(200), 'the order', {}), { state: 'present' });
  assert.deepEqual(readState(reply(200), 'the order', { absentIn: () => true }), { state: 'absent' });
  assert.deepEqual(readState(reply(400), 'the order', { notFound: (r) => r.status === 400 }), { state: 'absent' });
  assert.equal(readState(reply(403), 'the order', { notFound: (r) => r.status === 400 }).state, 'unknown');
});

test('a refusal of another status than the stated one breaks the rule only beside an accepted control', () => {
  assert.throws(() => mustBeRefused('X-RULE', reply(403), 'without a token', { control: reply(400), status: 401 }), (e) => e instanceof Inconclusive && !(e instanceof RequirementViolation));
  assert.throws(() => mustBeRefused('X-RULE', reply(403), 'without a token', { control: reply(200), status: 401 }), RequirementViolation);
});
