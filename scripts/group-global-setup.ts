import { forgetTrouble } from '../harness/http/trouble.ts';
import { forgetIdentities } from '../harness/identity.ts';
import { ENV } from '../harness/options.ts';
import { loadProfile } from '../harness/profile/load.ts';
import { interfacesInScope, startReferences } from '../harness/targets.ts';
import { referenceOf } from './interfaces.ts';
import { withEnvAsync } from '../harness/group/env.ts';
import { GROUP_ENV, readManifest, writeManifest } from '../harness/group/manifest.ts';

/**
 * The global set-up of a grouped run (harness/group/manifest.ts): each configuration's embedded references, started
 * side by side in this process as its own run starts them (own listeners, own state, its faults and readings), and
 * their targets written into its environment in the manifest, where its tests and reporters read them.
 */
export default async function groupSetup(): Promise<() => Promise<void>> {
  const file = process.env[GROUP_ENV]!;
  const manifest = readManifest(file)!;
  const stops: Array<() => Promise<void>> = [];
  try {
    for (const c of manifest.configurations) {
      await withEnvAsync(c.env, async () => {
        const profile = loadProfile();
        const { targets, stop } = await startReferences(profile, interfacesInScope(profile), referenceOf);
        stops.push(stop);
        c.env[ENV.targets] = JSON.stringify(targets);
      });
    }
  } catch (e) {
    await Promise.all(stops.map((s) => s()));
    throw e;
  }
  writeManifest(file, manifest);
  return async () => {
    await Promise.all(stops.map((s) => s()));
    for (const c of manifest.configurations) {
      forgetTrouble(c.env[ENV.runId]);
      forgetIdentities(c.env[ENV.runId]);
    }
  };
}
