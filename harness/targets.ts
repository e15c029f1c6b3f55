import { randomBytes, randomUUID } from 'node:crypto';
import type { Reference, RunningServer } from './reference.ts';
import { ENV, runSeed, selectedFaults } from './options.ts';
import { definitionOf, isInterfaceName, unknownInterface, type InterfaceName } from '../interfaces/registry.ts';
import type { InterfaceProfile, Profile } from './profile/types.ts';
import { Secrets } from './secrets.ts';

export interface Target {
  interfaceName: InterfaceName;
  baseUrl: string;
  /** The embedded reference, started by this run. */
  reference: boolean;
  fault?: string;
  /** The readings of open points the embedded reference was started with (point -> reading), beside its defaults. */
  readings?: Record<string, string>;
}

/** The interfaces a run covers: those of the profile, narrowed by --interfaces. */
export function interfacesInScope(profile: Profile, narrowed = process.env[ENV.interfaces]): InterfaceName[] {
  const inProfile = Object.keys(profile.interfaces).filter(isInterfaceName);
  if (!narrowed) return inProfile;
  const wanted = narrowed.split(',').map((s) => s.trim()).filter(Boolean);
  for (const w of wanted) {
    if (!isInterfaceName(w)) throw new Error(unknownInterface(w));
    if (!inProfile.includes(w)) throw new Error(`interface ${w} is not in the profile ${profile.name}`);
  }
  return inProfile.filter((i) => wanted.includes(i));
}

/** An interface's credentials as secret name -> environment variable (a pool of keys is flattened by its definition). */
export function credentialVariables(name: InterfaceName, credentials: unknown): Record<string, string> {
  if (!credentials) return {};
  const d = definitionOf(name) as { credentialVariables?: (c: unknown) => Record<string, string> };
  return d.credentialVariables ? d.credentialVariables(credentials) : (credentials as Record<string, string>);
}

/**
 * Where an interface's API is reached: the live base URL or the reference's address, with the path the profile says
 * the API is mounted under ("<path_prefix>"), which every request then keeps (see targetUrl).
 */
export function mountedUrl(name: InterfaceName, url: string, settings: unknown): string {
  const d = definitionOf(name) as { mount?: (settings: any) => string };
  const mount = d.mount?.(settings)?.replace(/\/+$/, '') ?? '';
  return mount ? `${url.replace(/\/+$/, '')}${mount.startsWith('/') ? '' : '/'}${mount}` : url;
}

/** Credentials a live profile names whose environment variables are not set. */
export function missingCredentials(profile: Profile, scope: InterfaceName[]): string[] {
  const missing: string[] = [];
  for (const name of scope) {
    const entry = profile.interfaces[name] as InterfaceProfile | undefined;
    if (!entry?.baseUrl) continue;
    for (const [cred, envVar] of Object.entries(credentialVariables(name, entry.credentials))) {
      if (!process.env[envVar]) missing.push(`${name}: credential ${cred} needs environment variable ${envVar}`);
    }
  }
  return missing;
}

/**
 * What every process of a run must share, settled once in the environment before its Playwright runner starts its
 * workers: the seed, the references' drawn credentials and the run id (playwright.config.ts; a grouped run's command,
 * scripts/conformance-group.ts, for each of its runs).
 */
export function settleRun(profile: Profile, scope: InterfaceName[]): void {
  runSeed();
  drawReferenceCredentials(profile, scope);
  process.env[ENV.runId] ??= randomUUID();
}

/** The reference's credentials are this run's own: any variable the profile names and the caller left unset is drawn at random. */
export function drawReferenceCredentials(profile: Profile, scope: InterfaceName[]): void {
  for (const name of scope) {
    const entry = profile.interfaces[name] as InterfaceProfile | undefined;
    if (!entry || entry.baseUrl) continue;
    for (const envVar of Object.values(credentialVariables(name, entry.credentials))) {
      if (!process.env[envVar]) process.env[envVar] = randomBytes(18).toString('base64url');
    }
  }
}

/** What a reference is started with: each secret of the entry's credentials (a role's parts flattened) from its variable, '' where unset. */
export function referenceSecrets(name: InterfaceName, credentials: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(credentialVariables(name, credentials)).map(([cred, envVar]) => [cred, process.env[envVar] ?? '']));
}

/** The secrets of one interface, read from the environment variables its profile names. */
export function secretsFor(profile: Profile, name: InterfaceName): Secrets {
  const secrets = new Secrets();
  const entry = profile.interfaces[name] as InterfaceProfile | undefined;
  for (const [cred, envVar] of Object.entries(credentialVariables(name, entry?.credentials))) {
    const value = process.env[envVar];
    if (value) secrets.add(cred, value);
  }
  return secrets;
}

/** An interface's embedded reference, as a command hands it over (scripts/interfaces.ts): the harness imports none. */
export type ReferenceOf = (name: string) => Reference | undefined;

/** Starts the reference servers an in-scope interface needs, on free loopback ports. */
export async function startReferences(profile: Profile, scope: InterfaceName[], referenceOf: ReferenceOf): Promise<{ targets: Target[]; stop(): Promise<void> }> {
  const faults = selectedFaults();
  const running: RunningServer[] = [];
  const targets: Target[] = [];
  try {
    for (const name of scope) {
      const entry = profile.interfaces[name] as InterfaceProfile | undefined;
      if (!entry) continue;
      if (entry.baseUrl) {
        targets.push({ interfaceName: name, baseUrl: mountedUrl(name, entry.baseUrl, entry.settings), reference: false });
        continue;
      }
      const secrets = referenceSecrets(name, entry.credentials);
      const faultHere = faults.filter((f) => f.interfaceName === name).map((f) => f.fault).join('+') || undefined;
      const reference = referenceOf(name);
      if (!reference) throw new Error(`interface ${name} has no embedded reference (mocks/${name}/reference.ts): give its entry a baseUrl`);
      const server = await reference.start({
        settings: entry.settings,
        reference: entry.reference ?? {},
        secrets,
        fault: faultHere,
        host: '127.0.0.1',
        port: 0,
      });
      running.push(server);
      const readings = (entry.reference as { readings?: Record<string, string> } | undefined)?.readings;
      targets.push({ interfaceName: name, baseUrl: mountedUrl(name, server.url, entry.settings), reference: true, fault: faultHere, ...(readings && Object.keys(readings).length ? { readings } : {}) });
    }
  } catch (e) {
    await Promise.all(running.map((s) => s.close()));
    throw e;
  }
  return { targets, stop: async () => void (await Promise.all(running.map((s) => s.close()))) };
}

export function publishTargets(targets: Target[]): void {
  process.env[ENV.targets] = JSON.stringify(targets);
}

/** The targets of this run, as the runner published them. */
export function publishedTargets(): Target[] {
  const raw = process.env[ENV.targets];
  if (!raw) throw new Error('no targets published: run the suites through `npm run conformance` or playwright.config.ts');
  return JSON.parse(raw) as Target[];
}
