import { groupOf, loadSpec } from '../../harness/spec/load.ts';
import type { StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';

/** What a profile lets the stream-proxy suite judge, and why the rest is not applicable. */
export interface StreamScope {
  operations: Record<string, string>;
  requirements: Record<string, string>;
}

/** The operations that change state: those the spec marks x-write (never a list kept by hand beside it). */
const writeOperations = () => loadSpec('stream-proxy').operations.filter((op) => op.write).map((op) => op.key);
/** The requirements of the configuration saves and of the proxy users: groups of the spec. */
const group = (name: string) => groupOf(loadSpec('stream-proxy'), name);

/** Slower than this, the web-player expiry is a slow check, run only where the profile turns slow checks on. */
export const SLOW_EXPIRY_MS = 10_000;

export function streamScope(s: StreamProxySettings, o: { writes: boolean; live: boolean }): StreamScope {
  const operations: Record<string, string> = {};
  const requirements: Record<string, string> = {};
  const na = (ids: string[], why: string) => ids.forEach((id) => (requirements[id] ??= why));
  if (!o.writes) {
    const why = 'the profile does not allow writes: no configuration is saved, no user changed, no update or scan started';
    for (const op of writeOperations()) operations[op] = why;
    na([...group('config-saves'), ...group('proxy-users'), 'B-UPDATE-ACCEPTED', 'B-UPDATE-COLLAPSED', 'B-UPDATE-INVALID', 'B-LIBRARY-SCAN', 'B-USER-BOUQUET'], why);
  }
  if (s.webAuthEnabled) na(['B-AUTH-BYPASS'], 'web_auth_enabled is true in the profile: admin protection applies');
  else na(['B-AUTH-ADMIN'], 'web_auth_enabled is false in the profile: no token is needed');
  if (s.userUiEnabled) na(['B-USER-UI-OFF'], 'user_ui_enabled is true in the profile: the user endpoints exist');
  else na(['B-USER-AUTH', 'B-USER-BOUQUET'], 'user_ui_enabled is false in the profile: the user endpoints do not exist');
  if (s.libraryEnabled) na(['B-LIBRARY-DISABLED'], 'library.enabled is true in the profile');
  else na(['B-LIBRARY-SCAN', 'B-LIBRARY-STATUS'], 'library.enabled is false in the profile: the library endpoints do not exist');
  if (s.targets.length < 2) na(['B-USER-MOVE'], 'the profile names one target: a user cannot be moved to another');
  if (s.webPlayerTokenMs >= SLOW_EXPIRY_MS && !s.slowChecks) na(['B-WEBPLAYER-EXPIRY'], `waiting out a ${s.webPlayerTokenMs / 1000} s token is a slow check: the profile does not turn slow checks on (settings.slowChecks)`);
  return { operations, requirements };
}
