import assert from 'node:assert/strict';
import { test } from 'node:test';
import { faultSwitch } from '../../mocks/plumbing.ts';

const catalogue = [
  { name: 'one', description: 'd', violates: ['X-A'] },
  { name: 'two', description: 'd', violates: ['X-B'] },
  { name: 'three', description: 'd', violates: ['X-C'] },
] as const;

test('a reference takes one seeded fault, or several joined by "+", and refuses a name its catalogue does not have', () => {
  const none = faultSwitch(catalogue, 'x', undefined);
  assert.equal(none('one'), false);
  const one = faultSwitch(catalogue, 'x', 'two');
  assert.deepEqual([one('one'), one('two'), one('three')], [false, true, false]);
  const two = faultSwitch(catalogue, 'x', 'one+three');
  assert.deepEqual([two('one'), two('two'), two('three')], [true, false, true]);
  assert.throws(() => faultSwitch(catalogue, 'x', 'one+four'), /unknown x fault "four"/);
});
