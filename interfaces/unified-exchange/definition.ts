import { defineInterface, type InterfaceDefinition } from '../definition.ts';
import { keyVariables, unifiedExchangeEntry, type UnifiedExchangeSettings } from './settings.ts';

/** The spec's paths that a profile relocates (x-path-setting) -> the setting naming where the target serves them. */
export const PATH_SETTINGS = {
  '/api/v3/trade/order-info': 'orderInfo',
  '/api/v3/copy/futures/trading-pairs': 'copyTradingPairs',
  '/api/v3/copy/futures/max-transferable': 'copyMaxTransferable',
  '/api/v3/copy/futures/transfer': 'copyTransfer',
} as const;

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const unifiedExchange: InterfaceDefinition<'unified-exchange', ReturnType<typeof unifiedExchangeEntry>> = defineInterface({
  name: 'unified-exchange',
  title: 'The unified-account exchange of 001_627a805a8a8ef522.txt: market data, the unified account, trading in five categories, copy trading, earn, loans, P2P and broker sub-accounts (/api/v3)',
  profileSchema: unifiedExchangeEntry,
  paths: (settings: UnifiedExchangeSettings) =>
    // Keyed by the setting's name, as the spec's x-path-setting names it (harness/spec/load.ts `relocated`).
    Object.fromEntries(Object.entries(PATH_SETTINGS).map(([specPath, setting]) => [setting, settings?.paths?.[setting] ?? specPath])),
  credentialVariables: (credentials) => keyVariables(credentials ?? {}),
});
