/**
 * Shards split by time, not by test count (issue 22): Playwright cuts the run's ordered tests into contiguous runs,
 * as many per shard as its weights say (PWTEST_SHARD_WEIGHTS, or the runner's `shardWeights`). By count, a shard of
 * quick reads took 7.8 s and one of rate-limit windows 24.3 s. The weights here are the test counts that give each
 * shard an equal share of the planned time, each test planned at its interface's planned work spread over its tests.
 * Planned, not measured: every shard must compute the same cuts on its own, from what it is given alike.
 */

/** A test as the listing orders it, with the interface whose planned work it shares. */
export interface ListedTest {
  interfaceName: string;
}

/** The test counts per shard, in shard order, that split the planned time most evenly; they sum to the tests. */
export function shardWeights(tests: readonly ListedTest[], plannedMsOf: (interfaceName: string) => number, shards: number): number[] {
  const perInterface = new Map<string, number>();
  for (const t of tests) perInterface.set(t.interfaceName, (perInterface.get(t.interfaceName) ?? 0) + 1);
  const cost = tests.map((t) => Math.max(1, plannedMsOf(t.interfaceName)) / perInterface.get(t.interfaceName)!);
  const total = cost.reduce((a, b) => a + b, 0);
  const counts: number[] = [];
  let taken = 0;
  let spent = 0;
  for (let k = 1; k < shards; k++) {
    // The cut after which the time spent is nearest k shares of the total, leaving at least a test for each shard after.
    const goal = (total * k) / shards;
    let end = taken;
    let at = spent;
    while (end < tests.length - (shards - k) && Math.abs(at + cost[end]! - goal) <= Math.abs(at - goal)) at += cost[end++]!;
    counts.push(end - taken);
    taken = end;
    spent = at;
  }
  counts.push(tests.length - taken);
  return counts;
}
