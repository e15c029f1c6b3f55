/**
 * A test that runs out of its time limit (2.5 s) against a target whose every answer is 200 ms late. On a machine
 * loaded by the self-test beside it, the run itself outlasted the test's own limits (fresh-clone CI of 6d7413f): it
 * runs before the self-test starts (package.json test:timing), as the other tests on a short fuse do.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { start as startBridge } from '../../mocks/game-bridge/server.ts';
import { BRIDGE_SETTINGS, conformance, liveProfile, readSummary, sleep, startProxy, withStatus, type Proxy } from '../integration/helpers.ts';

const KEY = 'acceptance-bridge-key-0123456789';
const bridgeEnv = { TEST_BRIDGE_KEY: KEY };
type Running = { url: string; close(): Promise<void> };
const startReferenceBridge = () => startBridge({ settings: BRIDGE_SETTINGS, reference: {}, secrets: { authKey: KEY }, host: '127.0.0.1', port: 0 });

describe('a test that runs out of its time limit against a slow target', () => {
  let bridge: Running;
  let proxy: Proxy;
  before(async () => {
    bridge = await startReferenceBridge();
    // Every answer 200 ms late: well within requestTimeoutMs, far too slow for the matrix within 2.5 s.
    proxy = await startProxy(bridge.url, async (_req, forward) => {
      await sleep(200);
      return forward();
    });
  });
  after(async () => {
    await proxy.close();
    await bridge.close();
  });

  test('exit 2, the time limit named, no requirement failed because of it', { timeout: 60_000 }, async (t) => {
    const profile = liveProfile('slow', 'game-bridge', proxy.url, { requestTimeoutMs: 3000 });
    const run = await conformance(['--target', profile, '--interfaces', 'game-bridge', '--grep', 'error-code matrix'], { ...bridgeEnv, HARNESS_TEST_TIMEOUT_MS: '2500' });
    t.diagnostic(`conformance took ${run.ms} ms`);
    assert.equal(run.code, 2, run.out);
    const s = readSummary(run.reports);
    assert.deepEqual(withStatus(s, 'failed'), [], 'a time-out is no verdict on the target');
    assert.ok(s.brokenTests.length > 0, 'the tests that ran out of time are listed');
    for (const b of s.brokenTests) assert.match(b.error, /time limit/, b.test);
    const undecided = s.interfaces[0].requirements.filter((r) => r.status === 'inconclusive');
    assert.ok(undecided.length > 0);
    assert.ok(undecided.some((r) => /time limit/.test(r.message ?? '')), 'the requirements left undecided name the time limit');
    assert.ok(s.inconclusiveCounted.length > 0, 'counted requirements are left undecided');
  });
});
