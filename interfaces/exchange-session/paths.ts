import type { ExchangeSessionSettings } from './settings.ts';

/** The operations whose path the profile gives (the spec's x-path-setting). */
export const SPEC_PATHS = ['ecdsaLogin', 'hmacLogin', 'tradingAccounts', 'nonce', 'orders', 'order'] as const;

/** Where the harness sends an operation: the profile's path, without what the base URL already carries. */
export function pathOf(settings: ExchangeSessionSettings, which: keyof ExchangeSessionSettings['paths'], orderId?: string): string {
  const p = settings.paths[which];
  if (p === undefined) throw new Error(`the profile names no path for ${which}`);
  const carried = settings.baseUrlCarries?.replace(/\/+$/, '');
  const relative = carried && p.startsWith(`${carried}/`) ? p.slice(carried.length) : p;
  return orderId === undefined ? relative : relative.replace('{orderId}', encodeURIComponent(orderId));
}
