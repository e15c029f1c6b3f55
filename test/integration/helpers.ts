/**
 * What the command-line acceptance tests share: running the harness's commands as a user would, writing live target
 * profiles, small local targets in front of the embedded references (a proxy that can drop, delay, rewrite or refuse),
 * and reading the summary a run wrote (checked against schemas/summary.schema.json).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { makeAjv } from '../../harness/validation/ajv.ts';
import { ROOT, scriptArgs } from '../../harness/paths.ts';
import type { RunSummary, RequirementResult } from '../../harness/reporter/summary.ts';

export const tmp = mkdtempSync(path.join(os.tmpdir(), 'harness-cli-'));

/** A folder of its own under this file's temporary folder (runs that start in the same millisecond do not share one). */
export function freshDir(prefix: string): string {
  return mkdtempSync(path.join(tmp, `${prefix}-`));
}

export interface Ran {
  code: number;
  out: string;
  ms: number;
  /** The report folder the run was given (HARNESS_REPORT_DIR), whether or not it wrote there. */
  reports: string;
}

/**
 * Runs one of scripts/*.ts the way `npm run <script>` does (tsx), with its own report folder, and gives up on it after
 * `limitMs` (a hung command must fail the test, not hang it).
 */
export function script(name: 'conformance' | 'replay' | 'reference' | 'restore' | 'verify-record' | 'profile' | 'merge-reports', args: string[], env: NodeJS.ProcessEnv = {}, limitMs = 120_000): Promise<Ran> {
  const t0 = Date.now();
  const reports = env.HARNESS_REPORT_DIR ?? freshDir('reports');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, scriptArgs(name, args), {
      cwd: ROOT,
      env: { ...process.env, HARNESS_QUIET: '1', ...env, HARNESS_REPORT_DIR: reports },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const killer = setTimeout(() => {
      out += `\n[test] ${name} still running after ${limitMs} ms: killed`;
      child.kill('SIGKILL');
    }, limitMs);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      resolve({ code: code ?? (signal ? -1 : -2), out, ms: Date.now() - t0, reports });
    });
  });
}

export const conformance = (args: string[], env: NodeJS.ProcessEnv = {}, limitMs?: number) => script('conformance', args, env, limitMs);

export const BRIDGE_SETTINGS = { maxList: 50, endpoints: { log: true, status: true, players: true, info: true }, platform: 'paper', onlinePlayers: 60 };
export const CHAT_SETTINGS = { windowMs: 3000, maxRequests: 5, instances: 1, clientAddressesPreserved: true, developmentMode: false };

export interface ProfileOptions {
  writes?: boolean;
  requestTimeoutMs?: number;
  probeTimeoutMs?: number;
  requestsPerSecond?: number;
  /** The bridge's settings as the profile states them (default: those the tests start the reference with). */
  bridge?: Record<string, unknown>;
  chat?: Record<string, unknown>;
}

/** A live profile for one interface, written to this file's temporary folder; the bridge key is read from TEST_BRIDGE_KEY. */
export function liveProfile(name: string, iface: 'game-bridge' | 'chat', baseUrl: string, o: ProfileOptions = {}): string {
  const file = path.join(freshDir('profile'), `${name}.yaml`);
  const entry =
    iface === 'game-bridge'
      ? `  game-bridge:\n    baseUrl: ${baseUrl}\n    credentials: { authKey: TEST_BRIDGE_KEY }\n    settings: ${JSON.stringify(o.bridge ?? BRIDGE_SETTINGS)}\n`
      : `  chat:\n    baseUrl: ${baseUrl}\n    settings: ${JSON.stringify(o.chat ?? CHAT_SETTINGS)}\n`;
  writeFileSync(
    file,
    `name: ${name}\nwrites: ${o.writes ?? false}\nrequestTimeoutMs: ${o.requestTimeoutMs ?? 1500}\nprobeTimeoutMs: ${o.probeTimeoutMs ?? 2000}\n${o.requestsPerSecond ? `requestsPerSecond: ${o.requestsPerSecond}\n` : ''}interfaces:\n${entry}`,
  );
  return file;
}

export const listen = (server: Server | import('node:net').Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

export interface Seen {
  method: string;
  /** The path and query as the proxy received them. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer | string;
}

/** drop: close the connection without a word; hang: keep it open and never answer. */
export type Handling = Answer | 'drop' | 'hang';

export interface Proxy {
  url: string;
  port: number;
  /** Every request that reached the proxy, in order. */
  seen: Seen[];
  close(): Promise<void>;
}

// Hop-by-hop headers are the proxy's own business on each side; the length is set from the body actually forwarded.
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade', 'te', 'trailer', 'host', 'content-length']);

/**
 * A small HTTP target of the test's own in front of an upstream (an embedded reference): by default it forwards each
 * request as it came (header names in their letter case, repeated headers, a body on a GET too) and relays the answer;
 * `handle` decides otherwise per request, and may forward to another path.
 */
export async function startProxy(
  upstream: string | undefined,
  handle: (req: Seen, forward: (path?: string) => Promise<Answer>) => Promise<Handling> | Handling = (_req, forward) => forward(),
): Promise<Proxy> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const forwardOf = (req: import('node:http').IncomingMessage, s: Seen) => (pathname = s.path) =>
    new Promise<Answer>((resolve, reject) => {
      if (!upstream) return reject(new Error('this proxy has no upstream'));
      const target = new URL(pathname, upstream);
      const headers: Record<string, string | string[]> = {};
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const [name, value] = [req.rawHeaders[i], req.rawHeaders[i + 1]];
        if (HOP.has(name.toLowerCase())) continue;
        const had = headers[name];
        headers[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
      }
      if (s.body.length > 0 || req.headers['content-length'] !== undefined) headers['Content-Length'] = String(s.body.length);
      const out = httpRequest(target, { method: s.method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const h: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP.has(k)) h[k] = v;
          resolve({ status: res.statusCode ?? 502, headers: h, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      });
      out.on('error', reject);
      out.end(s.body);
    });
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const s: Seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
    seen.push(s);
    let h: Handling;
    try {
      h = await handle(s, forwardOf(req, s));
    } catch (e) {
      h = { status: 502, headers: { 'content-type': 'text/plain' }, body: `test proxy: ${(e as Error).message}` };
    }
    if (h === 'hang') return;
    if (h === 'drop') return void req.socket.destroy();
    const body = typeof h.body === 'string' ? Buffer.from(h.body) : h.body;
    res.writeHead(h.status, { ...h.headers, 'content-length': String(body.length) });
    res.end(body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const SUMMARY_SCHEMA = path.join(ROOT, 'schemas', 'summary.schema.json');
let validateSummary: ((data: unknown) => boolean) & { errors?: unknown } | undefined;

/**
 * The summary.json of a report folder, checked against the published schema (schemas/summary.schema.json) the way
 * a consumer of the file would check it: with the JSON Schema dialect the schema declares.
 */
export function readSummary(dir: string): RunSummary {
  const file = path.join(dir, 'summary.json');
  assert.ok(existsSync(file), `no summary.json in ${dir}`);
  const summary = JSON.parse(readFileSync(file, 'utf8')) as RunSummary;
  if (!validateSummary) {
    assert.ok(existsSync(SUMMARY_SCHEMA), 'schemas/summary.schema.json is missing: summary.json has no published schema');
    const schema = JSON.parse(readFileSync(SUMMARY_SCHEMA, 'utf8')) as { $schema?: string };
    let ajv: { compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown } } = makeAjv();
    if (/draft-0[67]/.test(schema.$schema ?? '')) {
      const draft7 = new Ajv({ allErrors: true, strict: false });
      (addFormats as unknown as (a: Ajv) => void)(draft7);
      ajv = draft7;
    }
    validateSummary = ajv.compile(schema);
  }
  assert.ok(validateSummary(summary), `${file} does not match schemas/summary.schema.json: ${JSON.stringify(validateSummary.errors, null, 2)}`);
  return summary;
}

export const requirementsOf = (s: RunSummary): RequirementResult[] => s.interfaces.flatMap((i) => i.requirements);
export const withStatus = (s: RunSummary, status: RequirementResult['status']) => requirementsOf(s).filter((r) => r.status === status).map((r) => r.id).sort();
export const requirement = (s: RunSummary, id: string) => {
  const r = requirementsOf(s).find((q) => q.id === id);
  assert.ok(r, `${id} is not in the summary`);
  return r;
};
