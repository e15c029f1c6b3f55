import { defineInterface, type InterfaceDefinition } from '../definition.ts';
import { poolVariables } from './credentials.ts';
import { SPEC_PATHS, pathOf } from './paths.ts';
import { exchangeSessionEntry, type ExchangeSessionSettings, type PoolKeyEntry } from './settings.ts';

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const exchangeSession: InterfaceDefinition<'exchange-session', ReturnType<typeof exchangeSessionEntry>> = defineInterface({
  name: 'exchange-session',
  title: 'Interface A of 000_474e08d6792acf13.txt, exchange sessions: signed logins, trading accounts, the nonce range and limit orders (/trading-api)',
  profileSchema: exchangeSessionEntry,
  paths: (settings: ExchangeSessionSettings) => Object.fromEntries(SPEC_PATHS.map((p) => [p, pathOf(settings, p)])),
  credentialVariables: (credentials: { keys?: PoolKeyEntry[] }) => poolVariables(credentials.keys ?? []),
});
