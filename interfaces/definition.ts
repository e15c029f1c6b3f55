import type { TSchema } from '@sinclair/typebox';

/**
 * What an interface is, before any check or server: its name, its document, the entry a target profile gives it and
 * where its operations are served. The bottom layer: the harness, the suites and the references import it, and it
 * imports none of them (see .dependency-cruiser.cjs). What a suite does (sign, probe, restore) is in
 * suites/<name>/interface.ts; the reference is mocks/<name>/reference.ts.
 */
export interface InterfaceDefinition<N extends string = string, S extends TSchema = TSchema> {
  name: N;
  /** The document and section it comes from, as the README and --help name it. */
  title: string;
  /**
   * The interface's entry in a target profile (interfaces.<name>), declared with TypeBox: JSON Schema and its type.
   * Built when first asked for (`builtOnce`): only a process that checks a profile needs it, and TypeBox with it. The
   * profile template is made from it (harness/profile/template.ts): each setting's `description`, and `examples` for
   * the settings a profile must state and for the credentials.
   */
  profileSchema: () => S;
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
}

export function defineInterface<N extends string, S extends TSchema>(d: InterfaceDefinition<N, S>): InterfaceDefinition<N, S> {
  return d;
}
