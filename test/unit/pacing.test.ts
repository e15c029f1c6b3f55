import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pacer } from '../../harness/http/pacing.ts';

test('5 waits at 50 per second take at least ~80 ms (4 gaps of 20 ms)', async () => {
  const pacer = new Pacer(50);
  const start = performance.now();
  for (let i = 0; i < 5; i++) await pacer.wait();
  const elapsed = performance.now() - start;
  // setTimeout may fire a little early relative to Date.now(); 75 leaves room for that, not for a missing wait.
  assert.ok(elapsed >= 75, `took ${elapsed.toFixed(1)} ms`);
  assert.ok(elapsed < 1000, `took ${elapsed.toFixed(1)} ms`);
});

test('concurrent waiters take successive slots', async () => {
  const pacer = new Pacer(50);
  const start = performance.now();
  const done: number[] = [];
  await Promise.all(Array.from({ length: 5 }, () => pacer.wait().then(() => done.push(performance.now() - start))));
  done.sort((a, b) => a - b);
  assert.ok(done[4] >= 75, `last slot at ${done[4].toFixed(1)} ms`);
  assert.ok(done[0] < 20, `first slot at ${done[0].toFixed(1)} ms`);
});

test('rate 0 (unpaced) does not wait', async () => {
  for (const rate of [0, -1, Number.NaN]) {
    const pacer = new Pacer(rate);
    const start = performance.now();
    for (let i = 0; i < 100; i++) await pacer.wait();
    const elapsed = performance.now() - start;
    assert.ok(elapsed < 30, `rate ${rate}: took ${elapsed.toFixed(1)} ms`);
  }
});

test('the first wait of a fresh pacer does not wait', async () => {
  const pacer = new Pacer(1);
  const start = performance.now();
  await pacer.wait();
  assert.ok(performance.now() - start < 30);
});

test('identities go on where a replaced worker stopped: no address or name is used twice in a run', async () => {
  const first_ = await import('../../harness/identity.ts');
  const { freshAddress, freshName, forgetIdentities } = first_;
  const run = `unit-${process.pid}-${Date.now()}`;
  const previous = process.env.HARNESS_RUN_ID;
  process.env.HARNESS_RUN_ID = run;
  try {
    const first = [freshAddress(0), freshAddress(0), freshName('customer', 0)];
    // A new worker process of the same run: the module's memory is gone, the run's files are not.
    const again = (await import(new URL('../../harness/identity.ts?worker=2', import.meta.url).href)) as typeof first_;
    assert.notEqual(again, first_, 'a module instance of its own, as in a new worker');
    const second = [again.freshAddress(0), again.freshAddress(0), again.freshName('customer', 0)];
    assert.equal(new Set([...first, ...second]).size, 6, JSON.stringify([first, second]));
    assert.match(first[0], /^198\.1[89]\.\d+\.\d+$/);
  } finally {
    forgetIdentities(run);
    if (previous === undefined) delete process.env.HARNESS_RUN_ID;
    else process.env.HARNESS_RUN_ID = previous;
  }
});
