import { test, expect, reqTags } from '../../harness/fixtures.ts';
import type { Client } from '../../harness/http/client.ts';
import type { BridgeSettings } from '../../harness/profile/types.ts';
import type { Secrets } from '../../harness/secrets.ts';
import type { components } from '../../generated/game-bridge.ts';
import { KEY_HEADER } from './model.ts';

type Schemas = components['schemas'];

const GENERIC = ['C-GEN-SCHEMA', 'C-GEN-CONTENT-TYPE'];
/** Marks the requirements of a read not applicable when the profile switches its endpoint off; true when it does. */
function switchedOff(endpoints: BridgeSettings['endpoints'], name: 'status' | 'players' | 'info', ids: string[], notApplicable: (id: string, why: string) => void): boolean {
  if (endpoints[name] !== false) return false;
  for (const id of ids) notApplicable(id, `GET /v2/${name} is switched off in the profile (endpoints.${name} false)`);
  return true;
}

const read = <T>(api: Client, secrets: Secrets, path: string) => api.send<T>({ method: 'GET', path, headers: { [KEY_HEADER]: secrets.get('authKey') } });

test('GET /v2/status: 200 with ok true and no other data', { tag: reqTags('C-STATUS-200', 'C-STATUS-NO-DATA', ...GENERIC) }, async ({ api, secrets, profile, verify, notApplicable }) => {
  if (switchedOff(profile.interfaces['game-bridge']!.settings.endpoints, 'status', ['C-STATUS-200', 'C-STATUS-NO-DATA'], notApplicable)) return;
  await verify('C-STATUS-200', async () => {
    const r = await read<Schemas['StatusResponse']>(api, secrets, '/v2/status');
    expect(r.status, 'status').toBe(200);
    expect(r.json?.ok, 'ok').toBe(true);
  });
  await verify('C-STATUS-NO-DATA', async () => {
    const r = await read<Schemas['StatusResponse']>(api, secrets, '/v2/status');
    expect(r.status, 'status').toBe(200);
    expect(r.json, '"carries no other data"').toEqual({ ok: true });
  });
});

test('GET /v2/players: the true count and at most max-list names', { tag: reqTags('C-PLAYERS-200', 'C-PLAYERS-COUNT-TOTAL', 'C-PLAYERS-TRUNCATE', ...GENERIC) }, async ({ api, secrets, profile, verify, notApplicable }) => {
  const { endpoints, maxList, onlinePlayers } = profile.interfaces['game-bridge']!.settings;
  if (switchedOff(endpoints, 'players', ['C-PLAYERS-200', 'C-PLAYERS-COUNT-TOTAL', 'C-PLAYERS-TRUNCATE'], notApplicable)) return;
  await verify('C-PLAYERS-200', async () => {
    const r = await read<Schemas['PlayersResponse']>(api, secrets, '/v2/players');
    expect(r.status, 'status').toBe(200);
    expect(r.json?.ok, 'ok').toBe(true);
    const { count, players } = r.json ?? {};
    expect(Number.isInteger(count) && count! >= 0, `count ${JSON.stringify(count)} is a whole number`).toBe(true);
    expect(Array.isArray(players) && players.every((p: unknown) => typeof p === 'string'), 'players is an array of strings').toBe(true);
  });
  await verify('C-PLAYERS-COUNT-TOTAL', async () => {
    const { count, players } = (await read<Schemas['PlayersResponse']>(api, secrets, '/v2/players')).json ?? {};
    if (onlinePlayers !== undefined) expect(count, `count: the profile has ${onlinePlayers} players online`).toBe(onlinePlayers);
    expect(count, 'count is never less than the names listed').toBeGreaterThanOrEqual(players?.length ?? 0);
  });
  await verify('C-PLAYERS-TRUNCATE', async () => {
    const { count, players } = (await read<Schemas['PlayersResponse']>(api, secrets, '/v2/players')).json ?? {};
    // The profile's count where it gives one, so that a wrong count (C-PLAYERS-COUNT-TOTAL) is not blamed here too.
    const total = onlinePlayers ?? count;
    if (total === undefined || !Number.isInteger(total)) throw new Error(`count ${JSON.stringify(count)} is not a whole number and the profile gives no onlinePlayers: the number of names expected is unknown`);
    expect(players?.length, `names listed: min(${total} online, max-list ${maxList})`).toBe(Math.min(total, maxList));
  });
});

test('GET /v2/info: the bridge object with a lowercase platform', { tag: reqTags('C-INFO-BRIDGE', 'C-INFO-PLATFORM-LOWERCASE', 'C-INFO-PLATFORM-PROFILE', ...GENERIC) }, async ({ api, secrets, profile, verify, notApplicable }) => {
  const { endpoints, platform } = profile.interfaces['game-bridge']!.settings;
  if (switchedOff(endpoints, 'info', ['C-INFO-BRIDGE', 'C-INFO-PLATFORM-LOWERCASE', 'C-INFO-PLATFORM-PROFILE'], notApplicable)) return;
  await verify('C-INFO-BRIDGE', async () => {
    const r = await read<Schemas['InfoResponse']>(api, secrets, '/v2/info');
    expect(r.status, 'status').toBe(200);
    expect(r.json?.ok, 'ok').toBe(true);
    for (const field of ['version', 'platform', 'game'] as const) expect(typeof r.json?.bridge?.[field], `bridge.${field}`).toBe('string');
  });
  await verify('C-INFO-PLATFORM-LOWERCASE', async () => {
    const r = await read<Schemas['InfoResponse']>(api, secrets, '/v2/info');
    expect(r.json?.bridge?.platform, 'bridge.platform, a lowercase identifier').toMatch(/^[a-z0-9_.-]+$/);
  });
  if (platform === undefined) notApplicable('C-INFO-PLATFORM-PROFILE', 'the profile names no platform (settings.platform)');
  else {
    await verify('C-INFO-PLATFORM-PROFILE', async () => {
      const r = await read<Schemas['InfoResponse']>(api, secrets, '/v2/info');
      expect(r.json?.bridge?.platform, 'bridge.platform, as the profile names it').toBe(platform);
    });
  }
});

test('GET /v2/tps exists', { tag: reqTags('C-TPS-EXISTS') }, async ({ api, secrets, verify }) => {
  // Its contract is not shown (C-NS-TPS): only that the path is served.
  await verify('C-TPS-EXISTS', async () => {
    const r = await read(api, secrets, '/v2/tps');
    expect(r.status, 'GET /v2/tps with the right key').not.toBe(404);
  });
});
