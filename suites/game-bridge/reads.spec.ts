import { expect, Inconclusive, NotTested, deviation } from '../../harness/fixtures.ts';
import { test } from './test.ts';
import { reqTags } from './tags.ts';
import type { RequirementId } from '../../generated/game-bridge.ts';
import type { Client, Reply } from '../../harness/http/client.ts';
import { answerKind } from '../../harness/answers.ts';
import type { BridgeSettings } from '../../harness/profile/types.ts';
import type { components } from '../../generated/game-bridge.ts';
import { KEY_HEADER, acceptable, methodCaseFits, statusFits, type StatedReadings } from './model.ts';
import { see, type SeeReading } from './bridge.ts';
import { statedReadings } from './stated.ts';

type Schemas = components['schemas'];

const GENERIC: RequirementId[] = ['C-GEN-SCHEMA', 'C-GEN-CONTENT-TYPE'];
/** Marks the requirements of a read not applicable when the profile switches its endpoint off; true when it does. */
function switchedOff(endpoints: BridgeSettings['endpoints'], name: 'status' | 'players' | 'info', ids: string[], notApplicable: (id: string, why: string) => void): boolean {
  if (endpoints[name] !== false) return false;
  for (const id of ids) notApplicable(id, `GET /v2/${name} is switched off in the profile (endpoints.${name} false)`);
  return true;
}

const read = <T>(api: Client, path: string) => api.send<T>({ method: 'GET', path, authenticate: true });

/**
 * Why an answer to a read with the right key and nothing else wrong proves nothing, where one reading of an open point
 * the profile does not state gives it (GET /v2/players refused for input the document does not show); else undefined.
 */
function openAnswer(path: '/v2/status' | '/v2/players' | '/v2/info', status: number, stated: StatedReadings): string | undefined {
  return acceptable({ method: 'GET', path, key: 'right', headerName: KEY_HEADER, body: 'absent', enabled: true, stated }).find((o) => statusFits(o, status))?.open;
}

/** Whether a success body (each object of it, with the members the document lists) carries more (C-NS-SUCCESS-MEMBERS). */
function seeSuccessMembers(reading: SeeReading, objects: Array<[object | undefined, string[]]>): void {
  const more = objects.some(([o, documented]) => Object.keys(o ?? {}).some((k) => !documented.includes(k)));
  reading('C-NS-SUCCESS-MEMBERS', more ? 'extra-members' : 'documented-only');
}

/** The media type of the JSON answers (C-NS-RESPONSE-MEDIA-TYPE). */
function seeMediaType(reading: SeeReading, r: Reply): void {
  const type = r.headers['content-type'] ?? '';
  if (/^application\/json\s*;\s*charset=utf-8$/i.test(type)) reading('C-NS-RESPONSE-MEDIA-TYPE', 'json-utf8');
  else if (/^application\/json$/i.test(type)) reading('C-NS-RESPONSE-MEDIA-TYPE', 'json-without-charset');
  else reading('C-NS-RESPONSE-MEDIA-TYPE', undefined, `Content-Type ${type}`);
}

test('GET /v2/status: 200 with ok true and no other data', { tag: reqTags('C-STATUS-200', 'C-STATUS-NO-DATA', ...GENERIC) }, async ({ api, profile, verify, notApplicable, reading }) => {
  if (switchedOff(profile.interfaces['game-bridge']!.settings.endpoints, 'status', ['C-STATUS-200', 'C-STATUS-NO-DATA'], notApplicable)) return;
  await verify('C-STATUS-200', async () => {
    const r = await read<Schemas['StatusResponse']>(api, '/v2/status');
    expect(r.status, 'status').toBe(200);
    seeMediaType(reading, r);
    expect(r.json?.ok, 'ok').toBe(true);
  });
  await verify('C-STATUS-NO-DATA', async () => {
    const r = await read<Schemas['StatusResponse']>(api, '/v2/status');
    expect(r.status, 'status').toBe(200);
    expect(r.json, '"carries no other data"').toEqual({ ok: true });
  });
});

test('GET /v2/players: the true count and at most max-list names', { tag: reqTags('C-PLAYERS-200', 'C-PLAYERS-COUNT-TOTAL', 'C-PLAYERS-TRUNCATE', ...GENERIC) }, async ({ api, profile, verify, notApplicable, reading }) => {
  const { endpoints, maxList, onlinePlayers } = profile.interfaces['game-bridge']!.settings;
  if (switchedOff(endpoints, 'players', ['C-PLAYERS-200', 'C-PLAYERS-COUNT-TOTAL', 'C-PLAYERS-TRUNCATE'], notApplicable)) return;
  const stated = statedReadings(profile);
  const lists: unknown[] = [];
  /** The players answer; a refusal only a reading the profile does not state explains proves nothing here. */
  const players = async () => {
    const r = await read<Schemas['PlayersResponse']>(api, '/v2/players');
    const open = openAnswer('/v2/players', r.status, stated);
    if (open) {
      reading('C-NS-EXTRA-INPUT', undefined, `GET /v2/players with the key alone answered ${r.status}`);
      throw new NotTested(`${open} (answered ${r.status} ${r.text.slice(0, 120)})`);
    }
    lists.push(r.json?.players);
    return r;
  };
  await verify('C-PLAYERS-200', async () => {
    const r = await players();
    expect(r.status, 'status').toBe(200);
    expect(r.json?.ok, 'ok').toBe(true);
    const { count, players: names } = r.json ?? {};
    expect(Number.isInteger(count) && count! >= 0, `count ${JSON.stringify(count)} is a whole number`).toBe(true);
    expect(Array.isArray(names) && names.every((p: unknown) => typeof p === 'string'), 'players is an array of strings').toBe(true);
    seeSuccessMembers(reading, [[r.json, ['ok', 'count', 'players']]]);
  });
  await verify('C-PLAYERS-COUNT-TOTAL', async () => {
    const { count, players: names } = (await players()).json ?? {};
    expect(count, 'count is never less than the names listed').toBeGreaterThanOrEqual(names?.length ?? 0);
    // "The true total" can only be seen against a count known from elsewhere: the profile's.
    if (onlinePlayers === undefined) throw new NotTested('the profile gives no onlinePlayers: the true number of players online is unknown, so only "count is never less than the names listed" was checked');
    expect(count, `count: the profile has ${onlinePlayers} players online`).toBe(onlinePlayers);
  });
  await verify('C-PLAYERS-TRUNCATE', async () => {
    const { count, players: names } = (await players()).json ?? {};
    // The profile's count where it gives one, so that a wrong count (C-PLAYERS-COUNT-TOTAL) is not blamed here too.
    const total = onlinePlayers ?? count;
    if (total === undefined || !Number.isInteger(total)) throw new Error(`count ${JSON.stringify(count)} is not a whole number and the profile gives no onlinePlayers: the number of names expected is unknown`);
    expect(names?.length, `names listed: min(${total} online, max-list ${maxList})`).toBe(Math.min(total, maxList));
    if (total <= maxList) throw new NotTested(`${total} players online, no more than max-list ${maxList}: no truncation to see (all names were listed, as they must be)`);
  });
  // The same players listed in another order, or others when truncated: a collection with no stable order (C-NS-PLAYER-ORDER).
  if (new Set(lists.map((l) => JSON.stringify(l))).size > 1) reading('C-NS-PLAYER-ORDER', 'unordered');
});

test('GET /v2/info: the bridge object with a lowercase platform', { tag: reqTags('C-INFO-BRIDGE', 'C-INFO-PLATFORM-LOWERCASE', 'C-INFO-PLATFORM-PROFILE', ...GENERIC) }, async ({ api, profile, verify, notApplicable, reading }) => {
  const { endpoints, platform } = profile.interfaces['game-bridge']!.settings;
  if (switchedOff(endpoints, 'info', ['C-INFO-BRIDGE', 'C-INFO-PLATFORM-LOWERCASE', 'C-INFO-PLATFORM-PROFILE'], notApplicable)) return;
  await verify('C-INFO-BRIDGE', async () => {
    const r = await read<Schemas['InfoResponse']>(api, '/v2/info');
    expect(r.status, 'status').toBe(200);
    expect(r.json?.ok, 'ok').toBe(true);
    const bridge = r.json?.bridge;
    for (const field of ['version', 'platform', 'game'] as const) expect(typeof bridge?.[field], `bridge.${field}`).toBe('string');
    const release = (v: string) => /^\d+(\.\d+)*$/.test(v);
    reading('C-NS-VERSION-STRINGS', release(bridge!.version) && release(bridge!.game) ? 'release-numbers' : 'build-strings');
    seeSuccessMembers(reading, [
      [r.json, ['ok', 'bridge']],
      [bridge, ['version', 'platform', 'game']],
    ]);
  });
  await verify('C-INFO-PLATFORM-LOWERCASE', async () => {
    const r = await read<Schemas['InfoResponse']>(api, '/v2/info');
    const reported = r.json?.bridge?.platform;
    expect(reported, 'bridge.platform, a lowercase identifier').toMatch(/^[a-z0-9_.-]+$/);
    see(reading, 'C-NS-PLATFORMS', reported === 'paper' || reported === 'velocity' ? reported : undefined, `bridge.platform ${JSON.stringify(reported)}`);
  });
  if (platform === undefined) notApplicable('C-INFO-PLATFORM-PROFILE', 'the profile names no platform (settings.platform)');
  else {
    await verify('C-INFO-PLATFORM-PROFILE', async () => {
      const r = await read<Schemas['InfoResponse']>(api, '/v2/info');
      expect(r.json?.bridge?.platform, 'bridge.platform, as the profile names it').toBe(platform);
    });
  }
});

test('GET /v2/tps exists', { tag: reqTags('C-TPS-EXISTS') }, async ({ api, verify, reading }) => {
  // Its contract is not shown (C-NS-TPS): only that the path is served, which shows against a path that is not.
  await verify('C-TPS-EXISTS', async () => {
    const tps = await read(api, '/v2/tps');
    if (tps.status === 404) throw deviation(`GET /v2/tps with the right key answered 404 ${tps.text.slice(0, 200)}`, 'not 404: the endpoint exists');
    // A 5xx is the target failing, never an answer that shows the endpoint exists.
    if (answerKind(tps) === 'server-error') throw deviation(`GET /v2/tps with the right key answered ${tps.status} ${tps.text.slice(0, 200)}`, 'an answer of the endpoint, not a server error');
    seeTps(reading, tps);
    const unknown = await read(api, UNKNOWN_PATH);
    await seeUnknownPaths(reading, api, unknown);
    if (unknown.status === tps.status && unknown.text === tps.text) {
      throw deviation(`GET /v2/tps is answered exactly like a path that does not exist (${tps.status} ${tps.text.slice(0, 120)})`, 'an answer that shows the endpoint exists');
    }
    if (unknown.status === tps.status) throw new NotTested(`GET /v2/tps and an unknown /v2/ path both answer ${tps.status}: whether /v2/tps is served cannot be told apart`);
  });
});

const UNKNOWN_PATH = '/v2/conformance-harness-no-such-path';

/** The contract of GET /v2/tps (C-NS-TPS), as far as its answer shows it. */
function seeTps(reading: SeeReading, tps: Reply): void {
  const value = tps.json?.tps;
  if (tps.status === 403) reading('C-NS-TPS', 'switched-off');
  else if (Array.isArray(value) && value.length === 3) reading('C-NS-TPS', 'three-averages');
  else if (typeof value === 'number') reading('C-NS-TPS', 'single-value');
  else reading('C-NS-TPS', undefined, `answered ${tps.status} ${tps.text.slice(0, 80)}`);
}

/** The answer to a /v2/ path the document does not list, and whether it needs the key first (C-NS-UNKNOWN-PATHS). */
async function seeUnknownPaths(reading: SeeReading, api: Client, unknown: Reply): Promise<void> {
  if (unknown.status !== 404) return reading('C-NS-UNKNOWN-PATHS', undefined, `an unknown path with the key answered ${unknown.status}`);
  if (unknown.json === undefined) return reading('C-NS-UNKNOWN-PATHS', 'framework-404');
  const keyless = await api.send({ method: 'GET', path: UNKNOWN_PATH, label: 'an unknown path without the key' });
  if (keyless.status === 401) reading('C-NS-UNKNOWN-PATHS', 'key-first-404');
  else if (keyless.status === 404) reading('C-NS-UNKNOWN-PATHS', 'not-found-before-key');
  else reading('C-NS-UNKNOWN-PATHS', undefined, `an unknown path without the key answered ${keyless.status}`);
}

test('a method in another letter case is not the documented method', { tag: reqTags('C-METHOD-CASE') }, async ({ api, profile, verify, notApplicable, reading }) => {
  const { endpoints } = profile.interfaces['game-bridge']!.settings;
  const reads = (['status', 'info', 'players'] as const).filter((e) => endpoints[e] !== false);
  if (reads.length === 0) return notApplicable('C-METHOD-CASE', 'every GET endpoint is switched off in the profile');
  // HTTP methods are case-sensitive: "get" is a method of its own, never GET. (POST is left out: a bridge that served
  // "post" as POST would write a console line.)
  await verify('C-METHOD-CASE', async () => {
    for (const [method, path] of [['get', `/v2/${reads[0]}`], ['Get', `/v2/${reads.at(-1)}`]] as const) {
      const r = await api.send({ method, path, authenticate: true, label: `${method} is not GET` });
      if (answerKind(r) === 'throttled') throw new Inconclusive(`${method} ${path} was throttled (429): whether it is served as GET cannot be told`);
      if (!methodCaseFits(r.status)) throw deviation(`${method} ${path} answered ${r.status} ${r.text.slice(0, 120)}: served as if it were GET`, 'a refusal (405, 400, 404, 501): HTTP methods are case-sensitive');
      const seen = ({ 400: 'parser-400', 405: 'method-not-allowed-405', 501: 'not-implemented-501' } as const)[r.status as 400 | 405 | 501];
      see(reading, 'C-NS-METHOD-CASE', seen, `${method} answered ${r.status}`);
    }
  });
});

test('HEAD and OPTIONS: the method check, or what HTTP stacks answer for them', { tag: reqTags('C-METHOD-405') }, async ({ api, profile, verify, notApplicable, reading }) => {
  const { endpoints } = profile.interfaces['game-bridge']!.settings;
  const served = (['status', 'info', 'players'] as const).find((e) => endpoints[e] !== false);
  if (!served) return notApplicable('C-METHOD-405', 'every GET endpoint is switched off in the profile: HEAD and OPTIONS are not sent');
  const path = `/v2/${served}`;
  // "405 when the method is not GET" is what the table says; HTTP makes HEAD a GET without its body, which most stacks
  // answer for every GET route, and a CORS-minded stack answers OPTIONS itself, before any key is looked at (C-NS-HEAD,
  // C-NS-OPTIONS). Each reading's answer is accepted; anything else breaks both.
  await verify('C-METHOD-405', async () => {
    const get = await read(api, path);
    const head = await api.send({ method: 'HEAD', path, authenticate: true, label: 'HEAD is not GET' });
    if (head.status === 405) reading('C-NS-HEAD', 'head-405');
    else if (head.status === get.status) reading('C-NS-HEAD', 'head-as-get');
    else throw deviation(`HEAD ${path} answered ${head.status}, GET ${get.status}`, `405 (the method is not GET), or ${get.status} as the GET (HTTP's HEAD)`);
    // Without the key, as a CORS preflight comes: the key or the method check refuses it, or the stack answers it.
    const options = await api.send({ method: 'OPTIONS', path, label: 'OPTIONS without the key, as a preflight' });
    if (options.status === 401 || options.status === 405) reading('C-NS-OPTIONS', 'options-405');
    else if (answerKind(options) === 'accepted') see(reading, 'C-NS-OPTIONS', options.status === 204 ? 'options-204-before-key' : undefined, `OPTIONS answered ${options.status} before the key`);
    else throw deviation(`OPTIONS ${path} without the key answered ${options.status}`, '401 (the key first), 405 (the method is not GET), or a 2xx of the HTTP stack');
    if (options.status === 405 && options.json?.error !== 'method_not_allowed') throw deviation(`OPTIONS ${path}: a 405 with error ${JSON.stringify(options.json?.error)}`, 'error method_not_allowed');
    if (head.status !== 405 && options.status !== 405) {
      throw new NotTested(`HEAD and OPTIONS ${path} were answered as HTTP stacks answer them (C-NS-HEAD, C-NS-OPTIONS): the other methods are the matrix's`);
    }
  });
});
