import type { TSchema } from '@sinclair/typebox';
import type { OpenPointReadings } from '../mocks/readings.ts';
import type { Fault, RunningServer } from '../mocks/types.ts';
import type { Authenticate, Client } from './http/client.ts';
import type { Secrets } from './secrets.ts';
import type { Probe, ProbeContext } from './probe.ts';
import type { RunProfile } from './profile/types.ts';

export interface ReferenceOptions<S = any, R = any> {
  settings: S;
  reference: R;
  secrets: Record<string, string>;
  fault?: string;
  host?: string;
  port?: number;
}

/**
 * One interface of the harness, declared once: every list (paths, profile schema, self-test, bench, --list, the secret
 * search, the README's table) is derived from the registry of these (harness/registry.ts).
 */
export interface InterfaceDescriptor<N extends string = string, S extends TSchema = TSchema> {
  name: N;
  /** The document and section it comes from, as the README and --help name it. */
  title: string;
  /**
   * The embedded reference deployment and its seeded faults (mocks/<name>/). `start` imports the server when called:
   * every test worker loads every descriptor, and none of them needs the server's code.
   */
  reference: {
    start(options: ReferenceOptions): Promise<RunningServer>;
    faults: readonly Fault[];
    /** The readings of the spec's open points the reference implements (mocks/<name>/readings.ts). */
    readings: readonly OpenPointReadings[];
    /** Secrets of the deployment the reference plants in its state: never to be found in any file a run writes. */
    planted?: readonly string[];
  };
  /**
   * The interface's entry in a target profile (interfaces.<name>), declared with TypeBox: JSON Schema and its type.
   * Built when first asked for (`builtOnce`): only a process that checks a profile needs it, and TypeBox with it.
   */
  profileSchema: () => S;
  /**
   * The interface's authentication step (see Authenticate in harness/http/client.ts): requests sent with
   * `authenticate: true` get the profile's credentials from it, and replays are signed afresh through it.
   */
  authenticate?: Authenticate;
  /**
   * Where the target serves operations whose path the document does not show: profile setting (the spec's
   * `x-path-setting`) -> the path the harness sends, relative to the base URL.
   */
  paths?(settings: any): Record<string, string>;
  /** The path the API is mounted under on this target (a configured path prefix), added to its base URL. */
  mount?(settings: any): string;
  /**
   * The profile's credentials as secret name -> environment variable, where they are more than a flat map (a pool of
   * API keys); by default the credentials object is that map.
   */
  credentialVariables?(credentials: any): Record<string, string>;
  /**
   * Undoes one write an interrupted run left in the journal (harness/journal.ts), for `npm run restore`: 'restored',
   * 'nothing' when there was nothing left to undo, or a conflict (the target changed since) that it must not overwrite.
   */
  restore?(undo: any, ctx: RestoreContext): Promise<'restored' | 'nothing' | { conflict: string }>;
  /** The start-up probe and health check (see harness/probe.ts). */
  probe(ctx: ProbeContext): Probe;
  /** The profile settings a live target must state, printed by `npm run reference` for copying. */
  settingsHelp: string;
  /** What the profile makes not applicable, and why (for --list; the suites decide the same at run time). */
  notApplicable(ctx: ProfileContext): { operations: Record<string, string>; requirements: Record<string, string> };
  /** Expected wall time of the interface's suite on one worker, before the run starts (see harness/budget.ts). */
  plannedMs(ctx: ProfileContext & { depth: number; workers: number }): number;
}

export interface RestoreContext {
  client: Client;
  settings: any;
  secrets: Secrets;
}

export interface ProfileContext {
  profile: RunProfile;
  settings: any;
  /** The entry's base URL (a live target), or undefined for the embedded reference. */
  baseUrl?: string;
  /** The entry's credentials as the profile names them (environment-variable names, never values). */
  credentials?: any;
  live: boolean;
}

export function defineInterface<N extends string, S extends TSchema>(d: InterfaceDescriptor<N, S>): InterfaceDescriptor<N, S> {
  return d;
}
