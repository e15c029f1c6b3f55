import type { Static, TSchema } from '@sinclair/typebox';
import type { DEFINITIONS } from '../../interfaces/registry.ts';

/**
 * The types of a target profile, derived from the declarations (no second copy to keep in step): each interface's
 * entry from the TypeBox schema its definition declares (interfaces/<name>/settings.ts), the rest from
 * harness/profile/schema.ts. The loader fills in the schema's defaults, so a defaulted setting is always present.
 */
type Definition = (typeof DEFINITIONS)[number];
type EntryOf<D> = D extends { profileSchema: () => infer S } ? (S extends TSchema ? Static<S> : never) : never;

export type InterfaceEntries = { [D in Definition as D['name']]?: EntryOf<D> };
export type SettingsOf<N extends keyof InterfaceEntries> = NonNullable<InterfaceEntries[N]>['settings'];

export type BridgeSettings = SettingsOf<'game-bridge'>;
export type ChatSettings = SettingsOf<'chat'>;

/** What every interface's entry has, whatever its settings. */
export interface InterfaceProfile<S = Record<string, unknown>> {
  baseUrl?: string;
  reference?: Record<string, unknown>;
  /** credential name -> environment variable name */
  credentials?: Record<string, string>;
  settings: S;
}

/** The run-wide part of a profile: what an interface's suite may read (its own entry comes to it apart). */
export interface RunProfile {
  name: string;
  description?: string;
  file: string;
  writes: boolean;
  requestsPerSecond: number;
  requestTimeoutMs: number;
  probeTimeoutMs: number;
  maxRunMinutes?: number;
  /** The environment variable holding the Ed25519 key that signs acceptance records (--record). */
  recordSigningKey?: string;
  /** The depth of a run that gives no --depth. */
  depth?: 'quick' | 'default' | 'deep' | number;
}

export interface Profile extends RunProfile {
  interfaces: InterfaceEntries;
  /**
   * The settings each interface's entry states, as dotted paths (objects and leaves), before defaults were filled in:
   * see isStated in harness/profile/load.ts.
   */
  stated?: Record<string, string[]>;
}
