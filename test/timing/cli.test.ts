/**
 * The command line's answers to a run it cannot make or finish: a bad profile or option, an unreachable, silent,
 * dripping or hanging target. Judged on short time-outs (800 ms to 2 s), so they run before the self-test starts
 * (package.json test:timing): beside it, on a loaded machine, a healthy answer took longer than those fuses (fresh-clone
 * CI of e4932de and 6d7413f).
 */
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { start as startBridge } from '../../mocks/game-bridge/server.ts';
import { BRIDGE_SETTINGS, conformance, freshDir, listen, liveProfile, readSummary, requirementsOf, startProxy, withStatus, type Proxy } from '../integration/helpers.ts';

describe('the command line ends with exit 2 and one clear line when it cannot run', () => {
  test('a profile with a wrong field names the file and the field', async () => {
    const file = path.join(freshDir('bad-profile'), 'bad.yaml');
    writeFileSync(file, 'name: bad\ninterfaces:\n  chat:\n    reference: {}\n    settings: { windowMs: "soon", maxRequests: 5 }\n');
    const r = await conformance(['--target', file]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /bad\.yaml: interfaces\.chat\.settings\.windowMs: must be integer/);
  });

  test('an unknown interface name', async () => {
    const r = await conformance(['--interfaces', 'no-such-interface']);
    assert.equal(r.code, 2);
    assert.match(r.out, /unknown interface "no-such-interface"/);
  });

  test('an unreachable target, well inside 15 s', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused.
    const r = await conformance(['--target', liveProfile('unreachable', 'game-bridge', 'http://127.0.0.1:1')], { TEST_BRIDGE_KEY: 'k' });
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /cannot run: target game-bridge at http:\/\/127\.0\.0\.1:1 .*ECONNREFUSED/);
    assert.ok(r.ms < 15_000, `took ${r.ms} ms`);
  });

  test('a target that accepts connections but never answers, well inside 15 s', async () => {
    const held: Socket[] = [];
    const silent = createTcpServer((socket) => void held.push(socket)); // accepts, never says a word
    const port = await listen(silent);
    try {
      const r = await conformance(['--target', liveProfile('silent', 'game-bridge', `http://127.0.0.1:${port}`)], { TEST_BRIDGE_KEY: 'k' });
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /no answer within 2000 ms/);
      assert.ok(r.ms < 15_000, `took ${r.ms} ms`);
    } finally {
      held.forEach((s) => s.destroy());
      silent.close();
    }
  });

  test('a target that drips its answer a byte a second, well inside 15 s, naming the slow body', async () => {
    const drips: NodeJS.Timeout[] = [];
    const dripping = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const body = '{"ok":true}';
      let i = 0;
      drips.push(setInterval(() => (i < body.length ? res.write(body[i++]) : res.end()), 1000));
    });
    const port = await listen(dripping);
    try {
      const r = await conformance(['--target', liveProfile('dripping', 'game-bridge', `http://127.0.0.1:${port}`)], { TEST_BRIDGE_KEY: 'k' });
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /cannot run: target game-bridge .*answered 200, but the body did not finish within 2000 ms/);
      assert.ok(r.ms < 15_000, `took ${r.ms} ms`);
    } finally {
      drips.forEach(clearInterval);
      dripping.closeAllConnections();
      dripping.close();
    }
  });

  test('a catch-all that answers 200 {} to everything is not the API', async () => {
    const catchAll = createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    const port = await listen(catchAll);
    try {
      const r = await conformance(['--target', liveProfile('catch-all', 'game-bridge', `http://127.0.0.1:${port}`)], { TEST_BRIDGE_KEY: 'k' });
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /cannot run: target game-bridge .*without what the spec documents for it .*not the API/);
    } finally {
      catchAll.closeAllConnections();
      catchAll.close();
    }
  });

  test('a live target whose credential variable is not set', async () => {
    const r = await conformance(['--target', liveProfile('nocred', 'game-bridge', 'http://127.0.0.1:1')], { TEST_BRIDGE_KEY: '' });
    assert.equal(r.code, 2);
    assert.match(r.out, /needs environment variable TEST_BRIDGE_KEY/);
  });
});

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
