import { expect, Inconclusive, NotTested, RequirementViolation, deviation } from '../../harness/fixtures.ts';
import { test } from './test.ts';
import { reqTags } from './tags.ts';
import type { RequirementId } from '../../generated/game-bridge.ts';
import type { Client, Reply } from '../../harness/http/client.ts';
import { answered, judged, methodNotImplemented, mustAnswer, needAccepted, showed } from '../../harness/answers.ts';
import type { BridgeSettings } from '../../harness/profile/types.ts';
import type { components } from '../../generated/game-bridge.ts';
import { KEY_HEADER, acceptable, fits, methodCaseFits, type StatedReadings } from './model.ts';
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
function openAnswer(path: '/v2/status' | '/v2/players' | '/v2/info', reply: Reply, stated: StatedReadings): string | undefined {
  return acceptable({ method: 'GET', path, key: 'right', headerName: KEY_HEADER, body: 'absent', enabled: true, stated }).find((o) => fits(o, reply))?.open;
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
    // "any non-200 means failure": a refusal of the liveness check breaks it; a throttle or a 5xx decides nothing.
    mustAnswer(r, 200, 'GET /v2/status with the key');
    seeMediaType(reading, r);
    expect(r.json?.ok, 'ok').toBe(true);
  });
  await verify('C-STATUS-NO-DATA', async () => {
    const r = await read<Schemas['StatusResponse']>(api, '/v2/status');
    // A refusal is C-STATUS-200's; what a success carries is this rule's.
    needAccepted(r, 'GET /v2/status with the key', { why: 'no liveness answer to look into (C-STATUS-200 judges the refusal)' });
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
    const open = openAnswer('/v2/players', r, stated);
    if (open) {
      reading('C-NS-EXTRA-INPUT', undefined, `GET /v2/players with the key alone answered ${r.status}`);
      throw new NotTested(`${open} (answered ${r.status} ${r.text.slice(0, 120)})`);
    }
    lists.push(r.json?.players);
    return r;
  };
  await verify('C-PLAYERS-200', async () => {
    const r = await players();
    mustAnswer(r, 200, 'GET /v2/players with the key');
    expect(r.json?.ok, 'ok').toBe(true);
    const { count, players: names } = r.json ?? {};
    expect(Number.isInteger(count) && count! >= 0, `count ${JSON.stringify(count)} is a whole number`).toBe(true);
    expect(Array.isArray(names) && names.every((p: unknown) => typeof p === 'string'), 'players is an array of strings').toBe(true);
    seeSuccessMembers(reading, [[r.json, ['ok', 'count', 'players']]]);
  });
  await verify('C-PLAYERS-COUNT-TOTAL', async () => {
    const r = await players();
    needAccepted(r, 'GET /v2/players with the key', { why: 'no count to judge (C-PLAYERS-200 judges the refusal)' });
    const { count, players: names } = r.json ?? {};
    // A count that is no whole number is C-PLAYERS-200's deviation: here it is that one's knock-on, not a new one.
    if (!Number.isInteger(count)) throw new RequirementViolation('C-PLAYERS-COUNT-TOTAL', `count ${JSON.stringify(count)} is not a whole number: ${r.text.slice(0, 120)}`, 'an integer count, the players online', [r.exchange], ['C-PLAYERS-200']);
    expect(count, 'count is never less than the names listed').toBeGreaterThanOrEqual(names?.length ?? 0);
    // "The true total" can only be seen against a count known from elsewhere: the profile's.
    if (onlinePlayers === undefined) throw new NotTested('the profile gives no onlinePlayers: the true number of players online is unknown, so only "count is never less than the names listed" was checked');
    expect(count, `count: the profile has ${onlinePlayers} players online`).toBe(onlinePlayers);
  });
  await verify('C-PLAYERS-TRUNCATE', async () => {
    const r = await players();
    needAccepted(r, 'GET /v2/players with the key', { why: 'no list to count (C-PLAYERS-200 judges the refusal)' });
    const { count, players: names } = r.json ?? {};
    // The profile's count where it gives one, so that a wrong count (C-PLAYERS-COUNT-TOTAL) is not blamed here too.
    const total = onlinePlayers ?? count;
    if (total === undefined || !Number.isInteger(total)) throw new Inconclusive(`count ${JSON.stringify(count)} is not a whole number and the profile gives no onlinePlayers: the number of names expected is unknown`);
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
    mustAnswer(r, 200, 'GET /v2/info with the key');
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
    needAccepted(r, 'GET /v2/info with the key', { why: 'no platform to look at (C-INFO-BRIDGE judges the refusal)' });
    const reported = r.json?.bridge?.platform;
    expect(reported, 'bridge.platform, a lowercase identifier').toMatch(/^[a-z0-9_.-]+$/);
    see(reading, 'C-NS-PLATFORMS', reported === 'paper' || reported === 'velocity' ? reported : undefined, `bridge.platform ${JSON.stringify(reported)}`);
  });
  if (platform === undefined) notApplicable('C-INFO-PLATFORM-PROFILE', 'the profile names no platform (settings.platform)');
  else {
    await verify('C-INFO-PLATFORM-PROFILE', async () => {
      const r = await read<Schemas['InfoResponse']>(api, '/v2/info');
      needAccepted(r, 'GET /v2/info with the key', { why: 'no platform to look at (C-INFO-BRIDGE judges the refusal)' });
      expect(r.json?.bridge?.platform, 'bridge.platform, as the profile names it').toBe(platform);
    });
  }
});

test('GET /v2/tps exists', { tag: reqTags('C-TPS-EXISTS') }, async ({ api, verify, reading }) => {
  // Its contract is not shown (C-NS-TPS): only that the path is served, which shows against a path that is not.
  await verify('C-TPS-EXISTS', async () => {
    const tps = await read(api, '/v2/tps');
    // Only the bridge's own answer tells whether the path is served: a throttle, a 5xx (C-GEN-NO-5XX's) or a page
    // that is not the API decides nothing (thrown).
    judged(tps, 'GET /v2/tps with the key');
    if (answered(tps, 404)) throw deviation(`GET /v2/tps with the right key answered 404 ${tps.text.slice(0, 200)}`, 'not 404: the endpoint exists');
    seeTps(reading, tps);
    const unknown = await read(api, UNKNOWN_PATH);
    judged(unknown, 'an unknown /v2/ path with the key');
    await seeUnknownPaths(reading, api, unknown);
    // Both are the bridge's answers by now: the same status is the same answer, not a throttle met twice.
    const alike = answered(unknown, tps.status);
    // The path that exists last: it is the answer that breaks the rule.
    if (alike && unknown.text === tps.text) {
      throw deviation(`GET /v2/tps is answered exactly like a path that does not exist (${tps.status} ${tps.text.slice(0, 120)})`, 'an answer that shows the endpoint exists', [unknown.exchange, tps.exchange]);
    }
    if (alike) throw new NotTested(`GET /v2/tps and an unknown /v2/ path both answer ${tps.status}: whether /v2/tps is served cannot be told apart`);
  });
});

const UNKNOWN_PATH = '/v2/conformance-harness-no-such-path';

/** The contract of GET /v2/tps (C-NS-TPS), as far as its answer shows it. */
function seeTps(reading: SeeReading, tps: Reply): void {
  const value = tps.json?.tps;
  if (showed(tps, 403)) reading('C-NS-TPS', 'switched-off');
  else if (Array.isArray(value) && value.length === 3) reading('C-NS-TPS', 'three-averages');
  else if (typeof value === 'number') reading('C-NS-TPS', 'single-value');
  else reading('C-NS-TPS', undefined, `answered ${tps.status} ${tps.text.slice(0, 80)}`);
}

/** The answer to a /v2/ path the document does not list, and whether it needs the key first (C-NS-UNKNOWN-PATHS). */
async function seeUnknownPaths(reading: SeeReading, api: Client, unknown: Reply): Promise<void> {
  if (!showed(unknown, 404)) return reading('C-NS-UNKNOWN-PATHS', undefined, `an unknown path with the key answered ${unknown.status}`);
  if (unknown.json === undefined) return reading('C-NS-UNKNOWN-PATHS', 'framework-404');
  const keyless = await api.send({ method: 'GET', path: UNKNOWN_PATH, label: 'an unknown path without the key' });
  if (showed(keyless, 401)) reading('C-NS-UNKNOWN-PATHS', 'key-first-404');
  else if (showed(keyless, 404)) reading('C-NS-UNKNOWN-PATHS', 'not-found-before-key');
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
      // A throttle, a server error other than 501 or a page that is not the API decides nothing (thrown).
      if (!methodCaseFits(r)) throw deviation(`${method} ${path} answered ${r.status} ${r.text.slice(0, 120)}: served as if it were GET`, 'a refusal (405, 400, 404, 501): HTTP methods are case-sensitive');
      const seen = methodNotImplemented(r) ? 'not-implemented-501' : showed(r, 400) ? 'parser-400' : showed(r, 405) ? 'method-not-allowed-405' : undefined;
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
    // Each read through the classification: a HEAD throttled where the GET was not is no answer of the bridge.
    const get = await read(api, path);
    judged(get, `GET ${path}`);
    const head = await api.send({ method: 'HEAD', path, authenticate: true, label: 'HEAD is not GET' });
    judged(head, `HEAD ${path}`);
    if (answered(head, 405)) reading('C-NS-HEAD', 'head-405');
    else if (answered(head, get.status)) reading('C-NS-HEAD', 'head-as-get');
    else throw deviation(`HEAD ${path} answered ${head.status}, GET ${get.status}`, `405 (the method is not GET), or ${get.status} as the GET (HTTP's HEAD)`, [get.exchange, head.exchange]);
    // Without the key, as a CORS preflight comes: the key or the method check refuses it, or the stack answers it.
    const options = await api.send({ method: 'OPTIONS', path, label: 'OPTIONS without the key, as a preflight' });
    const preflight = judged(options, `OPTIONS ${path}`);
    if (answered(options, 401, 405)) reading('C-NS-OPTIONS', 'options-405');
    else if (preflight === 'accepted') see(reading, 'C-NS-OPTIONS', answered(options, 204) ? 'options-204-before-key' : undefined, `OPTIONS answered ${options.status} before the key`);
    else throw deviation(`OPTIONS ${path} without the key answered ${options.status}`, '401 (the key first), 405 (the method is not GET), or a 2xx of the HTTP stack', [options.exchange]);
    if (answered(options, 405) && options.json?.error !== 'method_not_allowed') throw deviation(`OPTIONS ${path}: a 405 with error ${JSON.stringify(options.json?.error)}`, 'error method_not_allowed', [options.exchange]);
    if (!answered(head, 405) && !answered(options, 405)) {
      throw new NotTested(`HEAD and OPTIONS ${path} were answered as HTTP stacks answer them (C-NS-HEAD, C-NS-OPTIONS): the other methods are the matrix's`);
    }
  });
});
