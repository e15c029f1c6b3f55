/**
 * The profile's requestsPerSecond is the whole run's: a run split into three shards against one live target keeps to
 * it in total, as an unsplit run does (each shard paces at its share). A recording proxy in front of the bridge
 * reference counts the requests of every second.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { start as startBridge } from '../../mocks/game-bridge/server.ts';
import { BRIDGE_SETTINGS, conformance, liveProfile, startProxy, type Proxy } from './helpers.ts';

const RATE = 40;
const KEY = 'shard-rate-bridge-key-0123456789';
let bridge: Awaited<ReturnType<typeof startBridge>>;
let proxy: Proxy;
const at: number[] = [];

before(async () => {
  bridge = await startBridge({ settings: BRIDGE_SETTINGS, reference: {}, secrets: { authKey: KEY }, port: 0, host: '127.0.0.1' });
  proxy = await startProxy(bridge.url, (_req, forward) => {
    at.push(Date.now());
    return forward();
  });
});
after(async () => {
  await proxy.close();
  await bridge.close();
});

test(`three shards of one run send no more than the profile's ${RATE} requests per second in total`, { timeout: 170_000 }, async () => {
  const file = liveProfile('shard-rate', 'game-bridge', proxy.url, { requestsPerSecond: RATE, requestTimeoutMs: 3000 });
  const runs = await Promise.all([1, 2, 3].map((i) => conformance(['--target', file, '--depth', 'quick', '--seed', '3', '--shard', `${i}/3`, '--workers', '1'], { TEST_BRIDGE_KEY: KEY }, 160_000)));
  for (const r of runs) assert.ok(r.code === 0 || r.code === 1, r.out.slice(-2000));
  assert.ok(at.length > 3 * RATE, `the shards were busy enough to meet the pacing (${at.length} requests)`);
  // The busiest second: one request per shard may sit at each edge of a window, and each start-up probe is unpaced.
  let busiest = 0;
  for (let i = 0, j = 0; j < at.length; j++) {
    while (at[j] - at[i] >= 1000) i++;
    busiest = Math.max(busiest, j - i + 1);
  }
  assert.ok(busiest <= RATE + 6, `at most about ${RATE} requests in any second, saw ${busiest} (three shards each at the whole rate would send up to ${3 * RATE})`);
});
