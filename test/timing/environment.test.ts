/**
 * What issue 43 must show, timed: the environment's trouble in front of correct references ends a run within 15 s,
 * naming the trouble, and never as the target's failure. On short fuses, so they run before the self-test
 * (package.json test:timing). The self-test's environment runs (scripts/selftest-environment.ts) hold the verdicts of
 * every shape; these hold the time and the words a user reads.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import { start as startBridge } from '../../mocks/game-bridge/server.ts';
import { troubleProxy } from '../../mocks/environment.ts';
import { INTERFACES, type InterfaceName } from '../../interfaces/registry.ts';
import { deployBehindTrouble } from '../../scripts/selftest-environment.ts';
import { BRIDGE_SETTINGS, conformance, freshDir, listen, liveProfile, readSummary, withStatus } from '../integration/helpers.ts';

const ALL = INTERFACES as readonly InterfaceName[];

describe('each correct reference behind a gateway that throttles every request', () => {
  test('the probe stops the run within 15 s, exit 2, naming the throttle for every interface', { timeout: 90_000 }, async () => {
    const deployment = await deployBehindTrouble(ALL, { name: 'throttle', kind: 'throttle', shape: 'from-start', operations: {} }, freshDir('throttled'));
    try {
      const run = await conformance(['--target', deployment.file], deployment.env);
      assert.equal(run.code, 2, run.out);
      assert.ok(run.ms < 15_000, `took ${run.ms} ms`);
      for (const name of ALL) assert.match(run.out, new RegExp(`target ${name} .*throttled \\(429, Retry-After 1\\)`), name);
    } finally {
      await deployment.stop();
    }
  });
});

describe('a catch-all answering 200 {} to every method and path', () => {
  test('is refused by the probe of every interface, within 15 s, exit 2', { timeout: 90_000 }, async () => {
    const catchAll = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    const port = await listen(catchAll);
    // A live profile of every interface, as the environment self-test writes it, with every base URL on the catch-all.
    const deployment = await deployBehindTrouble(ALL, { name: 'catch-all', kind: 'throttle', shape: 'from-start', operations: {} }, freshDir('catch-all'));
    try {
      const profile = YAML.parse(readFileSync(deployment.file, 'utf8')) as { interfaces: Record<string, { baseUrl: string }> };
      for (const entry of Object.values(profile.interfaces)) entry.baseUrl = `http://127.0.0.1:${port}`;
      const file = path.join(freshDir('catch-all-profile'), 'catch-all.yaml');
      writeFileSync(file, YAML.stringify(profile));
      const run = await conformance(['--target', file], deployment.env);
      assert.equal(run.code, 2, run.out);
      assert.ok(run.ms < 15_000, `took ${run.ms} ms`);
      for (const name of ALL) assert.match(run.out, new RegExp(`target ${name} .*(catch-all|not the API|without what the spec documents)`), name);
    } finally {
      await deployment.stop();
      catchAll.close();
    }
  });
});

describe('a bridge that starts dripping its answers mid-run', () => {
  test('exit 2 within 15 s of the drip, named as a slow body, nothing failed', { timeout: 90_000 }, async () => {
    const key = 'drip-mid-run-key-0123456789';
    const bridge = await startBridge({ settings: BRIDGE_SETTINGS, reference: {}, secrets: { authKey: key }, host: '127.0.0.1', port: 0 });
    // The probe and a few requests answered, then every body a byte a second.
    const proxy = await troubleProxy(bridge, { kind: 'slow-body', after: 6 }, () => undefined);
    try {
      const run = await conformance(['--target', liveProfile('drip', 'game-bridge', proxy.url, { requestTimeoutMs: 1500, writes: true })], { TEST_BRIDGE_KEY: key });
      const ended = Date.now();
      assert.equal(run.code, 2, run.out);
      // Counted from the first dripped answer, not from the command's start: a cold start (a fresh clone's first
      // transpile) is no part of how fast the harness gives up on a slow body.
      const since = proxy.troubledSince();
      assert.ok(since !== undefined, 'the drip began');
      assert.ok(ended - since < 15_000, `exit ${ended - since} ms after the drip began (${run.ms} ms in all)`);
      const s = readSummary(run.reports);
      assert.deepEqual(withStatus(s, 'failed'), [], 'a slow body is no evidence against a requirement');
      assert.match(s.exitReason, /slow body/);
    } finally {
      await proxy.close();
    }
  });
});
