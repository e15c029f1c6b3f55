/**
 * Acceptance tests of the verdict semantics against small live targets of the test's own, on 127.0.0.1: the embedded
 * references behind a proxy that drops, delays, rewrites or refuses. Each says which exit code and which verdicts a
 * user must see, and that trouble of the target's environment (an outage, a time-out, a login page, a wrong key or
 * base URL) is never reported as a failed requirement.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { start as startBridge } from '../../mocks/game-bridge/server.ts';
import { start as startChat } from '../../mocks/chat/server.ts';
import { ROOT } from '../../harness/paths.ts';
import type { RunSummary } from '../../harness/reporter/summary.ts';
import { BRIDGE_SETTINGS, CHAT_SETTINGS, conformance, liveProfile, readSummary, requirement, requirementsOf, startProxy, withStatus, type Proxy, type Ran } from './helpers.ts';

const KEY = 'acceptance-bridge-key-0123456789';
const bridgeEnv = { TEST_BRIDGE_KEY: KEY };
type Running = { url: string; close(): Promise<void> };
/** The requirements of one status with their messages, for an assertion's own message. */
const messages = (s: RunSummary, status: string) =>
  requirementsOf(s)
    .filter((r) => r.status === status)
    .map((r) => `${r.id}: ${(r.message ?? '').split('\n')[0]}`)
    .join('\n');

const startReferenceBridge = () => startBridge({ settings: BRIDGE_SETTINGS, reference: {}, secrets: { authKey: KEY }, host: '127.0.0.1', port: 0 });

describe('a bridge that drops the connection when POST /v2/log carries the JSON body null', () => {
  let bridge: Running;
  let proxy: Proxy;
  let dropped = 0;
  let run: Ran;
  let s: RunSummary;
  before(async () => {
    bridge = await startReferenceBridge();
    // It crashes where it reads the body: after its key and method checks, so exactly where the reference answers
    // 400 "Missing field: message" to the body null, it closes the connection instead. Everything else as the reference.
    proxy = await startProxy(bridge.url, async (req, forward) => {
      const answer = await forward();
      if (req.method === 'POST' && req.path.split('?')[0] === '/v2/log' && req.body.toString('utf8').trim() === 'null' && answer.status === 400) {
        dropped++;
        return 'drop';
      }
      return answer;
    });
    run = await conformance(['--target', liveProfile('drops-null', 'game-bridge', proxy.url, { writes: true }), '--interfaces', 'game-bridge', '--seed', '7'], bridgeEnv);
    s = readSummary(run.reports);
  }, { timeout: 90_000 });
  after(async () => {
    await proxy.close();
    await bridge.close();
  });

  test('fails exactly C-LOG-NOT-JSON (and the should C-GEN-NO-5XX), exit 1', (t) => {
    t.diagnostic(`conformance took ${run.ms} ms; the proxy dropped ${dropped} connections`);
    assert.ok(dropped > 0, 'the run sent the body null to POST /v2/log');
    assert.deepEqual(withStatus(s, 'failed'), ['C-GEN-NO-5XX', 'C-LOG-NOT-JSON'], messages(s, 'failed'));
    assert.deepEqual(s.failedCounted, ['C-LOG-NOT-JSON']);
    assert.equal(requirement(s, 'C-GEN-NO-5XX').level, 'should');
    assert.equal(run.code, 1, run.out);
    // The evidence is the dropped exchange, judged while the target went on answering.
    assert.match(requirement(s, 'C-LOG-NOT-JSON').message ?? '', /answers other requests normally/);
    const cause = s.interfaces[0].causes.find((c) => c.requirement === 'C-LOG-NOT-JSON' && c.touches.includes('C-GEN-NO-5XX'));
    assert.ok(cause, 'one cause for the counterexample, touching C-LOG-NOT-JSON and C-GEN-NO-5XX');
    assert.ok(cause.exchanges.some((x) => x.request.body === 'null' && x.error && !x.response), 'the evidence holds the unanswered exchange');
    assert.ok(!JSON.stringify(s).includes(KEY), 'the key never appears in the report');
  });

  test('decides every other requirement: a case already judged that gets no answer again leaves nothing undecided', () => {
    assert.deepEqual(withStatus(s, 'inconclusive'), [], messages(s, 'inconclusive'));
  });

  test('the cassette of that cause names every requirement it touches', () => {
    const dir = path.join(run.reports, 'cassettes', 'game-bridge');
    const cassettes = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
    const mine = cassettes.find((c) => c.requirement === 'C-LOG-NOT-JSON' && c.test.startsWith('error-code matrix, property'));
    assert.ok(mine, 'a cassette for the counterexample');
    assert.deepEqual([...mine.touches].sort(), ['C-GEN-NO-5XX', 'C-LOG-NOT-JSON']);
  });
});

describe('a target the start-up probe shows is not the API ends the run at once, exit 2, with its cause', () => {
  const stoppedEarly = (run: Awaited<ReturnType<typeof conformance>>) => {
    assert.equal(run.code, 2, run.out);
    assert.ok(run.ms < 15_000, `took ${run.ms} ms`);
    assert.ok(!existsSync(path.join(run.reports, 'summary.json')), 'no report full of verdicts on a page that is not the API');
  };

  test('a bridge that refuses the credential names its environment variable', { timeout: 30_000 }, async () => {
    const bridge = await startReferenceBridge();
    try {
      const run = await conformance(['--target', liveProfile('wrong-key', 'game-bridge', bridge.url), '--interfaces', 'game-bridge'], { TEST_BRIDGE_KEY: 'acceptance-wrong-key-value' });
      stoppedEarly(run);
      assert.match(run.out, /401/);
      assert.match(run.out, /environment variable TEST_BRIDGE_KEY/);
      assert.ok(!run.out.includes('acceptance-wrong-key-value'), 'the value itself is never printed');
    } finally {
      await bridge.close();
    }
  });

  const LOGIN = '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form method="post" action="/login"><input name="user"></form></body></html>';
  for (const iface of ['game-bridge', 'chat'] as const) {
    test(`an HTML login page in front of ${iface}`, { timeout: 30_000 }, async () => {
      const page = await startProxy(undefined, () => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: LOGIN }));
      try {
        const run = await conformance(['--target', liveProfile(`login-page-${iface}`, iface, page.url), '--interfaces', iface], bridgeEnv);
        stoppedEarly(run);
        assert.match(run.out, new RegExp(`target ${iface} .*HTML page`));
        assert.ok(page.seen.length <= 2, `only the probe reached it (${page.seen.length} requests)`);
      } finally {
        await page.close();
      }
    });

    test(`a redirect to a login page in front of ${iface}`, { timeout: 30_000 }, async () => {
      const redirect = await startProxy(undefined, () => ({ status: 302, headers: { location: '/login' }, body: '' }));
      try {
        const run = await conformance(['--target', liveProfile(`redirect-${iface}`, iface, redirect.url), '--interfaces', iface], bridgeEnv);
        stoppedEarly(run);
        assert.match(run.out, /302 with a redirect to \/login/);
        assert.ok(redirect.seen.every((r) => r.path !== '/login'), 'the redirect is not followed');
      } finally {
        await redirect.close();
      }
    });
  }
});

describe('a base URL with a path prefix', () => {
  let bridge: Running;
  let gateway: Proxy;
  before(async () => {
    bridge = await startReferenceBridge();
    // Serves the bridge under /gateway only; anything else is a 404 of the gateway's own.
    gateway = await startProxy(bridge.url, (req, forward) =>
      req.path.startsWith('/gateway/') ? forward(req.path.slice('/gateway'.length)) : { status: 404, headers: { 'content-type': 'application/json' }, body: '{"error":"not under /gateway"}' },
    );
  });
  after(async () => {
    await gateway.close();
    await bridge.close();
  });

  test('keeps the prefix in every request, and the run passes', { timeout: 90_000 }, async (t) => {
    const run = await conformance(['--target', liveProfile('gateway', 'game-bridge', `${gateway.url}/gateway/`, { writes: true }), '--interfaces', 'game-bridge'], bridgeEnv);
    t.diagnostic(`conformance took ${run.ms} ms; ${gateway.seen.length} requests reached the gateway`);
    const outside = gateway.seen.filter((r) => !r.path.startsWith('/gateway/')).map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(outside, [], 'requests outside the prefix');
    assert.ok(gateway.seen.length > 100, `the whole run went through the gateway (${gateway.seen.length} requests)`);
    assert.equal(run.code, 0, run.out);
    const s = readSummary(run.reports);
    assert.deepEqual(withStatus(s, 'failed'), []);
    assert.deepEqual(withStatus(s, 'inconclusive'), []);
  });
});

const SPANISH_REQUIREMENT = 'E-429-MESSAGE-SPANISH';
const spanishInSpec = readFileSync(path.join(ROOT, 'specs', 'chat.yaml'), 'utf8').includes(`id: ${SPANISH_REQUIREMENT}`);

describe('a chat endpoint whose 429 message is in English', () => {
  let chat: Running;
  let proxy: Proxy;
  let rewritten = 0;
  before(async () => {
    chat = await startChat({ settings: CHAT_SETTINGS, reference: {}, secrets: {}, host: '127.0.0.1', port: 0 });
    // The reference, with its fixed 429 sentence replaced by an English one (fixed too: only the language is wrong).
    proxy = await startProxy(chat.url, async (_req, forward) => {
      const answer = await forward();
      if (answer.status !== 429) return answer;
      const body = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
      body.message = 'You have exceeded the request limit. Please try again in a few seconds.';
      rewritten++;
      return { ...answer, body: JSON.stringify(body) };
    });
  });
  after(async () => {
    await proxy.close();
    await chat.close();
  });

  test(`fails the must ${SPANISH_REQUIREMENT}, and only it`, { timeout: 90_000, todo: spanishInSpec ? undefined : `${SPANISH_REQUIREMENT} is not in specs/chat.yaml yet` }, async (t) => {
    // A chat reply takes its model's second: 1500 ms (liveProfile's default) left a loaded CI machine no room beside the
    // self-test (the run was inconclusive, "the target stopped answering"), so the reference profile's 10 s here too.
    const run = await conformance(['--target', liveProfile('english-429', 'chat', proxy.url, { requestTimeoutMs: 10_000 }), '--interfaces', 'chat'], {});
    t.diagnostic(`conformance took ${run.ms} ms; ${rewritten} answers 429 rewritten`);
    assert.ok(rewritten > 0, 'the run provoked 429s');
    const s = readSummary(run.reports);
    const spanish = requirement(s, SPANISH_REQUIREMENT);
    if (spanish.status === 'not-tested' && spanish.tests.length === 0) {
      t.todo(`${SPANISH_REQUIREMENT} is in the spec, but no test of the chat suite judges it yet`);
      return;
    }
    assert.deepEqual(withStatus(s, 'failed'), [SPANISH_REQUIREMENT], messages(s, 'failed') || run.out);
    // "a fixed Spanish-language sentence": the document states it, so it counts without --strict.
    assert.equal(spanish.level, 'must');
    assert.equal(requirement(s, 'E-429-BODY-MESSAGE').status, 'passed', 'a fixed, non-empty message is still one');
    assert.equal(run.code, 1, run.out);
  });
});

describe('a bridge whose switched-off endpoint answers 404 with an HTML page, as a real deployment did', () => {
  const settings = { ...BRIDGE_SETTINGS, endpoints: { ...BRIDGE_SETTINGS.endpoints, players: false } };
  let bridge: Running;
  let proxy: Proxy;
  let s: RunSummary;
  before(async () => {
    bridge = await startBridge({ settings, reference: {}, secrets: { authKey: KEY }, host: '127.0.0.1', port: 0 });
    // Everything as the reference answers it, but /v2/players, switched off: a web server's own 404 page.
    proxy = await startProxy(bridge.url, (req, forward) =>
      req.path.split('?')[0] === '/v2/players' ? { status: 404, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>404 Not Found</h1></body></html>' } : forward(),
    );
    const run = await conformance(['--target', liveProfile('players-404-page', 'game-bridge', proxy.url, { writes: true, bridge: settings }), '--interfaces', 'game-bridge', '--seed', '7'], bridgeEnv);
    s = readSummary(run.reports);
  }, { timeout: 90_000 });
  after(async () => {
    await proxy.close();
    await bridge.close();
  });

  test('its disabled rule judges it; no generic requirement fails on it (auth, method, schema are not asked of a switched-off endpoint)', () => {
    const failed = withStatus(s, 'failed');
    assert.deepEqual(failed.filter((id) => id.startsWith('C-GEN-')), [], messages(s, 'failed'));
    assert.ok(failed.includes('C-DISABLED-403'), `C-DISABLED-403 judges the 404 page: ${messages(s, 'failed')}`);
  });
});
