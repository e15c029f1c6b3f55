import { chat } from './chat/definition.ts';
import { exchangeSession } from './exchange-session/definition.ts';
import { gameBridge } from './game-bridge/definition.ts';
import { streamProxy } from './stream-proxy/definition.ts';
import { usageEvents } from './usage-events/definition.ts';

/**
 * The interfaces the harness covers, in the order reports list them: one line each. Everything else that lists
 * interfaces (paths, the profile schema, the self-test, bench, --list, the secret search) is derived from this; each
 * interface's suite (suites/<name>/interface.ts) and reference (mocks/<name>/reference.ts) are found by its name.
 */
export const DEFINITIONS = [exchangeSession, streamProxy, usageEvents, gameBridge, chat] as const;

/**
 * Announced in the README, not built yet: named so that a user who asks for one is told, not puzzled. unified-exchange
 * has its definition, reference and suite (interfaces/, mocks/, suites/unified-exchange/) and its profiles waiting in
 * targets/pending/: it joins DEFINITIONS when its seeded faults are all caught in the other readings too.
 */
export const PLANNED = ['unified-exchange'] as const;

export type InterfaceName = (typeof DEFINITIONS)[number]['name'];
export const INTERFACES: readonly InterfaceName[] = DEFINITIONS.map((d) => d.name);

export function isInterfaceName(name: string): name is InterfaceName {
  return (INTERFACES as readonly string[]).includes(name);
}

export function definitionOf(name: InterfaceName): (typeof DEFINITIONS)[number] {
  return DEFINITIONS.find((d) => d.name === name)!;
}

/** The line that answers a name the harness does not know. */
export function unknownInterface(name: string): string {
  if ((PLANNED as readonly string[]).includes(name)) return `interface ${name} is not covered yet (covered: ${INTERFACES.join(', ')})`;
  return `unknown interface ${JSON.stringify(name)}; the harness covers ${INTERFACES.join(', ')} (not covered yet: ${PLANNED.join(', ')})`;
}
