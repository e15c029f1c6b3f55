import type { Exchange } from '../http/exchange.ts';

export const CASSETTE_SCHEMA_VERSION = 2;

/**
 * The exchanges of one failure and everything needed to judge the same requirement again against the same target
 * (or another): never a secret, only the names of the profile's credentials inside `{{secret:...}}` tokens.
 */
export interface Cassette {
  schemaVersion: typeof CASSETTE_SCHEMA_VERSION;
  interface: string;
  /** The requirement the failed request was testing; `touches` lists every requirement the same evidence failed. */
  requirement: string;
  touches: string[];
  test: string;
  target: { profile: string; profileFile: string; baseUrl: string; reference: boolean; fault?: string };
  seed: number;
  depth: string;
  /** The conformance command that reruns the check (for a property: its shrunk case). */
  replay: string;
  exchanges: Exchange[];
}
