import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inlineStatusTests } from '../../harness/lint/inline-status.ts';

const lint = (source: string) => inlineStatusTests('x.ts', source).map((t) => t.text);

test('a status range compared inline is found, wherever the status comes from', () => {
  assert.deepEqual(lint('if (r.status >= 400 && r.status < 500) refused();'), ['r.status >= 400', 'r.status < 500']);
  assert.deepEqual(lint('const ok = 300 > reply.status;'), ['300 > reply.status']);
  assert.deepEqual(lint('const ok = (status) < 300;'), ['(status) < 300']);
  assert.deepEqual(lint('const cls = Math.floor(control.status / 100);'), ['control.status / 100']);
  assert.deepEqual(lint("if (String(r.status).startsWith('4')) x();"), ["String(r.status).startsWith('4')"]);
});

test('one status compared, two statuses compared, a status switched on or listed: each is found', () => {
  assert.deepEqual(lint('if (r.status === 409 || r.status !== 200) x();'), ['r.status === 409', 'r.status !== 200']);
  assert.deepEqual(lint('if (unknown.status === tps.status) x();'), ['unknown.status === tps.status']);
  assert.deepEqual(lint('switch (reply.status) { case 401: a(); break; case 403: b(); }'), ['401', '403']);
  assert.deepEqual(lint('if ([200, 202].includes(r.status)) x();'), ['[200, 202].includes(r.status)']);
});

test('an acceptance negated is found, in every spelling', () => {
  assert.deepEqual(lint('if (!isAccepted(r)) x();'), ['!isAccepted(r)']);
  assert.deepEqual(lint('if (!isRefused(r) && ok) x();'), ['!isRefused(r)']);
  assert.deepEqual(lint("if (answerKind(r) !== 'accepted') x();"), ["answerKind(r) !== 'accepted'"]);
  assert.deepEqual(lint('if (isAccepted(r) === false) x();'), ['isAccepted(r) === false']);
});

test('numbers that are not statuses, members named status that hold words, and the helpers are left alone', () => {
  assert.deepEqual(lint('if (items.length >= 400 || attempts < 500) x();'), []);
  assert.deepEqual(lint('if (r.status > limit) x();'), []);
  assert.deepEqual(lint("if (order.status !== 'live' && typeof status !== 'string') x();"), []);
  assert.deepEqual(lint("if (answered(r, 409) || accepted(r) || answerKind(r) === 'refused') x();"), []);
});
