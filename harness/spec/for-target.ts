import { definitionOf, type InterfaceName } from '../../interfaces/registry.ts';
import { loadSpec, relocated } from './load.ts';
import type { LoadedSpec } from './types.ts';

/** The spec of an interface with its operations at the paths the target's profile names (see `relocated`). */
export function specForTarget(name: InterfaceName, settings: unknown): LoadedSpec {
  const d = definitionOf(name) as { paths?: (settings: any) => Record<string, string> };
  return relocated(loadSpec(name), d.paths?.(settings) ?? {});
}
