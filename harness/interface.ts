import type { TSchema } from '@sinclair/typebox';
import type { InterfaceDefinition } from '../interfaces/definition.ts';
import type { Authenticate, Client } from './http/client.ts';
import type { Secrets } from './secrets.ts';
import type { Probe, ProbeContext } from './probe.ts';
import type { RunProfile } from './profile/types.ts';
import type { Reference } from './reference.ts';

export type { ReferenceOptions } from './reference.ts';

/**
 * What a suite knows how to do with its interface beyond the definition (interfaces/<name>/definition.ts): sign a
 * request, tell the API from something else at its address, undo a write, say what a profile leaves out and how long
 * the suite takes. Declared in suites/<name>/interface.ts; the suite's tests get it through their `test`
 * (suites/<name>/test.ts), the commands through scripts/interfaces.ts.
 */
export interface SuiteBehaviour {
  /**
   * The interface's authentication step (see Authenticate in harness/http/client.ts): requests sent with
   * `authenticate: true` get the profile's credentials from it, and replays are signed afresh through it.
   */
  authenticate?: Authenticate;
  /**
   * Undoes one write an interrupted run left in the journal (harness/journal.ts), for `npm run restore`: 'restored',
   * 'nothing' when there was nothing left to undo, or a conflict (the target changed since) that it must not overwrite.
   */
  restore?(undo: any, ctx: RestoreContext): Promise<'restored' | 'nothing' | { conflict: string }>;
  /** The start-up probe and health check (see harness/probe.ts). */
  probe(ctx: ProbeContext): Probe;
  /** What the profile makes not applicable, and why (for --list; the suites decide the same at run time). */
  notApplicable(ctx: ProfileContext): { operations: Record<string, string>; requirements: Record<string, string> };
  /** Expected wall time of the interface's suite on one worker, before the run starts (see harness/budget.ts). */
  plannedMs(ctx: ProfileContext & { depth: number; workers: number }): number;
}

/** A suite: its interface's definition and what it does with it. */
export interface Suite<N extends string = string> extends SuiteBehaviour {
  definition: InterfaceDefinition<N>;
}

export function defineSuite<N extends string, S extends TSchema>(definition: InterfaceDefinition<N, S>, behaviour: SuiteBehaviour): Suite<N> {
  return { definition: definition as unknown as InterfaceDefinition<N>, ...behaviour };
}

/**
 * One interface, put together by a command (scripts/interfaces.ts): its definition, its suite's behaviour and its
 * embedded reference.
 */
export interface InterfaceDescriptor<N extends string = string> extends InterfaceDefinition<N>, SuiteBehaviour {
  reference: Reference;
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
