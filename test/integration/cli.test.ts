import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import assert from 'node:assert/strict';
import { start as startBridge } from '../../mocks/game-bridge/server.ts';
import { ROOT } from '../../harness/paths.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'harness-cli-'));

function conformance(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'conformance.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, HARNESS_REPORT_DIR: path.join(tmp, `reports-${Date.now()}`), HARNESS_QUIET: '1', ...env },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, out, ms: Date.now() - t0 }));
  });
}

function liveProfile(name: string, baseUrl: string, extra = ''): string {
  const file = path.join(tmp, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}\nwrites: false\nrequestTimeoutMs: 800\nprobeTimeoutMs: 2000\n${extra}interfaces:\n  game-bridge:\n    baseUrl: ${baseUrl}\n    credentials: { authKey: TEST_BRIDGE_KEY }\n    settings:\n      maxList: 50\n      endpoints: { log: true, status: true, players: true, info: true }\n`,
  );
  return file;
}

const listen = (server: Server | ReturnType<typeof createTcpServer>) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

describe('the command line ends with exit 2 and one clear line when it cannot run', () => {
  test('a profile with a wrong field names the file and the field', async () => {
    const file = path.join(tmp, 'bad.yaml');
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
    const r = await conformance(['--target', liveProfile('unreachable', `http://127.0.0.1:1`)], { TEST_BRIDGE_KEY: 'k' });
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /did not answer the start-up probe/);
    assert.ok(r.ms < 15_000, `took ${r.ms} ms`);
  });

  test('a target that accepts connections but never answers, well inside 15 s', async () => {
    const held: import('node:net').Socket[] = [];
    const silent = createTcpServer((socket) => void held.push(socket)); // accepts, never says a word
    const port = await listen(silent);
    try {
      const r = await conformance(['--target', liveProfile('silent', `http://127.0.0.1:${port}`)], { TEST_BRIDGE_KEY: 'k' });
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /no answer within 2000 ms/);
      assert.ok(r.ms < 15_000, `took ${r.ms} ms`);
    } finally {
      held.forEach((s) => s.destroy());
      silent.close();
    }
  });

  test('a live target whose credential variable is not set', async () => {
    const r = await conformance(['--target', liveProfile('nocred', 'http://127.0.0.1:1')], { TEST_BRIDGE_KEY: '' });
    assert.equal(r.code, 2);
    assert.match(r.out, /needs environment variable TEST_BRIDGE_KEY/);
  });
});

describe('a target that starts hanging mid-run', () => {
  let bridge: Awaited<ReturnType<typeof startBridge>>;
  let proxy: Server;
  let proxyPort: number;
  const key = 'mid-run-hang-key-0123456789';
  before(async () => {
    bridge = await startBridge({ settings: { maxList: 50, endpoints: { log: true, status: true, players: true, info: true }, platform: 'paper', onlinePlayers: 3 }, reference: {}, secrets: { authKey: key }, port: 0, host: '127.0.0.1' });
    let served = 0;
    // Answers the probe and a few requests through the reference, then goes silent for good.
    proxy = createServer(async (req, res) => {
      if (served++ > 6) return;
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      try {
        // undici's request, not fetch: the harness sends bodies with GET too (a wrong method with a valid body).
        const { host: _host, connection: _connection, ...headers } = req.headers;
        const upstream = await request(new URL(req.url ?? '/', bridge.url), { method: req.method as 'GET', headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
        res.writeHead(upstream.statusCode, upstream.headers as Record<string, string>);
        res.end(Buffer.from(await upstream.body.arrayBuffer()));
      } catch (e) {
        res.writeHead(502).end(String(e));
      }
    });
    proxyPort = await listen(proxy);
  });
  after(async () => {
    proxy.closeAllConnections();
    proxy.close();
    await bridge.close();
  });

  test('ends with exit 1 and evidence of the silence, in bounded time', async () => {
    const reports = path.join(tmp, 'hang-reports');
    const r = await conformance(['--target', liveProfile('hang', `http://127.0.0.1:${proxyPort}`)], { TEST_BRIDGE_KEY: key, HARNESS_REPORT_DIR: reports });
    assert.equal(r.code, 1, r.out);
    assert.ok(r.ms < 90_000, `took ${r.ms} ms`);
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8'));
    const messages = JSON.stringify(summary.interfaces[0].requirements.flatMap((q: any) => q.failures));
    assert.match(messages, /no answer within 800 ms|stopped answering/);
    assert.ok(!messages.includes(key), 'the key never appears in the report');
  });
});
