/**
 * Which settings the run's profile states, for the parts of the suite that run outside a test's fixtures (the
 * authentication step logs in on its own). The exchange fixture tells this process (one profile per run); until told,
 * as in `npm run restore`, every setting counts as stated and the profile's values are used as they are.
 */
import { runScoped } from '../../harness/run-scoped.ts';
const told = runScoped((): { stated: (setting: string) => boolean } => ({ stated: () => true }));

export function knowStatedSettings(isStated: (setting: string) => boolean): void {
  told().stated = isStated;
}

/** Whether the profile states a setting (a dotted path under the interface's settings) rather than leaving its default. */
export function stated(setting: string): boolean {
  return told().stated(setting);
}
