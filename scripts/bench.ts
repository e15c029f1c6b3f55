/**
 * npm run bench [-- --seconds N --concurrency N --skip-run]
 * Prints: the wall time of a whole conformance run against the reference, the wall times of its two weighted shards,
 * chat's window floor and how close the
 * chat suite comes to it; the median time to validate one response; the requests per second of the harness's
 * client path (capture and validation; redaction happens when an exchange becomes evidence) beside bare undici
 * against the same loopback server, in one run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import YAML from 'yaml';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { Client, closeAgents } from '../harness/http/client.ts';
import { ROOT, scriptArgs } from '../harness/paths.ts';
import type { RunSummary } from '../harness/reporter/summary.ts';
import { Secrets } from '../harness/secrets.ts';
import { loadSpec } from '../harness/spec/load.ts';
import { INTERFACES } from './interfaces.ts';
import { validValue } from '../harness/generic/bodies.ts';
import { checkResponse, precompile } from '../harness/validation/responses.ts';

const USAGE = `usage: npm run bench [-- --seconds N --concurrency N --skip-run --skip-chat | --selftest [--selftest-only TEXT]]
  --seconds N       how long each throughput measurement runs (default 2)
  --concurrency N   requests in flight in the throughput measurements (default 8)
  --skip-run        leave out the whole conformance run against the reference
  --skip-chat       leave out the quick chat run against a live 60-second window
  --selftest        instead, the self-test's cost: its wall and CPU seconds, per configuration and per proven
                    (check, requirement) pair (the environment runs and the browser check left out)
  --selftest-only T the self-test's runs whose name contains T (its --only)
  --selftest-mode M grouped (the self-test's default: runs of one worker made in groups, one Playwright invocation
                    each), alone (every run an invocation of its own: --one-run-each), or both (default: alone, then
                    grouped, in one bench run, and their ratio)`;

function options() {
  try {
    return parseArgs({
      options: {
        seconds: { type: 'string', default: '2' },
        concurrency: { type: 'string', default: '8' },
        'skip-run': { type: 'boolean' },
        'skip-chat': { type: 'boolean' },
        selftest: { type: 'boolean' },
        'selftest-only': { type: 'string' },
        'selftest-mode': { type: 'string', default: 'both' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    console.error(`bench: ${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}
const values = options();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
if (!(seconds > 0) || !(concurrency >= 1)) {
  console.error(`bench: --seconds must be a positive number and --concurrency at least 1\n${USAGE}`);
  process.exit(2);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (values.selftest) {
  const mode = values['selftest-mode'];
  if (!['grouped', 'alone', 'both'].includes(mode!)) {
    console.error(`bench: --selftest-mode ${mode}: grouped, alone or both\n${USAGE}`);
    process.exit(2);
  }
  const measured: Array<{ mode: string; wall: number; cpu: number; code: number }> = [];
  for (const m of mode === 'both' ? ['alone', 'grouped'] : [mode!]) measured.push({ mode: m, ...(await selftestCosts(values['selftest-only'], m === 'alone')) });
  if (measured.length === 2) {
    const [alone, grouped] = measured;
    console.log(`self-test grouped / alone, this bench run: wall ${(grouped.wall / alone.wall).toFixed(2)} (${grouped.wall.toFixed(0)} s / ${alone.wall.toFixed(0)} s), CPU ${(grouped.cpu / alone.cpu).toFixed(2)} (${grouped.cpu.toFixed(0)} / ${alone.cpu.toFixed(0)} CPU-s)`);
  }
  process.exit(Math.max(...measured.map((m) => m.code)));
}

// 1. The whole run against the reference, and chat's window floor.
/** The whole run's wall time (s): the single run a comparison of two references is measured against (1a'). */
let singleRunS = NaN;
if (!values['skip-run']) {
  const reportDir = path.join(ROOT, 'reports', 'bench-run');
  const t0 = performance.now();
  const code = await conformance(['--seed', '1', '--quiet'], reportDir);
  const wall = performance.now() - t0;
  const startedAt = Date.now() - wall;
  const s = JSON.parse(readFileSync(path.join(reportDir, 'summary.json'), 'utf8')) as RunSummary;
  singleRunS = wall / 1000;
  console.log(`whole run against the reference (npm run conformance, seed 1): ${(wall / 1000).toFixed(1)} s wall, exit ${code}`);
  // The fixed cost: what the run spends outside its tests, before the first starts (the command, the runner, the
  // references, the workers) and after the last ends (the reports).
  const firstStart = Math.min(...s.timing.map((t) => t.startMs));
  const lastEnd = Math.max(...s.timing.map((t) => t.startMs + t.durationMs));
  const fixed = wall - (lastEnd - firstStart);
  console.log(`  fixed cost of a run: ${(fixed / 1000).toFixed(1)} s (goal <= 3 s): ${((firstStart - startedAt) / 1000).toFixed(1)} s before the first test starts, ${((startedAt + wall - lastEnd) / 1000).toFixed(1)} s after the last ends`);
  console.log(`  of which Playwright's own, for one empty test on 2 workers: ${(await playwrightFloor()).toFixed(1)} s`);
  for (const name of INTERFACES) {
    const tests = s.timing.filter((t) => t.interfaceName === name);
    if (!tests.length) continue;
    const first = Math.min(...tests.map((t) => t.startMs));
    const last = Math.max(...tests.map((t) => t.startMs + t.durationMs));
    console.log(`  ${name} suite: ${((last - first) / 1000).toFixed(1)} s from its first test's start to its last test's end (${tests.length} tests)`);
    const waits = tests.map((t) => t.plannedWaitMs);
    if (waits.some((w) => w > 0)) {
      // The floor: what the tests must sit out by design (rate-limit windows), spread over the workers at best.
      const workers = new Set(s.timing.map((t) => t.workerIndex)).size || 1;
      const floor = Math.max(Math.max(...waits), waits.reduce((a, b) => a + b, 0) / Math.min(workers, 2));
      console.log(`  ${name} window floor: ${(floor / 1000).toFixed(1)} s (longest single chain ${(Math.max(...waits) / 1000).toFixed(1)} s, ${(waits.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s of planned waits over 2 workers); suite / floor = ${((last - first) / floor).toFixed(2)}`);
    }
  }
}

// 1a'. Issue 25's goal: a behaviour diff of two references (the baseline run twice for its noise: three runs, side by
// side) takes at most 2.2 times the whole run measured just before (1.).
if (!values['skip-run']) {
  const one = singleRunS;
  const t0 = performance.now();
  const code = await conformance(['--seed', '1', '--quiet', '--compare', path.join(ROOT, 'targets', 'reference.yaml')], path.join(ROOT, 'reports', 'bench-compare'));
  const two = (performance.now() - t0) / 1000;
  console.log(`behaviour diff of two references (--compare targets/reference.yaml, seed 1; the baseline twice): ${two.toFixed(1)} s wall against ${one.toFixed(1)} s for the single run just before; ratio ${(two / one).toFixed(2)} (goal <= 2.2), exit ${code}`);
}

// 1a. Issue 22's goal: two shards of one run, cut by planned time (harness/shard-weights.ts), take wall times within a
// factor of 1.5 of each other (cut by test count, one took 7.8 s and the other 24.3 s). Run one after the other, so
// that each has the machine to itself as in CI.
if (!values['skip-run']) {
  const walls: number[] = [];
  for (const part of ['1/2', '2/2']) {
    const t0 = performance.now();
    const code = await conformance(['--seed', '1', '--quiet', '--shard', part], path.join(ROOT, 'reports', `bench-shard-${part[0]}`));
    walls.push((performance.now() - t0) / 1000);
    if (code !== 0) console.log(`  shard ${part}: exit ${code}`);
  }
  const ratio = Math.max(...walls) / Math.min(...walls);
  console.log(`two weighted shards of the whole run (--shard 1/2, 2/2, seed 1): ${walls.map((w) => `${w.toFixed(1)} s`).join(' and ')} wall; slower / faster = ${ratio.toFixed(2)} (goal < 1.5)`);
}

// 1b. Goals for one suite alone at the default depth: issue 10's usage-events under 30 s (its properties' cases each
// wait for their events to become queryable, so this is the line that shows a slower wait or more requests per case),
// issue 23's unified-exchange under 45 s (the largest surface, every request signed).
const SUITE_GOALS_S: Record<string, number> = { 'usage-events': 30, 'unified-exchange': 45 };
for (const [name, goal] of Object.entries(SUITE_GOALS_S)) {
  if (values['skip-run'] || !INTERFACES.includes(name as never)) continue;
  const reportDir = path.join(ROOT, 'reports', `bench-run-${name}`);
  const t0 = performance.now();
  const code = await conformance(['--interfaces', name, '--seed', '1', '--quiet'], reportDir);
  const wall = (performance.now() - t0) / 1000;
  const s = JSON.parse(readFileSync(path.join(reportDir, 'summary.json'), 'utf8')) as RunSummary;
  const tests = s.timing;
  const suite = tests.length ? (Math.max(...tests.map((t) => t.startMs + t.durationMs)) - Math.min(...tests.map((t) => t.startMs))) / 1000 : NaN;
  console.log(`${name} alone (npm run conformance -- --interfaces ${name}, seed 1): suite ${suite.toFixed(1)} s (goal < ${goal} s), ${wall.toFixed(1)} s wall with start-up, exit ${code}`);
}

// 1c. Issue 11's goal for a gate against a live window: a quick-depth chat run against a 60-second window takes at most
// 1.3 times the waits its checks must sit out. The reference runs in a process of its own, named by URL in a profile
// as a live deployment would be.
if (!values['skip-run'] && !values['skip-chat']) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-chat-'));
  const chatSettings = { windowMs: 60_000, maxRequests: 5, instances: 1, clientAddressesPreserved: true, developmentMode: false };
  const serverProfile = path.join(dir, 'server.yaml');
  writeFileSync(serverProfile, YAML.stringify({ name: 'bench-chat-server', interfaces: { chat: { reference: {}, settings: chatSettings } } }));
  const chat = await startReferenceProcess('chat', {}, ['--profile', serverProfile]);
  const liveProfile = path.join(dir, 'live.yaml');
  writeFileSync(liveProfile, YAML.stringify({ name: 'bench-chat-live', writes: false, interfaces: { chat: { baseUrl: chat.url, settings: chatSettings } } }));
  const reportDir = path.join(ROOT, 'reports', 'bench-run-chat-60s');
  const t0 = performance.now();
  const code = await conformance(['--target', liveProfile, '--depth', 'quick', '--seed', '1', '--quiet'], reportDir);
  const wall = (performance.now() - t0) / 1000;
  chat.stop();
  rmSync(dir, { recursive: true, force: true });
  const s = JSON.parse(readFileSync(path.join(reportDir, 'summary.json'), 'utf8')) as RunSummary;
  const waits = s.timing.map((t) => t.plannedWaitMs);
  const workers = new Set(s.timing.map((t) => t.workerIndex)).size || 1;
  const floor = Math.max(Math.max(...waits), waits.reduce((a, b) => a + b, 0) / Math.min(workers, 2)) / 1000;
  console.log(`chat, quick depth, against a live 60-second window (reference in its own process): ${wall.toFixed(1)} s wall, exit ${code}; waits its checks must sit out: ${floor.toFixed(1)} s; wall / waits = ${(wall / floor).toFixed(2)} (goal <= 1.3)`);
}

// 2. Median time to validate one response: a body valid by its schema, for every documented response of every spec.
const samplesOf = INTERFACES.flatMap((name) => {
  const spec = loadSpec(name);
  precompile(spec);
  return spec.operations.flatMap((op) =>
    Object.values(op.responses)
      .filter((r) => r.schema && /^\d+$/.test(r.status))
      .map((r) => {
        const headers: Record<string, string> = { 'content-type': r.contentType ?? 'application/json' };
        for (const [h, d] of Object.entries(r.headers)) headers[h] = String(validValue(spec.doc, d.schema ?? { type: 'string' }));
        return { spec, check: { method: op.method, path: op.path.replace(/\{[^}]+\}/g, 'x'), status: Number(r.status), headers, body: JSON.stringify(validValue(spec.doc, r.schema)) } };
      }),
  );
});
const samples: number[] = [];
for (let round = 0; round < 200; round++) {
  const t = performance.now();
  for (const { spec, check } of samplesOf) checkResponse(spec, check);
  samples.push((performance.now() - t) / samplesOf.length);
}
console.log(`validate one response (parse, find operation, headers, content type, schema; ${samplesOf.length} documented responses of ${INTERFACES.length} specs): median ${(median(samples) * 1000).toFixed(1)} µs`);
const bridgeSpec = loadSpec('game-bridge');

// 3. Requests per second: the harness's client path beside bare undici, same loopback server, same run. This measures
// the client, not an interface: the bridge's reference is simply a convenient loopback server.
// The server runs in a process of its own, as a deployment would: in this process it would compete with the
// client whose cost is being measured.
const key = 'bench-key-0123456789abcdef';
const server = await startReferenceProcess('game-bridge', { BRIDGE_AUTH_KEY: key });
const secrets = new Secrets();
secrets.add('authKey', key);
secrets.markSensitiveHeader('X-Auth-Key');
const captured: unknown[] = [];
const client = new Client({ interfaceName: 'game-bridge', baseUrl: server.url, spec: bridgeSpec, secrets, timeoutMs: 5000, live: false, requestsPerSecond: 0, onExchange: (e) => void (captured.length < 1000 ? captured.push(e) : (captured.length = 0)) });
const bare = new Agent({ keepAliveTimeout: 4000 });
const url = new URL('/v2/players', server.url);

async function rate(label: string, one: () => Promise<void>): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        await one();
        n++;
      }
    }),
  );
  const r = n / seconds;
  console.log(`  ${label}: ${r.toFixed(0)} requests/s`);
  return r;
}
const bareOne = async () => {
  const res = await request(url, { method: 'GET', headers: { 'X-Auth-Key': key }, dispatcher: bare });
  await res.body.text();
};
// undici's lowest request call, which the harness's client uses: the stricter comparison (no URL parsed per request).
const bareAgentOne = async () => {
  const res = await bare.request({ origin: url.origin, path: url.pathname, method: 'GET', headers: { 'X-Auth-Key': key } });
  await res.body.text();
};
const harnessOne = async () => {
  await client.send({ method: 'GET', path: '/v2/players', headers: { 'X-Auth-Key': key } });
};
console.log(`requests per second against the loopback bridge reference (GET /v2/players, ${concurrency} in flight, ${seconds} s per round, each pair in the order ABBA ABBA):`);
// Both paths warm up first (the server's code included), then alternate A B B A: a server that keeps getting faster (or
// a neighbour that comes and goes) then weighs on both paths alike instead of on whichever ran last.
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
async function pair(bareLabel: string, bareCall: () => Promise<void>): Promise<{ ratio: number; h: number; b: number }> {
  await rate(`warm-up, ${bareLabel}`, bareCall);
  await rate('warm-up, harness client', harnessOne);
  const bareRates: number[] = [];
  const harnessRates: number[] = [];
  for (let round = 0; round < 2; round++) {
    bareRates.push(await rate(bareLabel, bareCall));
    harnessRates.push(await rate('harness client (capture, validation)', harnessOne));
    harnessRates.push(await rate('harness client (capture, validation)', harnessOne));
    bareRates.push(await rate(bareLabel, bareCall));
  }
  const b = mean(bareRates);
  const h = mean(harnessRates);
  return { ratio: h / b, h, b };
}
const top = await pair("bare undici (undici's request)", bareOne);
const low = await pair("bare undici (the agent's own request, no URL parsed)", bareAgentOne);
console.log(`harness client / bare undici = ${top.ratio.toFixed(2)} (goal >= 0.8; means of 4 rounds each: ${top.h.toFixed(0)} vs ${top.b.toFixed(0)} requests/s)`);
console.log(`  stricter, against the agent's own request call: ${low.ratio.toFixed(2)} (${low.h.toFixed(0)} vs ${low.b.toFixed(0)} requests/s)`);
server.stop();
await bare.close();
await closeAgents();

async function startReferenceProcess(name: string, env: Record<string, string>, extra: string[] = []): Promise<{ url: string; stop(): void }> {
  const child: ChildProcess = spawn(process.execPath, [...scriptArgs('reference'), name, ...extra], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (c) => reject(new Error(`reference exited ${c}: ${out}`)));
  });
  child.stdout!.resume();
  return { url, stop: () => void child.kill('SIGTERM') };
}

/** The wall time of Playwright running one empty test file on 2 workers: the floor under any run's fixed cost. */
async function playwrightFloor(): Promise<number> {
  const dir = path.join(ROOT, 'reports', 'bench-floor');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'floor.config.mjs'), "export default { testDir: '.', workers: 2, fullyParallel: true, reporter: 'dot' };\n");
  writeFileSync(path.join(dir, 'floor.spec.mjs'), "import { test } from '@playwright/test';\ntest('a', () => {});\ntest('b', () => {});\n");
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', path.join(dir, 'floor.config.mjs')], { cwd: dir, stdio: 'ignore' });
    child.on('exit', () => resolve());
  });
  return (performance.now() - t0) / 1000;
}

/** npm run conformance with these arguments, its reports in `reportDir`: its exit code. */
function conformance(args: string[], reportDir: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...scriptArgs('conformance'), ...args], { cwd: ROOT, env: { ...process.env, HARNESS_REPORT_DIR: reportDir }, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (c) => resolve(c ?? 2));
  });
}

/**
 * The self-test's cost (--selftest): it runs as npm test runs it (its batch processes, its default jobs), and each run's
 * CPU seconds are its batch process's and its workers' (scripts/process-cpu.ts). Printed: the whole, each kind of
 * run, the costliest configurations, and the CPU seconds per (check, requirement) pair the fault runs prove, each run's
 * CPU shared out among the pairs it proves.
 */
async function selftestCosts(only: string | undefined, alone: boolean): Promise<{ wall: number; cpu: number; code: number }> {
  const dir = path.join(ROOT, 'reports', `bench-selftest${alone ? '-alone' : ''}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'costs.json');
  rmSync(file, { force: true });
  const t0 = performance.now();
  const code = await new Promise<number>((resolve) => {
    const args = [...scriptArgs('selftest'), '--costs', file, '--environment', 'none', '--no-browser', ...(only ? ['--only', only] : []), ...(alone ? ['--one-run-each'] : [])];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (c) => resolve(c ?? 2));
  });
  const wall = (performance.now() - t0) / 1000;
  let costs: { measuredBy: string; runs: Array<{ name: string; wallS: number; cpuS?: number; fault: boolean; proves: string[]; group?: number }> };
  try {
    costs = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    console.error(`bench: the self-test (exit ${code}) wrote no costs to ${path.relative(ROOT, file)}`);
    return { wall, cpu: NaN, code: 2 };
  }
  const cpu = (rs: typeof costs.runs) => rs.reduce((sum, r) => sum + (r.cpuS ?? 0), 0);
  const groups = new Set(costs.runs.flatMap((r) => (r.group ? [r.group] : []))).size;
  console.log(`self-test ${alone ? 'one run per invocation (--one-run-each)' : `grouped (${groups} groups)`} (${costs.runs.length} runs${only ? ` matching "${only}"` : ''}, environment runs left out): ${wall.toFixed(0)} s wall, ${cpu(costs.runs).toFixed(0)} CPU-s; exit ${code}`);
  console.log(`  measured by ${costs.measuredBy}`);
  const kindOf = (name: string) => (name.startsWith('fault') ? (name.endsWith('in other readings') ? 'fault runs in other readings' : 'fault runs') : name.startsWith('reading') ? 'reading lanes' : name.startsWith('shard') ? 'shards' : 'valid configurations');
  const kinds = new Map<string, typeof costs.runs>();
  for (const r of costs.runs) kinds.set(kindOf(r.name), [...(kinds.get(kindOf(r.name)) ?? []), r]);
  for (const [kind, rs] of kinds) {
    console.log(`  ${kind}: ${rs.length} runs, ${cpu(rs).toFixed(0)} CPU-s (median ${median(rs.map((r) => r.cpuS ?? 0)).toFixed(1)} CPU-s, ${median(rs.map((r) => r.wallS)).toFixed(1)} s wall per run)`);
  }
  console.log('  the costliest configurations:');
  for (const r of [...costs.runs].sort((a, b) => (b.cpuS ?? 0) - (a.cpuS ?? 0)).slice(0, 8)) console.log(`    ${(r.cpuS ?? NaN).toFixed(1).padStart(6)} CPU-s ${r.wallS.toFixed(1).padStart(6)} s  ${r.name.slice(0, 110)}`);
  // Each fault run's CPU shared out among the pairs it proves; a pair proven by several runs gets each one's share.
  const perPair = new Map<string, number>();
  for (const r of costs.runs.filter((x) => x.fault && x.proves.length)) for (const p of r.proves) perPair.set(p, (perPair.get(p) ?? 0) + (r.cpuS ?? 0) / r.proves.length);
  const faultCpu = cpu(costs.runs.filter((r) => r.fault));
  if (perPair.size) console.log(`  per proven (check, requirement) pair: ${perPair.size} pairs, ${(faultCpu / perPair.size).toFixed(2)} CPU-s each on average (the fault runs' ${faultCpu.toFixed(0)} CPU-s); per pair in ${path.relative(ROOT, file)}`);
  writeFileSync(file, JSON.stringify({ ...costs, perPairCpuS: Object.fromEntries([...perPair].sort((a, b) => b[1] - a[1])) }, null, 2));
  return { wall, cpu: cpu(costs.runs), code };
}
