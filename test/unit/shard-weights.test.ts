import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shardWeights } from '../../harness/shard-weights.ts';

const tests = (spec: Record<string, number>) => Object.entries(spec).flatMap(([interfaceName, n]) => Array.from({ length: n }, () => ({ interfaceName })));

test('shards get equal shares of the planned time, not of the test count', () => {
  // 10 quick tests and 2 slow ones: by count 6 + 6; by time the slow ones go apart.
  const weights = shardWeights(tests({ quick: 10, slow: 2 }), (i) => (i === 'slow' ? 100_000 : 1_000), 2);
  assert.deepEqual(weights, [11, 1]);
  assert.equal(weights.reduce((a, b) => a + b, 0), 12);
});

test('every shard keeps at least one test, and the counts add up to the run', () => {
  for (const shards of [1, 2, 3, 5]) {
    const w = shardWeights(tests({ a: 3, b: 4, c: 1 }), (i) => ({ a: 50_000, b: 1_000, c: 90_000 })[i]!, shards);
    assert.equal(w.length, shards);
    assert.equal(w.reduce((x, y) => x + y, 0), 8);
    assert.ok(w.every((n) => n >= 1), String(w));
  }
});
