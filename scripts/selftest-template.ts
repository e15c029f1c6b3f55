/**
 * The self-test's runs of the generated profile template (`npm run profile -- new`) with only each interface's baseUrl
 * changed, against the embedded references started as live targets with the settings the template leaves them (the
 * documents' defaults): in their default readings, and in the first other reading of every open point, as deployments
 * the template's author never saw. A template that states a guess fails here (an active `onlinePlayers: 60` failed a
 * correct bridge with 12 players online).
 *
 * The credentials are the template's own environment variable names, given values made up here; the exchange's key
 * pool is registered on its reference, as a user registers keys on a sandbox.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { loadProfile } from '../harness/profile/load.ts';
import { profileTemplate } from '../harness/profile/template.ts';
import { applyReadings, firstOtherReadings, type AskedReading } from '../harness/readings.ts';
import { ecdsaP256PublicKey } from '../harness/signing.ts';
import type { InterfaceName } from '../interfaces/registry.ts';
import { CATALOGUES, REGISTRY } from './interfaces.ts';

type Entry = { baseUrl: string; credentials?: unknown };
type ProfileData = { interfaces: Record<string, Entry & { reference?: Record<string, unknown> }> };

export interface TemplateDeployment {
  /** The template as written, with only the base URLs changed. */
  file: string;
  /** The template's credential variables, with the values the references were given or issued. */
  env: Record<string, string>;
  /** The readings the references took. */
  readings: AskedReading[];
  stop(): Promise<void>;
}

/**
 * The first other reading of each open point, but for those whose deployment needs a credential the template cannot
 * name (a chat endpoint behind an API key), or a way of signing it does not state (Reading.neededToConnect): such a
 * deployment's tester adds it, which is more than a base URL.
 */
export function templateReadings(names: readonly string[]): AskedReading[] {
  return names.flatMap((name) => firstOtherReadings(CATALOGUES, name)).filter((a) => {
    const reading = CATALOGUES[a.interfaceName]!.find((p) => p.point === a.point)!.readings.find((r) => r.name === a.reading);
    return !reading?.credentials && !reading?.neededToConnect;
  });
}

/** Starts each interface's reference as the template leaves it and writes the template with only its base URLs changed. */
export async function deployTemplate(names: readonly InterfaceName[], dir: string, other: boolean): Promise<TemplateDeployment> {
  mkdirSync(dir, { recursive: true });
  const text = profileTemplate(names);
  const asWritten = path.join(dir, 'as-written.yaml');
  writeFileSync(asWritten, text);
  const profile = loadProfile(asWritten);
  // The readings' own reference options, as `--readings … --unstated` would start them: the template states none.
  const readings = other ? templateReadings(names) : [];
  const options = { interfaces: Object.fromEntries(names.map((n) => [n, { reference: {} }])) } as ProfileData;
  if (readings.length) applyReadings(CATALOGUES, options, readings, undefined, { unstated: true });
  const data = YAML.parse(text) as ProfileData;
  const env: Record<string, string> = {};
  const servers: Array<{ close(): Promise<void> }> = [];
  const stop = async () => void (await Promise.all(servers.map((s) => s.close())));
  try {
    for (const name of names) {
      const d = REGISTRY.find((x) => x.name === name)!;
      const entry = data.interfaces[name]!;
      const loaded = profile.interfaces[name]!;
      const vars = madeUp(entry.credentials);
      // The reference takes its secrets by name (flattened by the definition where the credentials nest: keys per
      // role); a key pool's keys are issued by the running reference instead (registerPool below).
      const pooled = name === 'exchange-session';
      const named = pooled ? {} : ((d.credentialVariables?.(loaded.credentials as never) ?? loaded.credentials ?? {}) as Record<string, unknown>);
      const secrets = Object.fromEntries(Object.entries(named).flatMap(([k, v]) => (typeof v === 'string' && vars[v] ? [[k, vars[v]]] : [])));
      const server = await d.reference.start({ settings: loaded.settings, reference: options.interfaces[name]!.reference ?? {}, secrets, host: '127.0.0.1', port: 0 });
      servers.push(server);
      entry.baseUrl = server.url;
      if (pooled) Object.assign(vars, await registerPool(server.url, entry.credentials));
      Object.assign(env, vars);
    }
  } catch (e) {
    await stop();
    throw e;
  }
  const file = path.join(dir, 'my-target.yaml');
  writeFileSync(file, YAML.stringify(data));
  return { file, env, readings, stop };
}

/** A made-up value for each credential variable the template names (a key pool's members included). */
export function madeUp(credentials: unknown, out: Record<string, string> = {}): Record<string, string> {
  if (typeof credentials === 'string') out[credentials] = `Template-${credentials}-${randomBytes(9).toString('base64url')}`;
  else if (credentials && typeof credentials === 'object') for (const [k, v] of Object.entries(credentials)) if (k !== 'type') madeUp(v, out);
  return out;
}

/** The template's key pool registered on the exchange reference: each variable holds what the reference issued. */
export async function registerPool(url: string, credentials: unknown): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of (credentials as { keys: Array<Record<string, string>> }).keys) {
    if (key.type === 'hmac') {
      const made = await issueKey(url, { type: 'HMAC' });
      Object.assign(out, { [key.publicKey]: made.publicKey, [key.secret]: made.secret });
    } else {
      const privateKey = randomBytes(32).toString('hex');
      const made = await issueKey(url, { type: 'ECDSA', publicKey: ecdsaP256PublicKey(privateKey, 'pem') });
      Object.assign(out, { [key.privateKey]: privateKey, [key.metadata]: made.metadata });
    }
  }
  return out;
}

async function issueKey(url: string, body: Record<string, unknown>): Promise<Record<string, string>> {
  const r = await fetch(`${url}/__reference/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (r.status !== 200) throw new Error(`the exchange reference did not issue a key: ${r.status} ${await r.text()}`);
  return (await r.json()) as Record<string, string>;
}
