/**
 * npm run replay -- reports/cassettes/<interface>/<requirement>-<n>.json [--target profile.yaml] [--fault NAME | --no-fault]
 * Sends a failed check's exchanges again, to the same kind of target or another, and compares the statuses.
 * Credentials are re-inserted from the profile (the cassette holds only their names), so a replay against
 * another deployment uses that deployment's own keys. Against the embedded reference the cassette's seeded
 * fault is switched on again unless --no-fault or another --fault is given.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, TargetError, closeAgents } from '../harness/http/client.ts';
import type { Exchange } from '../harness/http/exchange.ts';
import { ENV } from '../harness/options.ts';
import { isInterfaceName } from '../harness/paths.ts';
import { DEFAULT_PROFILE, loadProfile } from '../harness/profile/load.ts';
import { loadSpec } from '../harness/spec/load.ts';
import { drawReferenceCredentials, missingCredentials, secretsFor, startReferences } from '../harness/targets.ts';

function fail(reason: string): never {
  console.error(`replay: ${reason}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({ options: { target: { type: 'string' }, fault: { type: 'string' }, 'no-fault': { type: 'boolean' } }, allowPositionals: true });
} catch (e) {
  fail((e as Error).message);
}
const { values, positionals } = parsed;
if (positionals.length !== 1) fail('name one cassette file');
let cassette: { interface: string; requirement: string; test: string; fault?: string; exchanges: Exchange[] };
try {
  cassette = JSON.parse(readFileSync(positionals[0], 'utf8'));
} catch (e) {
  fail(`${positionals[0]}: ${(e as Error).message}`);
}
const name = cassette.interface;
if (!isInterfaceName(name)) fail(`${positionals[0]}: unknown interface ${name}`);
let profile;
try {
  profile = loadProfile(values.target ?? process.env[ENV.profile] ?? DEFAULT_PROFILE);
} catch (e) {
  fail((e as Error).message);
}
if (!profile.interfaces[name]) fail(`the profile ${profile.name} has no ${name} entry`);
const missing = missingCredentials(profile, [name]);
if (missing.length) fail(missing.join('; '));
const fault = values['no-fault'] ? undefined : (values.fault ?? cassette.fault);
if (fault) process.env[ENV.fault] = `${name}:${fault}`;
drawReferenceCredentials(profile, [name]);
const { targets, stop } = await startReferences(profile, [name]);
const target = targets[0];
const secrets = secretsFor(profile, name);
const client = new Client({
  interfaceName: name,
  baseUrl: target.baseUrl,
  spec: loadSpec(name),
  secrets,
  timeoutMs: profile.requestTimeoutMs ?? 5000,
  live: !target.reference,
  requestsPerSecond: profile.requestsPerSecond ?? 0,
});

console.log(`replaying ${cassette.exchanges.length} exchanges of ${cassette.requirement} (${cassette.test}) against ${target.baseUrl}${target.reference ? ` (embedded reference${fault ? `, fault ${fault}` : ''})` : ''}`);
let differ = 0;
for (const [i, ex] of cassette.exchanges.entries()) {
  if (JSON.stringify(ex.request).includes('{{redacted}}')) console.log(`  #${i + 1}: a header held an unknown credential; it is sent as the literal {{redacted}}`);
  const url = new URL(secrets.expand(ex.request.url));
  const headers: Record<string, string> = {};
  for (const [k, v] of ex.request.headers) headers[k] = secrets.expand(v);
  try {
    const r = await client.send({ method: ex.request.method, path: url.pathname + url.search, headers, body: ex.request.body === undefined ? undefined : secrets.expand(ex.request.body), unpaced: true, provokesLimit: true });
    const was = ex.response?.status ?? `no answer (${ex.error})`;
    const same = r.status === ex.response?.status;
    if (!same) differ++;
    console.log(`  #${i + 1} ${ex.request.method} ${url.pathname}: recorded ${was}, now ${r.status}${same ? '' : '  <- differs'}${r.exchange.problems ? `; spec problems: ${secrets.redact([...r.exchange.problems.schema, ...r.exchange.problems.contentType, ...r.exchange.problems.headers].join('; '))}` : ''}`);
  } catch (e) {
    differ++;
    console.log(`  #${i + 1} ${ex.request.method} ${url.pathname}: ${secrets.redact(e instanceof TargetError ? (e.exchange.error ?? '') : (e as Error).message)}`);
  }
}
await stop();
await closeAgents();
console.log(differ ? `${differ} of ${cassette.exchanges.length} answers differ from the recording` : 'every answer has the recorded status');
process.exit(differ ? 1 : 0);
