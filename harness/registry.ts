import { chat } from '../suites/chat/interface.ts';
import { exchangeSession } from '../suites/exchange-session/interface.ts';
import { gameBridge } from '../suites/game-bridge/interface.ts';
import { streamProxy } from '../suites/stream-proxy/interface.ts';
import { usageEvents } from '../suites/usage-events/interface.ts';

/**
 * The interfaces the harness covers, in the order reports list them: one line each. Everything else that lists
 * interfaces (paths, the profile schema, the self-test, bench, --list, the secret search) is derived from this.
 */
export const REGISTRY = [exchangeSession, streamProxy, usageEvents, gameBridge, chat] as const;

/** Announced in the README, not built yet: named so that a user who asks for one is told, not puzzled. */
export const PLANNED = ['unified-exchange'] as const;

export type InterfaceName = (typeof REGISTRY)[number]['name'];
export const INTERFACES: readonly InterfaceName[] = REGISTRY.map((d) => d.name);

export function isInterfaceName(name: string): name is InterfaceName {
  return (INTERFACES as readonly string[]).includes(name);
}

export function descriptorOf(name: InterfaceName): (typeof REGISTRY)[number] {
  return REGISTRY.find((d) => d.name === name)!;
}

/** The line that answers a name the harness does not know. */
export function unknownInterface(name: string): string {
  if ((PLANNED as readonly string[]).includes(name)) return `interface ${name} is not covered yet (covered: ${INTERFACES.join(', ')})`;
  return `unknown interface ${JSON.stringify(name)}; the harness covers ${INTERFACES.join(', ')} (not covered yet: ${PLANNED.join(', ')})`;
}
