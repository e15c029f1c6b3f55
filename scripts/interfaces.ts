/**
 * Every interface of the registry put together, for the commands: its definition (interfaces/<name>/), what its suite
 * does with it (suites/<name>/interface.ts) and its embedded reference (mocks/<name>/reference.ts), both found by the
 * interface's name. The only place where the layers meet: the harness imports neither suites nor references, and the
 * references import no suite (see .dependency-cruiser.cjs).
 */
import { DEFINITIONS, type InterfaceName } from '../interfaces/registry.ts';
import type { InterfaceDescriptor, Suite } from '../harness/interface.ts';
import type { Reference } from '../harness/reference.ts';
import type { Catalogues } from '../harness/readings.ts';
import { withNoiseVariant } from '../mocks/noise.ts';
import { withEnvironmentTrouble } from '../mocks/environment.ts';

export { INTERFACES, PLANNED, isInterfaceName, unknownInterface, type InterfaceName } from '../interfaces/registry.ts';

async function composed(definition: (typeof DEFINITIONS)[number]): Promise<InterfaceDescriptor> {
  const { suite } = (await import(`../suites/${definition.name}/interface.ts`)) as { suite: Suite };
  const { reference } = (await import(`../mocks/${definition.name}/reference.ts`)) as { reference: Reference };
  if (suite?.definition !== definition) throw new Error(`suites/${definition.name}/interface.ts exports no suite of ${definition.name} (export const suite = defineSuite(...))`);
  if (!reference) throw new Error(`mocks/${definition.name}/reference.ts exports no reference`);
  const { definition: _, ...behaviour } = suite;
  // Every reference can start in its noisy variant (reference.noise), which the behaviour diff's tests measure, and
  // behind a trouble of its environment (reference.trouble), which the environment self-test puts in front of it.
  return { ...definition, ...behaviour, reference: withEnvironmentTrouble(withNoiseVariant(reference), definition.name) };
}

/** The interfaces, in the registry's order. */
export const REGISTRY: readonly InterfaceDescriptor[] = await Promise.all(DEFINITIONS.map(composed));

export function descriptorOf(name: InterfaceName): InterfaceDescriptor {
  return REGISTRY.find((d) => d.name === name)!;
}

/** The embedded reference of an interface (harness/targets.ts starts it). */
export const referenceOf = (name: string): Reference | undefined => REGISTRY.find((d) => d.name === name)?.reference;

/** The readings each reference implements (harness/readings.ts). */
export const CATALOGUES: Catalogues = Object.fromEntries(REGISTRY.map((d) => [d.name, d.reference.readings]));
