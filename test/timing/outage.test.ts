/**
 * Tests on a short fuse: a target that goes silent, judged with a request time-out of 800 ms. On a machine loaded by
 * the self-test's runs beside it, an answer of the healthy target took longer than that, and the run named a harness
 * abort instead of the outage (fresh-clone CI of e4932de). They run before the self-test starts (package.json
 * test:timing), on a quiet machine, as the unit tests do.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { start as startBridge } from '../../mocks/game-bridge/server.ts';
import { BRIDGE_SETTINGS, conformance, liveProfile, readSummary, requirementsOf, startProxy, withStatus, type Proxy } from '../integration/helpers.ts';

describe('a target that starts hanging mid-run', () => {
  let bridge: Awaited<ReturnType<typeof startBridge>>;
  let proxy: Proxy;
  const key = 'mid-run-hang-key-0123456789';
  before(async () => {
    bridge = await startBridge({ settings: BRIDGE_SETTINGS, reference: {}, secrets: { authKey: key }, port: 0, host: '127.0.0.1' });
    // Answers the probe and a few requests through the reference, then goes silent for good.
    let served = 0;
    proxy = await startProxy(bridge.url, (_req, forward) => (served++ > 6 ? 'hang' : forward()));
  });
  after(async () => {
    await proxy.close();
    await bridge.close();
  });

  test('an outage: exit 2 in bounded time, named as such, and no requirement failed because of the silence', async () => {
    const r = await conformance(['--target', liveProfile('hang', 'game-bridge', proxy.url, { requestTimeoutMs: 800 })], { TEST_BRIDGE_KEY: key });
    assert.equal(r.code, 2, r.out);
    assert.ok(r.ms < 90_000, `took ${r.ms} ms`);
    const summary = readSummary(r.reports);
    assert.equal(summary.exitCode, 2);
    assert.deepEqual(withStatus(summary, 'failed'), [], 'silence is no evidence against a requirement');
    const undecided = requirementsOf(summary).filter((q) => q.status === 'inconclusive');
    assert.ok(summary.inconclusiveCounted.length > 0, 'counted requirements are left undecided');
    for (const q of undecided) assert.match(q.message ?? '', /stopped answering|outage/, `${q.id} names the outage`);
    assert.ok(!JSON.stringify(summary).includes(key), 'the key never appears in the report');
  });
});
