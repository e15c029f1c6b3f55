import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockOf, forgetIdentities, freshAddress, shardShare } from '../../harness/identity.ts';
import { parseShard } from '../../harness/options.ts';

/** Runs `f` as a process of the given shard (or of an unsplit run) of a run of its own. */
async function asShard<T>(shard: string | undefined, f: () => T | Promise<T>): Promise<T> {
  const saved = { shard: process.env.HARNESS_SHARD, run: process.env.HARNESS_RUN_ID };
  if (shard) process.env.HARNESS_SHARD = shard;
  else delete process.env.HARNESS_SHARD;
  process.env.HARNESS_RUN_ID = `unit-${(shard ?? 'unsplit').replace('/', 'of')}-${process.pid}-${Date.now()}`;
  try {
    return await f();
  } finally {
    forgetIdentities();
    if (saved.shard === undefined) delete process.env.HARNESS_SHARD;
    else process.env.HARNESS_SHARD = saved.shard;
    if (saved.run === undefined) delete process.env.HARNESS_RUN_ID;
    else process.env.HARNESS_RUN_ID = saved.run;
  }
}

test('--shard takes I/N with 1 <= I <= N, and nothing else', () => {
  assert.deepEqual(parseShard('2/4'), { current: 2, total: 4 });
  for (const bad of ['0/2', '3/2', '2', 'a/b', '1/0', '-1/2']) assert.throws(() => parseShard(bad), /give I\/N/, bad);
});

test('shards of one run running at once never count with one identity: their workers take different blocks', async () => {
  const blocks = new Set<number>();
  for (const shard of ['1/3', '2/3', '3/3']) {
    for (const worker of [0, 1, 2]) blocks.add(await asShard(shard, () => blockOf(worker)));
  }
  assert.equal(blocks.size, 9);
  assert.equal(await asShard(undefined, () => blockOf(1)), 1, 'an unsplit run keeps one block per worker');
});

test("the client addresses of two shards' first workers are apart", async () => {
  const a = await asShard('1/2', () => Array.from({ length: 50 }, () => freshAddress(0)));
  const b = await asShard('2/2', () => Array.from({ length: 50 }, () => freshAddress(0)));
  assert.equal(new Set([...a, ...b]).size, 100);
});

test('against a live target, a shard leases only its share of a pool (shards on other machines cannot see its lease files)', async () => {
  const pool = [0, 1, 2, 3, 4];
  assert.deepEqual(await asShard('1/2', () => shardShare(pool)), [0, 2, 4]);
  assert.deepEqual(await asShard('2/2', () => shardShare(pool)), [1, 3]);
  assert.deepEqual(await asShard('2/2', () => shardShare([0])), [], 'a pool of one is the first shard\'s');
  assert.deepEqual(await asShard(undefined, () => shardShare(pool)), pool);
});

test("the profile's request rate is the whole run's: split between the workers and the shards", async () => {
  const { rateShareOf } = await import('../../harness/http/client-for.ts');
  assert.equal(rateShareOf(1, undefined), 1);
  assert.equal(rateShareOf(2, undefined), 1 / 2);
  assert.equal(rateShareOf(2, { current: 2, total: 3 }), 1 / 6);
  assert.equal(rateShareOf(0, { current: 1, total: 3 }), 1 / 3);
});
