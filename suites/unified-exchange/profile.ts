/** The unified-exchange entry of the run's profile, for the suite's own checks. */
import type { Profile } from '../../harness/profile/types.ts';
import { isStated } from '../../harness/profile/load.ts';
import type { UnifiedExchangeSettings } from '../../interfaces/unified-exchange/settings.ts';

export const UX = 'unified-exchange';

type Entry = { settings?: UnifiedExchangeSettings; credentials?: Record<string, unknown> };
const entryOf = (profile: Pick<Profile, 'interfaces'>): Entry | undefined => (profile.interfaces as Record<string, Entry | undefined>)[UX];

/** The entry's settings, defaults filled in by the profile's loader. */
export const settingsOf = (profile: Pick<Profile, 'interfaces'>): UnifiedExchangeSettings => entryOf(profile)?.settings as UnifiedExchangeSettings;
/** Whether the profile states a setting (a dotted path under settings): only then is its value asserted. */
export const stated = (profile: Pick<Profile, 'stated'>, setting: string): boolean => isStated(profile, UX, setting);
/**
 * Whether the earn products are flat (a redemption names the subscription's orderId) or nested (it names the
 * sub-product), as the profile states (U-NS-EARN-PRODUCTS); undefined where it does not say.
 */
export const flatEarnProducts = (profile: Pick<Profile, 'interfaces' | 'stated'>): boolean | undefined =>
  stated(profile, 'earn.products') ? settingsOf(profile).earn.products === 'flat' : undefined;
/**
 * Whether the profile states that its trade key lacks copy-trading permission (settings.tradeKeyCopyTrading: false):
 * only then may a copy-trading operation be held to refusing it. Nothing else says the trade key lacks it.
 */
export const tradeKeyLacksCopyTrading = (profile: Pick<Profile, 'interfaces' | 'stated'>): boolean => stated(profile, 'tradeKeyCopyTrading') && settingsOf(profile).tradeKeyCopyTrading === false;
/** The key roles the profile names. */
export const rolesOf = (profile: Pick<Profile, 'interfaces'>): string[] => Object.keys(entryOf(profile)?.credentials ?? {});
/**
 * Whether only the harness moves the accounts' funds while it runs (settings.exclusiveAccounts): as the profile states;
 * unstated, the embedded reference's accounts are (the harness made their keys for the run), a live target's are not.
 */
export const exclusiveAccounts = (profile: Pick<Profile, 'interfaces' | 'stated'>, reference: boolean): boolean =>
  stated(profile, 'exclusiveAccounts') ? settingsOf(profile).exclusiveAccounts : reference;
