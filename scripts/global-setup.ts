import type { FullConfig } from '@playwright/test';
import { forgetTrouble } from '../harness/http/trouble.ts';
import { forgetIdentities } from '../harness/identity.ts';
import { loadProfile } from '../harness/profile/load.ts';
import { interfacesInScope, publishTargets, startReferences } from '../harness/targets.ts';
import { referenceOf } from './interfaces.ts';

/** Starts the embedded reference servers the profile asks for and publishes every target's URL to the workers. */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const profile = loadProfile();
  const { targets, stop } = await startReferences(profile, interfacesInScope(profile), referenceOf);
  publishTargets(targets);
  return async () => {
    await stop();
    forgetTrouble();
    forgetIdentities();
  };
}
