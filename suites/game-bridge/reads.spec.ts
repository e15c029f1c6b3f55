import { test, expect, reqTags, NotTested, deviation } from '../../harness/fixtures.ts';
import type { Client } from '../../harness/http/client.ts';
import type { BridgeSettings } from '../../harness/profile/types.ts';
import type { components } from '../../generated/game-bridge.ts';
import { methodCaseFits } from './model.ts';

type Schemas = components['schemas'];

const GENERIC = ['C-GEN-SCHEMA', 'C-GEN-CONTENT-TYPE'];
/** Marks the requirements of a read not applicable when the profile switches its endpoint off; true when it does. */
function switchedOff(endpoints: BridgeSettings['endpoints'], name: 'status' | 'players' | 'info', ids: string[], notApplicable: (id: string, why: string) => void): boolean {
  if (endpoints[name] !== false) return false;
  for (const id of ids) notApplicable(id, `GET /v2/${name} is switched off in the profile (endpoints.${name} false)`);
  return true;
}

const read = <T>(api: Client, path: string) => api.send<T>({ method: 'GET', path, authenticate: true });

test('GET /v2/status: 200 with ok true and no other data', { tag: reqTags('C-STATUS-200', 'C-STATUS-NO-DATA', ...GENERIC) }, async ({ api, profile, verify, notApplicable }) => {
  if (switchedOff(profile.interfaces['game-bridge']!.settings.endpoints, 'status', ['C-STATUS-200', 'C-STATUS-NO-DATA'], notApplicable)) return;
  await verify('C-STATUS-200', async () => {
    const r = await read<Schemas['StatusResponse']>(api, '/v2/status');
    expect(r.status, 'status').toBe(200);
    expect(r.json?.ok, 'ok').toBe(true);
  });
  await verify('C-STATUS-NO-DATA', async () => {
    const r = await read<Schemas['StatusResponse']>(api, '/v2/status');
    expect(r.status, 'status').toBe(200);
    expect(r.json, '"carries no other data"').toEqual({ ok: true });
  });
});

test('GET /v2/players: the true count and at most max-list names', { tag: reqTags('C-PLAYERS-200', 'C-PLAYERS-COUNT-TOTAL', 'C-PLAYERS-TRUNCATE', ...GENERIC) }, async ({ api, profile, verify, notApplicable }) => {
  const { endpoints, maxList, onlinePlayers } = profile.interfaces['game-bridge']!.settings;
  if (switchedOff(endpoints, 'players', ['C-PLAYERS-200', 'C-PLAYERS-COUNT-TOTAL', 'C-PLAYERS-TRUNCATE'], notApplicable)) return;
  await verify('C-PLAYERS-200', async () => {
    const r = await read<Schemas['PlayersResponse']>(api, '/v2/players');
    expect(r.status, 'status').toBe(200);
    expect(r.json?.ok, 'ok').toBe(true);
    const { count, players } = r.json ?? {};
    expect(Number.isInteger(count) && count! >= 0, `count ${JSON.stringify(count)} is a whole number`).toBe(true);
    expect(Array.isArray(players) && players.every((p: unknown) => typeof p === 'string'), 'players is an array of strings').toBe(true);
  });
  await verify('C-PLAYERS-COUNT-TOTAL', async () => {
    const { count, players } = (await read<Schemas['PlayersResponse']>(api, '/v2/players')).json ?? {};
    expect(count, 'count is never less than the names listed').toBeGreaterThanOrEqual(players?.length ?? 0);
    // "The true total" can only be seen against a count known from elsewhere: the profile's.
    if (onlinePlayers === undefined) throw new NotTested('the profile gives no onlinePlayers: the true number of players online is unknown, so only "count is never less than the names listed" was checked');
    expect(count, `count: the profile has ${onlinePlayers} players online`).toBe(onlinePlayers);
  });
  await verify('C-PLAYERS-TRUNCATE', async () => {
    const { count, players } = (await read<Schemas['PlayersResponse']>(api, '/v2/players')).json ?? {};
    // The profile's count where it gives one, so that a wrong count (C-PLAYERS-COUNT-TOTAL) is not blamed here too.
    const total = onlinePlayers ?? count;
    if (total === undefined || !Number.isInteger(total)) throw new Error(`count ${JSON.stringify(count)} is not a whole number and the profile gives no onlinePlayers: the number of names expected is unknown`);
    expect(players?.length, `names listed: min(${total} online, max-list ${maxList})`).toBe(Math.min(total, maxList));
    if (total <= maxList) throw new NotTested(`${total} players online, no more than max-list ${maxList}: no truncation to see (all names were listed, as they must be)`);
  });
});

test('GET /v2/info: the bridge object with a lowercase platform', { tag: reqTags('C-INFO-BRIDGE', 'C-INFO-PLATFORM-LOWERCASE', 'C-INFO-PLATFORM-PROFILE', ...GENERIC) }, async ({ api, profile, verify, notApplicable }) => {
  const { endpoints, platform } = profile.interfaces['game-bridge']!.settings;
  if (switchedOff(endpoints, 'info', ['C-INFO-BRIDGE', 'C-INFO-PLATFORM-LOWERCASE', 'C-INFO-PLATFORM-PROFILE'], notApplicable)) return;
  await verify('C-INFO-BRIDGE', async () => {
    const r = await read<Schemas['InfoResponse']>(api, '/v2/info');
    expect(r.status, 'status').toBe(200);
    expect(r.json?.ok, 'ok').toBe(true);
    for (const field of ['version', 'platform', 'game'] as const) expect(typeof r.json?.bridge?.[field], `bridge.${field}`).toBe('string');
  });
  await verify('C-INFO-PLATFORM-LOWERCASE', async () => {
    const r = await read<Schemas['InfoResponse']>(api, '/v2/info');
    expect(r.json?.bridge?.platform, 'bridge.platform, a lowercase identifier').toMatch(/^[a-z0-9_.-]+$/);
  });
  if (platform === undefined) notApplicable('C-INFO-PLATFORM-PROFILE', 'the profile names no platform (settings.platform)');
  else {
    await verify('C-INFO-PLATFORM-PROFILE', async () => {
      const r = await read<Schemas['InfoResponse']>(api, '/v2/info');
      expect(r.json?.bridge?.platform, 'bridge.platform, as the profile names it').toBe(platform);
    });
  }
});

test('GET /v2/tps exists', { tag: reqTags('C-TPS-EXISTS') }, async ({ api, verify }) => {
  // Its contract is not shown (C-NS-TPS): only that the path is served, which shows against a path that is not.
  await verify('C-TPS-EXISTS', async () => {
    const tps = await read(api, '/v2/tps');
    if (tps.status === 404) throw deviation(`GET /v2/tps with the right key answered 404 ${tps.text.slice(0, 200)}`, 'not 404: the endpoint exists');
    const unknown = await read(api, '/v2/conformance-harness-no-such-path');
    if (unknown.status === tps.status && unknown.text === tps.text) {
      throw deviation(`GET /v2/tps is answered exactly like a path that does not exist (${tps.status} ${tps.text.slice(0, 120)})`, 'an answer that shows the endpoint exists');
    }
    if (unknown.status === tps.status) throw new NotTested(`GET /v2/tps and an unknown /v2/ path both answer ${tps.status}: whether /v2/tps is served cannot be told apart`);
  });
});

test('a method in another letter case is not the documented method', { tag: reqTags('C-METHOD-CASE') }, async ({ api, profile, verify, notApplicable }) => {
  const { endpoints } = profile.interfaces['game-bridge']!.settings;
  const reads = (['status', 'info', 'players'] as const).filter((e) => endpoints[e] !== false);
  if (reads.length === 0) return notApplicable('C-METHOD-CASE', 'every GET endpoint is switched off in the profile');
  // HTTP methods are case-sensitive: "get" is a method of its own, never GET. (POST is left out: a bridge that served
  // "post" as POST would write a console line.)
  await verify('C-METHOD-CASE', async () => {
    for (const [method, path] of [['get', `/v2/${reads[0]}`], ['Get', `/v2/${reads.at(-1)}`]] as const) {
      const r = await api.send({ method, path, authenticate: true, label: `${method} is not GET` });
      if (!methodCaseFits(r.status)) throw deviation(`${method} ${path} answered ${r.status} ${r.text.slice(0, 120)}: served as if it were GET`, 'a refusal (405, 400, 404, 501): HTTP methods are case-sensitive');
    }
  });
});
