import type { FullConfig } from '@playwright/test';
import { forgetSilence } from './http/silence.ts';
import { forgetIdentities } from './identity.ts';
import { loadProfile } from './profile/load.ts';
import { interfacesInScope, publishTargets, startReferences } from './targets.ts';

/** Starts the embedded reference servers the profile asks for and publishes every target's URL to the workers. */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const profile = loadProfile();
  const { targets, stop } = await startReferences(profile, interfacesInScope(profile));
  publishTargets(targets);
  return async () => {
    await stop();
    forgetSilence();
    forgetIdentities();
  };
}
