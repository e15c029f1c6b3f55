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

test('one status the document names, and numbers that are not statuses, are left alone', () => {
  assert.deepEqual(lint('if (r.status === 409 || r.status !== 200) x();'), []);
  assert.deepEqual(lint('if (items.length >= 400 || attempts < 500) x();'), []);
  assert.deepEqual(lint('if (r.status > limit) x();'), []);
});
