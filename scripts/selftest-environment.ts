/**
 * The environment self-test (issue 43): each correct reference, started as a live deployment from targets/reference.yaml,
 * behind one kind of trouble of its environment (mocks/environment.ts: a throttling gateway, a balancer with no
 * healthy backend, a crash loop resetting connections, a body dripped a byte at a time), whole target or one
 * operation. Whatever the trouble, the harness must hold:
 * - nothing fails but GEN-NO-5XX on server errors and a requirement whose own subject is that status (chat's 429
 *   body and headers: `statuses` in its spec entry);
 * - no requirement passes on answers it did not get: one passed has an operation the API answered;
 * - the run exits 2 when the trouble met it, naming the trouble; 1 only where what failed is allowed above (GEN-NO-5XX
 *   counts under --strict).
 * Shapes: from the start (the probe must stop the run, naming the trouble, before any check), after the probe (a
 * target that goes dark mid-run), all but the probe's operations (a target whose status probe alone still answers),
 * and one operation from after the probe on, chosen by seed so that successive seeds cover them all (`--environment
 * all`: every operation).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { loadProfile } from '../harness/profile/load.ts';
import { probeTarget } from '../harness/probe.ts';
import type { RunSummary } from '../harness/reporter/summary.ts';
import { loadSpec, matchOperation } from '../harness/spec/load.ts';
import { specForTarget } from '../harness/spec/for-target.ts';
import { Secrets } from '../harness/secrets.ts';
import { credentialVariables } from '../harness/targets.ts';
import { TARGETS_DIR } from '../harness/paths.ts';
import type { InterfaceName } from '../interfaces/registry.ts';
import { TROUBLE_KINDS, describeTrouble, type TroubleKind, type TroubledServer, type Trouble } from '../mocks/environment.ts';
import { descriptorOf } from './interfaces.ts';
import { registerPool, type TemplateDeployment } from './selftest-template.ts';

export type Shape = 'from-start' | 'after-probe' | 'all-but-probe' | 'one-operation';

/** One environment run: a trouble per interface, all of one kind and shape. */
export interface EnvironmentRun {
  name: string;
  kind: TroubleKind;
  shape: Shape;
  /** The operation troubled per interface (one-operation), by the spec's key. */
  operations: Partial<Record<InterfaceName, string>>;
}

/** The status a trouble answers with, where it answers at all: what a requirement about that status may judge. */
const STATUS_OF: Partial<Record<TroubleKind, number>> = { throttle: 429, unavailable: 503 };

/**
 * A request time-out short enough that a body dripped a byte a second, or a reset that leaves nothing to wait for,
 * ends a run in seconds: the references answer in milliseconds, a chat reply in its model's second.
 */
const TIMEOUT_MS: Record<TroubleKind, number> = { throttle: 10_000, unavailable: 10_000, reset: 10_000, 'slow-body': 4000 };

/** The operations of an interface one-operation runs may trouble: every one but the probe's own (the from-start runs have it). */
function candidateOperations(name: InterfaceName, probeOps: readonly string[]): string[] {
  return loadSpec(name)
    .operations.map((op) => op.key)
    .filter((k) => !probeOps.includes(k))
    .sort();
}

/**
 * The environment runs of one self-test: every kind in each whole-target shape, and one-operation runs whose
 * operation rotates with the seed (`all`: one run per operation of each interface and kind instead).
 */
export function environmentRuns(names: readonly InterfaceName[], seed: number, all: boolean, probeOps: (name: InterfaceName) => readonly string[]): EnvironmentRun[] {
  const runs: EnvironmentRun[] = [];
  for (const kind of TROUBLE_KINDS) {
    for (const shape of ['from-start', 'after-probe', 'all-but-probe'] as const) runs.push({ name: `environment ${kind}, ${shape.replace(/-/g, ' ')}`, kind, shape, operations: {} });
    const candidates = Object.fromEntries(names.map((n) => [n, candidateOperations(n, probeOps(n))])) as Record<InterfaceName, string[]>;
    const rounds = all ? Math.max(...names.map((n) => candidates[n].length)) : 1;
    for (let i = 0; i < rounds; i++) {
      const operations: Partial<Record<InterfaceName, string>> = {};
      for (const n of names) {
        const ops = candidates[n];
        if (ops.length === 0 || (all && i >= ops.length)) continue;
        operations[n] = ops[(all ? i : seed + TROUBLE_KINDS.indexOf(kind)) % ops.length];
      }
      // An interface whose every operation is its probe's (chat: POST /api/chat) has none to trouble alone: no run.
      if (Object.keys(operations).length === 0) continue;
      runs.push({ name: `environment ${kind}, one operation: ${Object.entries(operations).map(([n, op]) => `${n} ${op}`).join('; ')}`, kind, shape: 'one-operation', operations });
    }
  }
  return runs;
}

type Entry = { baseUrl: string; credentials?: unknown; settings?: unknown };

/**
 * Starts each interface's reference, as its home profile configures it (targets/reference.yaml, or the first
 * targets/reference-*.yaml that has it: `homeOf`), behind the run's trouble, and writes a
 * live profile for it: the same settings and credentials, a base URL instead of `reference`. The trouble of the
 * "after the probe" shape starts once the run's own probe is through: the harness's probe is made once here against
 * the untroubled deployment, and the trouble starts after as many requests again.
 */
export async function deployBehindTrouble(names: readonly InterfaceName[], run: EnvironmentRun, dir: string, homeOf: (name: InterfaceName) => string = () => 'reference.yaml'): Promise<TemplateDeployment> {
  mkdirSync(dir, { recursive: true });
  const profiles = new Map<string, ReturnType<typeof loadProfile>>();
  const sourceOf = (name: InterfaceName) => {
    const file = homeOf(name);
    if (!profiles.has(file)) profiles.set(file, loadProfile(path.join(TARGETS_DIR, file)));
    return profiles.get(file)!;
  };
  const env: Record<string, string> = {};
  const servers: TroubledServer[] = [];
  const interfaces: Record<string, Entry> = {};
  const stop = async () => void (await Promise.all(servers.map((s) => s.close())));
  const profile = { name: `environment-${run.kind}-${run.shape}`, writes: true, requestsPerSecond: 0, requestTimeoutMs: TIMEOUT_MS[run.kind], probeTimeoutMs: TIMEOUT_MS[run.kind], interfaces };
  try {
    for (const name of names) {
      const entry = sourceOf(name).interfaces[name];
      if (!entry) continue;
      if (run.shape === 'one-operation' && !run.operations[name]) continue;
      const d = descriptorOf(name);
      // Held here, read by the proxy at every request: the shapes that start after the probe move its start below.
      // One operation's trouble starts after the probe too: a login the probe needs, troubled, would stop the whole run.
      const trouble: Trouble = { kind: run.kind, ...(run.shape === 'one-operation' ? { operation: run.operations[name] } : {}), ...(run.shape === 'from-start' ? {} : { after: Number.MAX_SAFE_INTEGER }) };
      const vars = credentialVariables(name, entry.credentials);
      const secrets: Record<string, string> = {};
      for (const [cred, variable] of Object.entries(vars)) {
        env[variable] = process.env[variable] ?? `Environment-${variable}-${Math.random().toString(36).slice(2)}`;
        secrets[cred] = env[variable]!;
      }
      const server = (await d.reference.start({ settings: entry.settings, reference: { ...(entry.reference ?? {}), trouble }, secrets, host: '127.0.0.1', port: 0 })) as TroubledServer;
      servers.push(server);
      let credentials = entry.credentials;
      // The exchange's keys are issued by the running reference, as a user registers keys on a sandbox.
      if (name === 'exchange-session') {
        credentials = { keys: ['HMAC_1', 'ECDSA_1', 'HMAC_2', 'ECDSA_2'].map((k) => (k.startsWith('HMAC') ? { type: 'hmac', publicKey: `ENV_EX_${k}_KEY`, secret: `ENV_EX_${k}_SECRET` } : { type: 'ecdsa', privateKey: `ENV_EX_${k}_PRIVATE`, metadata: `ENV_EX_${k}_METADATA` })) };
        Object.assign(env, await registerPool(server.url, credentials));
      }
      interfaces[name] = { baseUrl: server.url, ...(credentials ? { credentials } : {}), settings: entry.settings };
      if (trouble.after !== undefined) {
        // The probe the run will make, made once now: the trouble starts after as many requests again.
        const file = path.join(dir, `probe-${name}.yaml`);
        writeFileSync(file, YAML.stringify({ ...profile, interfaces: { [name]: interfaces[name] } }));
        const saved = { ...process.env };
        Object.assign(process.env, env);
        try {
          const problem = await probeTarget({ profile: loadProfile(file), name, probe: d.probe, authenticate: d.authenticate });
          if (problem) throw new Error(`${name} behind no trouble yet did not pass the probe: ${problem}`);
        } finally {
          for (const k of Object.keys(env)) if (saved[k] === undefined) delete process.env[k];
        }
        trouble.after = server.requests() * 2;
        if (run.shape === 'all-but-probe') {
          trouble.spare = server.operations();
          trouble.after = 0;
        }
      }
    }
  } catch (e) {
    await stop();
    throw e;
  }
  const file = path.join(dir, 'environment.yaml');
  writeFileSync(file, YAML.stringify(profile));
  return { file, env, readings: [], stop };
}

/** The operations an interface's probe asks, as reference.yaml configures it: set aside from the one-operation rotation. */
export function probeOperations(name: InterfaceName, home = 'reference.yaml'): string[] {
  const profile = loadProfile(path.join(TARGETS_DIR, home));
  const entry = profile.interfaces[name];
  if (!entry) return [];
  const probe = descriptorOf(name).probe({ profile, settings: entry.settings, secrets: new Secrets(), credentialEnv: credentialVariables(name, entry.credentials), credentials: entry.credentials, address: () => '127.0.0.1' });
  const spec = specForTarget(name, entry.settings);
  return [probe, ...(probe.credentials ?? [])].flatMap((p) => matchOperation(spec, p.request.method, p.request.path.split('?')[0]!).op?.key ?? []);
}

const KIND_WORDS: Record<TroubleKind, RegExp> = {
  throttle: /throttled|429/,
  unavailable: /503|server error/,
  reset: /reset|closed|ECONNRESET|UND_ERR_SOCKET|no answer/i,
  'slow-body': /slow body/,
};

/**
 * The invariants of one environment run (see the head of this file), per interface; undefined when they hold. The
 * run's output names the cause where the probe stopped it.
 */
export function judgeEnvironment(run: EnvironmentRun, names: readonly InterfaceName[], code: number, s: RunSummary | undefined, output: string): string | undefined {
  const words = KIND_WORDS[run.kind];
  if (run.shape === 'from-start') {
    if (code !== 2) return `expected the probe to stop the run (exit 2), got exit ${code}`;
    if (s) return 'the probe let the run go on: a report of verdicts on answers of the trouble';
    const named = names.filter((n) => words.test(output.split('\n').find((l) => l.includes(`target ${n} `)) ?? ''));
    const missing = names.filter((n) => !named.includes(n));
    return missing.length ? `the probe did not name the trouble (${run.kind}) for ${missing.join(', ')}:\n${output.split('\n').slice(-12).join('\n')}` : undefined;
  }
  if (!s) return `no summary (exit ${code}):\n${output.split('\n').slice(-12).join('\n')}`;
  const problems: string[] = [];
  const status = STATUS_OF[run.kind];
  const allowedIn = (i: RunSummary['interfaces'][number]) => {
    const spec = loadSpec(i.name as InterfaceName);
    // GEN-NO-5XX under server errors; a requirement whose subject is the trouble's status; and the response checks
    // where the spec documents that status for an operation (chat's 429: its body and headers are the document's).
    const documented = status !== undefined && spec.operations.some((op) => Object.keys(op.responses).includes(String(status)));
    return new Set([
      ...(run.kind === 'unavailable' ? [`${spec.prefix}-GEN-NO-5XX`] : []),
      ...spec.requirements.filter((r) => status !== undefined && r.statuses?.includes(status)).map((r) => r.id),
      ...(documented ? ['SCHEMA', 'HEADERS', 'CONTENT-TYPE'].map((k) => `${spec.prefix}-GEN-${k}`) : []),
    ]);
  };
  const allowed = new Set(s.interfaces.flatMap((i) => [...allowedIn(i)]));
  // The trouble met the run where a request of it got no answer, or the trouble's own status where the operation does
  // not document it (chat's own limiter answers 429 to the checks that provoke it, whatever the trouble spared).
  const documents = (i: RunSummary['interfaces'][number], operation: string, x: number) => Object.keys(loadSpec(i.name as InterfaceName).operations.find((op) => op.key === operation)?.responses ?? {}).includes(String(x));
  const met = s.interfaces.some((i) => (i.operations ?? []).some((o) => o.statuses.some((x) => x === 0 || (x === status && !documents(i, o.operation, x)))));
  const countedBeyond = s.failedCounted.filter((id) => !allowed.has(id));
  if (code === 1 && countedBeyond.length) problems.push(`exit 1 (${s.exitReason})`);
  if (run.shape !== 'one-operation' && met && code === 0) problems.push(`the trouble met the run, but it exited 0 (${s.exitReason})`);
  if (run.shape !== 'one-operation' && code === 2 && !words.test(s.exitReason)) problems.push(`the exit reason does not name the trouble (${run.kind}): ${s.exitReason}`);
  if (s.brokenTests.length) problems.push(`checks broke: ${s.brokenTests.map((b) => `${b.test}: ${b.error.split('\n')[0]}`).join('; ')}`);
  for (const i of s.interfaces) {
    const spec = loadSpec(i.name as InterfaceName);
    const ok = allowedIn(i);
    const failed = i.requirements.filter((r) => r.status === 'failed' && !ok.has(r.id));
    if (failed.length) problems.push(`${i.name}: failed under ${describeTrouble({ kind: run.kind, operation: run.operations[i.name as InterfaceName] })}: ${failed.map((r) => `${r.id} (${(r.message ?? '').split('\n')[0].slice(0, 200)})`).join('; ')}`);
    // A pass needs an operation of the requirement that the API answered (accepted or refused) in this run.
    const answered = new Set((i.operations ?? []).filter((o) => o.exercised).map((o) => o.operation));
    const unearned = i.requirements.filter((r) => (r.status === 'passed' || r.status === 'flagged') && !(spec.requirements.find((q) => q.id === r.id)?.operations ?? spec.operations.map((o) => o.key)).some((op) => answered.has(op)));
    if (unearned.length) problems.push(`${i.name}: passed on answers it did not get: ${unearned.map((r) => r.id).join(', ')}`);
  }
  return problems.length ? problems.join('\n     ') : undefined;
}
