import { isStated } from '../../harness/profile/load.ts';
import type { Profile } from '../../harness/profile/types.ts';
import type { StatedReadings } from './model.ts';

// Kept apart from the profile entry (interfaces/game-bridge/settings.ts), which the profile loader imports.

/** What the profile states of the open points the model needs (see StatedReadings in model.ts). */
export function statedReadings(profile: Pick<Profile, 'stated' | 'interfaces'>): StatedReadings {
  const settings = profile.interfaces['game-bridge']?.settings;
  const stated = (setting: string) => isStated(profile, 'game-bridge', setting);
  return {
    ...(stated('logRequiresContentType') ? { logRequiresContentType: settings?.logRequiresContentType === true } : {}),
    ...(stated('extras') ? { extras: true } : {}),
  };
}
