/**
 * The stream-proxy reference in readings of its open points other than its default (mocks/stream-proxy/readings.ts):
 * each started alone and shown taking effect with a request or two, then all of their first other readings at once.
 */
import { after, describe, test } from 'node:test';
import { answerOf, type Answer } from '../support/answer.ts';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { TARGETS_DIR } from '../../harness/paths.ts';
import { isStated, loadProfile } from '../../harness/profile/load.ts';
import { streamProxyEntry, type StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';
import { readings } from '../../mocks/stream-proxy/readings.ts';
import { start, type StartOptions, type StreamProxyServer } from '../../mocks/stream-proxy/server.ts';

const SECRETS = { adminToken: 'admin-token-1', userToken: 'user-token-1', adminUser: 'admin', adminPassword: 'admin-password' };
const TIMING = { webPlayerTokenMs: 300, scanMs: 200, updateMs: 200, geoipMs: 20 };

function settingsWith(tweak: Partial<StreamProxySettings> = {}): StreamProxySettings {
  return Value.Default(streamProxyEntry().properties.settings, {
    documents: {
      main: { inConfig: '/config', scratch: '/conformance_note' },
      sources: { inConfig: '/sources', scratch: '/conformance_note' },
      apiProxy: { inConfig: '/api_proxy', scratch: '/conformance_note' },
    },
    targets: [
      { name: 'main', id: 1 },
      { name: 'backup', id: 2 },
    ],
    inputId: 7,
    ...tweak,
  }) as StreamProxySettings;
}

const running: StreamProxyServer[] = [];
after(async () => {
  await Promise.all(running.map((r) => r.close()));
});

/** The reference in the readings given (point -> reading), with the reference options those readings name. */
async function reference(asked: Record<string, string>, o: { settings?: Partial<StreamProxySettings>; reference?: StartOptions['reference'] } = {}) {
  let options: Record<string, unknown> = {};
  for (const [point, name] of Object.entries(asked)) {
    const r = readings.find((p) => p.point === point)!.readings.find((x) => x.name === name) as { reference?: Record<string, unknown> };
    options = { ...options, ...r.reference };
  }
  const server = await start({ settings: settingsWith(o.settings), reference: { ...TIMING, ...options, ...o.reference, readings: asked }, secrets: { ...SECRETS }, port: 0 });
  running.push(server);
  return client(server);
}


function client(server: StreamProxyServer) {
  const call = async (method: string, path: string, o: { headers?: Record<string, string>; body?: unknown; raw?: string; token?: string | null } = {}): Promise<Answer> => {
    const text = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
    const token = o.token === undefined ? SECRETS.adminToken : o.token;
    const res = await fetch(path.startsWith('http') ? path : server.url + path, {
      method,
      headers: { ...(text !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...o.headers },
      body: text,
    });
    return answerOf(res);
  };
  return { server, call };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const user = (username: string, more: Record<string, unknown> = {}) => ({ username, password: 'pw', ...more });

describe('stream-proxy reference, readings of its open points', () => {
  test('the catalogue: every point at least two readings, unique names; an unknown reading is refused at start', async () => {
    for (const p of readings) {
      assert.ok(p.readings.length >= 2, p.point);
      assert.equal(new Set(p.readings.map((r) => r.name)).size, p.readings.length, p.point);
    }
    await assert.rejects(start({ settings: settingsWith(), reference: { readings: { 'B-NS-CHECK-ORDER': 'nope' } }, secrets: SECRETS, port: 0 }), /has no reading "nope"/);
  });

  test('configuration: split, revision headers and their encoding, check order, If-Match forms, typed documents', async () => {
    const split = await reference({ 'B-NS-CONFIG-SPLIT': 'main-sources-apiproxy', 'B-NS-CONFIG-API-PROXY-REVISION': 'main-and-sources' });
    const merged = await split.call('GET', '/api/v1/config');
    assert.deepEqual(Object.keys(merged.json).sort(), ['apiProxy', 'main', 'sources']);
    assert.equal(merged.headers.get('x-config-api-proxy-revision'), null);
    assert.ok(merged.headers.get('x-config-main-revision'));

    const etag = await reference({ 'B-NS-REVISION-ENCODING': 'quoted-etag' });
    const r0 = (await etag.call('GET', '/api/v1/config')).headers.get('x-config-main-revision')!;
    assert.match(r0, /^"[0-9a-f]{64}"$/);
    assert.equal((await etag.call('POST', '/api/v1/config/main', { body: {}, headers: { 'if-match': r0.slice(1, -1) } })).status, 400, 'a bare hash is no entity tag');
    const saved = await etag.call('POST', '/api/v1/config/main', { body: { a: 1 }, headers: { 'if-match': r0 } });
    assert.equal(saved.status, 200);
    assert.match(saved.headers.get('x-config-main-revision')!, /^"[0-9a-f]{64}"$/);

    const b64 = await reference({ 'B-NS-REVISION-ENCODING': 'base64url' });
    const b0 = (await b64.call('GET', '/api/v1/config/apiproxy')).headers.get('x-config-api-proxy-revision')!;
    assert.match(b0, /^[A-Za-z0-9_-]{43}$/);
    assert.equal((await b64.call('PUT', '/api/v1/config/apiproxy', { body: { server: [] }, headers: { 'if-match': b0 } })).status, 200);

    const bodyFirst = await reference({ 'B-NS-CHECK-ORDER': 'body-first' });
    assert.equal((await bodyFirst.call('POST', '/api/v1/config/main', { body: [1] })).status, 400, 'an invalid body without If-Match');

    const mismatch = await reference({ 'B-NS-IF-MATCH-FORMS': 'mismatch-409' });
    assert.equal((await mismatch.call('POST', '/api/v1/config/main', { body: {}, headers: { 'if-match': 'not-a-revision' } })).status, 409);

    for (const name of ['unknown-members-dropped', 'unknown-members-refused'] as const) {
      const typed = await reference({ 'B-NS-DTO-FIELDS': name });
      const read = await typed.call('GET', '/api/v1/config');
      const body = { ...read.json.config, backup_dir: 'kept', conformance_note: 'unknown' };
      const save = await typed.call('POST', '/api/v1/config/main', { body, headers: { 'if-match': read.headers.get('x-config-main-revision')! } });
      if (name === 'unknown-members-refused') {
        assert.equal(save.status, 400);
      } else {
        assert.equal(save.status, 200);
        const back = (await typed.call('GET', '/api/v1/config')).json.config;
        assert.equal(back.backup_dir, 'kept');
        assert.equal(back.conformance_note, undefined);
      }
    }
  });

  test('authentication and routing: statuses, order, wrong methods, a wrong token without web auth, the CSRF header, media type, login path', async () => {
    const forbidden = await reference({ 'B-NS-AUTH-STATUS': '401-missing-403-wrong' });
    assert.equal((await forbidden.call('GET', '/api/v1/status', { token: null })).status, 401);
    assert.equal((await forbidden.call('GET', '/api/v1/status', { token: 'wrong' })).status, 403);

    const authFirst = await reference({ 'B-NS-AUTH-ORDER': 'auth-first' }, { settings: { libraryEnabled: false } });
    assert.equal((await authFirst.call('GET', '/api/v1/library/status', { token: null })).status, 401);
    assert.equal((await authFirst.call('GET', '/api/v1/library/status')).status, 404);

    const methods = await reference({ 'B-NS-WRONG-METHOD': 'method-not-allowed-405' });
    const wrong = await methods.call('DELETE', '/api/v1/status');
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get('allow'), 'GET');

    const bypass = await reference({ 'B-NS-BYPASS-WRONG-TOKEN': 'validated-if-present' }, { settings: { webAuthEnabled: false } });
    assert.equal((await bypass.call('GET', '/api/v1/status', { token: null })).status, 200);
    assert.equal((await bypass.call('GET', '/api/v1/status', { token: 'wrong' })).status, 401);

    const csrf = await reference({ 'B-NS-EXTRA-REQUEST-PARTS': 'csrf-header' });
    assert.equal((await csrf.call('POST', '/api/v1/playlist/update', { body: [] })).status, 403);
    assert.equal((await csrf.call('POST', '/api/v1/playlist/update', { body: [], headers: { 'x-requested-with': 'XMLHttpRequest' } })).status, 202);

    const media = await reference({ 'B-NS-CONTENT-TYPE': 'json-required-415' });
    assert.equal((await media.call('POST', '/api/v1/playlist/live', { raw: '{"Target":1}', headers: { 'content-type': 'text/plain' } })).status, 415);
    assert.equal((await media.call('POST', '/api/v1/playlist/live', { body: { Target: 1 } })).status, 200);

    const login = await reference({ 'B-NS-TOKEN-ISSUING': 'api-login-path' });
    const issued = await login.call('POST', '/api/v1/auth/login', { body: { username: 'admin', password: 'admin-password' }, token: null });
    assert.equal(issued.json.access_token, SECRETS.adminToken);
    assert.equal((await login.call('POST', '/auth/token', { body: { username: 'admin', password: 'admin-password' }, token: null })).status, 404);

    const limited = await reference({ 'B-NS-RATE-LIMITS': 'per-client-limit' });
    const statuses = await Promise.all(Array.from({ length: 600 }, () => limited.call('GET', '/api/v1/streams')));
    assert.ok(statuses.some((s) => s.status === 429), 'beyond the burst');

    const reserved = await reference({ 'B-NS-USER-PATHS': 'playlist-reserved' });
    assert.equal((await reserved.call('DELETE', '/api/v1/user/playlist/bouquet', { token: SECRETS.userToken })).status, 405);

    const off = await reference({ 'B-NS-DISABLED-ANSWER': 'registered-refusing' }, { settings: { libraryEnabled: false, userUiEnabled: false } });
    assert.equal((await off.call('POST', '/api/v1/library/scan', { body: { force_rescan: false } })).status, 400);
    assert.equal((await off.call('GET', '/api/v1/user/playlist/categories', { token: SECRETS.userToken })).status, 403);
  });

  test('refusals and bodies: error bodies, 422, 404 for unknown sources, 502 for providers, empty write bodies', async () => {
    const problem = await reference({ 'B-NS-ERROR-BODY': 'problem-json' });
    const refused = await problem.call('GET', '/api/v1/status', { token: null });
    assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(refused.json.status, 401);
    const empty = await reference({ 'B-NS-ERROR-BODY': 'empty' });
    assert.equal((await empty.call('GET', '/api/v1/status', { token: null })).text, '');

    const unprocessable = await reference({ 'B-NS-REFUSAL-STATUS': 'unprocessable-422' });
    assert.equal((await unprocessable.call('POST', '/api/v1/playlist/live', { body: { Target: 1, Input: 7 } })).status, 422);
    assert.equal((await unprocessable.call('POST', '/api/v1/playlist/live', { raw: '{"Target":' })).status, 400, 'a body that is no JSON');
    assert.equal((await unprocessable.call('POST', '/api/v1/user/main', { body: { username: 'x' } })).status, 400, 'documented 400');

    const notFound = await reference({ 'B-NS-UNKNOWN-SOURCE': 'not-found-404' });
    assert.equal((await notFound.call('POST', '/api/v1/playlist/vod', { body: { Target: 99 } })).status, 404);
    assert.equal((await notFound.call('GET', '/api/v1/config/batchContent/8')).status, 404);
    assert.equal((await notFound.call('POST', '/api/v1/playlist/webplayer', { body: { target_id: 1, cluster: 'live', virtual_id: 40 } })).status, 404);

    const gateway = await reference({ 'B-NS-PROVIDER': 'bad-gateway-502' });
    assert.equal((await gateway.call('POST', '/api/v1/playlist/live', { body: { CustomM3u: { url: 'http://127.0.0.1:9/list.m3u' } } })).status, 502);
    assert.equal((await gateway.call('POST', '/api/v1/playlist/live', { body: { CustomM3u: { url: 'not a url' } } })).status, 400);

    const bare = await reference({ 'B-NS-WRITE-BODIES': 'empty-body' });
    const created = await bare.call('POST', '/api/v1/user/main', { body: user('ann') });
    assert.equal(created.status, 200);
    assert.equal(created.text, '');
    assert.equal(created.headers.get('content-type'), null);

    const extra = await reference({ 'B-NS-VARIANT-EXTRA-MEMBERS': 'refused' });
    assert.equal((await extra.call('POST', '/api/v1/playlist/live', { body: { Target: 1, note: 'x' } })).status, 400);
  });

  test('response shapes: other shapes, paging, resource URLs, the unsaved bouquet, id types', async () => {
    const other = await reference({ 'B-NS-RESPONSE-BODIES': 'other-shapes' });
    const items = (await other.call('POST', '/api/v1/playlist/live', { body: { Target: 1 } })).json;
    assert.ok(Array.isArray(items) && typeof items[0].category === 'string' && typeof items[0].cover === 'string');
    assert.equal((await other.call('GET', '/api/v1/status')).json.state, 'running');

    const paged = await reference({ 'B-NS-LISTING-PAGING': 'paged-envelope' });
    const page = (await paged.call('POST', '/api/v1/playlist/live?page=1&page_size=1', { body: { Target: 1 } })).json;
    assert.deepEqual([page.items.length, page.page, page.page_size, page.total], [1, 1, 1, 2]);

    const absolute = await reference({ 'B-NS-RESOURCE': 'absolute-logo-unknown-400' });
    const logo = (await absolute.call('POST', '/api/v1/playlist/live', { body: { Target: 1 } })).json[0].channels[0].logo as string;
    assert.ok(logo.startsWith(`${absolute.server.url}/api/v1/playlist/resource/`), logo);
    assert.equal((await absolute.call('GET', logo, { token: null })).status, 200);
    assert.equal((await absolute.call('GET', '/api/v1/playlist/resource/unknown', { token: null })).status, 400);

    const unsaved = await reference({ 'B-NS-BOUQUET-UNSAVED': 'null-until-saved' });
    assert.equal((await unsaved.call('GET', '/api/v1/user/playlist/bouquet', { token: SECRETS.userToken })).text, 'null');

    const ints = await reference({ 'B-NS-ID-TYPES': 'integers-throughout' });
    assert.equal((await ints.call('POST', '/api/v1/playlist/series_info/abc/5', { body: { Target: 1 } })).status, 400);
    assert.equal((await ints.call('POST', '/api/v1/playlist/series_info/1/5', { body: { Target: 1 } })).status, 200);
  });

  test('proxy users: enumerated values, exp_date formats, required members, strict validation, merging updates, case', async () => {
    const enumerated = await reference({ 'B-NS-PROXY-STATUS-VALUES': 'enumerated' });
    assert.equal((await enumerated.call('POST', '/api/v1/user/main', { body: user('a', { status: 'active' }) })).status, 400);
    assert.equal((await enumerated.call('POST', '/api/v1/user/main', { body: user('a', { proxy: 'redirect', status: 'Trial' }) })).status, 200);

    const epoch = await reference({ 'B-NS-EXP-DATE': 'epoch-seconds' });
    assert.equal((await epoch.call('POST', '/api/v1/user/main', { body: user('a', { exp_date: '2030-01-01' }) })).status, 400);
    const dated = await reference({ 'B-NS-EXP-DATE': 'date-string' });
    assert.equal((await dated.call('POST', '/api/v1/user/main', { body: user('a', { exp_date: 1893456000 }) })).status, 400);
    assert.equal((await dated.call('POST', '/api/v1/user/main', { body: user('a', { exp_date: '2030-01-01' }) })).status, 200);

    const all = await reference({ 'B-NS-USER-FIELDS-REQUIRED': 'all-members' });
    assert.equal((await all.call('POST', '/api/v1/user/main', { body: user('a') })).status, 400);
    assert.equal((await all.call('POST', '/api/v1/user/main', { body: user('a', { proxy: 'reverse', server: 'default', max_connections: 1, status: 'Active', exp_date: null }) })).status, 200);

    const strict = await reference({ 'B-NS-USER-VALIDATION': 'strict' });
    assert.equal((await strict.call('POST', '/api/v1/user/main', { body: user('a b') })).status, 400);
    assert.equal((await strict.call('POST', '/api/v1/user/main', { body: user('a', { server: 'elsewhere' }) })).status, 400);

    const merge = await reference({ 'B-NS-USER-UPDATE-MERGE': 'merge' });
    await merge.call('POST', '/api/v1/user/main', { body: user('a', { token: 't1' }) });
    assert.equal((await merge.call('PUT', '/api/v1/user/main', { body: user('a') })).status, 200);
    assert.equal((await merge.call('POST', '/api/v1/user/main', { body: user('b', { token: 't1' }) })).status, 400, 'a kept its token');

    const folded = await reference({ 'B-NS-USERNAME-CASE': 'case-insensitive' });
    await folded.call('POST', '/api/v1/user/main', { body: user('Ann') });
    assert.equal((await folded.call('POST', '/api/v1/user/backup', { body: user('ann') })).status, 400);
    assert.equal((await folded.call('DELETE', '/api/v1/user/main/ANN')).status, 200);
  });

  test('jobs and the other endpoints: timings, runs not observable, update and scan bodies, GeoIP, downloads, ipinfo, web player', async () => {
    const instant = await reference({ 'B-NS-TRANSITIONS': 'instant-scan' });
    assert.equal((await instant.call('POST', '/api/v1/library/scan', { body: { force_rescan: false } })).status, 202);
    await sleep(5);
    assert.equal((await instant.call('POST', '/api/v1/library/scan', { body: { force_rescan: false } })).status, 202);

    const hidden = await reference({ 'B-NS-DUPLICATE-UPDATE': 'not-observable' });
    assert.equal((await hidden.call('GET', '/__reference/playlist-update-runs', { token: null })).status, 404);

    const updateFirst = await reference({ 'B-NS-UPDATE-ORDER': 'body-first' });
    assert.equal((await updateFirst.call('POST', '/api/v1/playlist/update', { body: [] })).status, 202);
    assert.equal((await updateFirst.call('POST', '/api/v1/playlist/update', { body: { main: true } })).status, 400, 'while pending');

    const forced = await reference({ 'B-NS-SCAN-BODY': 'force-rescan-required' });
    assert.equal((await forced.call('POST', '/api/v1/library/scan', { body: {} })).status, 400);
    const noBody = await reference({ 'B-NS-SCAN-BODY': 'body-optional' });
    assert.equal((await noBody.call('POST', '/api/v1/library/scan')).status, 202);

    const geoip = await reference({ 'B-NS-GEOIP-UPDATE': 'enabled-downloads' });
    assert.equal((await geoip.call('GET', '/api/v1/geoip/update')).status, 200);

    const download = await reference({ 'B-NS-DOWNLOAD-PAYLOAD': 'url-required', 'B-NS-DOWNLOAD-STATUS': 'ok-200' });
    assert.equal((await download.call('POST', '/api/v1/file/download', { body: {} })).status, 400);
    const task = await download.call('POST', '/api/v1/file/download', { body: { url: 'http://example.invalid/a.mp4' } });
    assert.deepEqual([task.status, task.json.filename], [200, 'a.mp4']);

    const ip = await reference({ 'B-NS-IPINFO-UNCONFIGURED': 'unconfigured-400' });
    assert.equal((await ip.call('GET', '/api/v1/ipinfo')).status, 400);
    assert.equal((await ip.call('GET', '/api/v1/config')).json.config.ipcheck, undefined);

    const relative = await reference({ 'B-NS-WEBPLAYER-URL': 'root-relative-expired-403', 'B-NS-WEBPLAYER-CLUSTER': 'capitalised-enumerated' });
    assert.equal((await relative.call('POST', '/api/v1/playlist/webplayer', { body: { target_id: 1, cluster: 'live', virtual_id: 1 } })).status, 400);
    const url = (await relative.call('POST', '/api/v1/playlist/webplayer', { body: { target_id: 1, cluster: 'Live', virtual_id: 1 } })).text;
    assert.match(url, /^\/stream\/[0-9a-f]+\/1\/1\n$/);
    await sleep(TIMING.webPlayerTokenMs + 50);
    assert.equal((await relative.call('GET', url.trim(), { token: null })).status, 403);

    const leeway = await reference({ 'B-NS-WEBPLAYER-LIFETIME': 'with-leeway' }, { reference: { webPlayerLeewayMs: 300 } });
    const late = (await leeway.call('POST', '/api/v1/playlist/webplayer', { body: { target_id: 1, cluster: 'live', virtual_id: 1 } })).text;
    await sleep(TIMING.webPlayerTokenMs + 50);
    assert.equal((await leeway.call('GET', late, { token: null })).status, 200, 'within the leeway');
  });

  test('reference.yaml, which --unstated starts from, states nothing a tester of another reading would state', () => {
    const profile = loadProfile(path.join(TARGETS_DIR, 'reference.yaml'));
    // The tokens' lifetime is the reference's own configuration, which any tester of it knows; the with-leeway
    // reading's longer one is within the second the expiry check waits past it.
    const known = new Set(['webPlayerTokenMs']);
    const dotted = (v: unknown, at = ''): string[] =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v).flatMap(([k, child]) => [at + k, ...dotted(child, `${at}${k}.`)]) : [];
    for (const p of readings) {
      for (const r of p.readings) {
        const stated = dotted('settings' in r ? r.settings : undefined).filter((s) => !known.has(s) && isStated(profile, 'stream-proxy', s));
        assert.deepEqual(stated, [], `${p.point}=${r.name}`);
      }
    }
  });

  test('all first other readings at once: the reference starts and serves', async () => {
    const asked = Object.fromEntries(readings.map((p) => [p.point, p.readings[1].name]));
    const all = await reference(asked);
    const headers = { 'x-requested-with': 'XMLHttpRequest' };
    assert.equal((await all.call('GET', '/api/v1/status')).status, 200);
    assert.equal((await all.call('GET', '/api/v1/status', { token: 'wrong' })).status, 403);
    const read = await all.call('GET', '/api/v1/config');
    assert.deepEqual(Object.keys(read.json).sort(), ['apiProxy', 'main', 'sources']);
    const saved = await all.call('POST', '/api/v1/config/main', { body: { ...read.json.main, backup_dir: 'x' }, headers: { ...headers, 'if-match': read.headers.get('x-config-main-revision')! } });
    assert.equal(saved.status, 200);
    assert.equal(saved.text, '');
    assert.equal((await all.call('POST', '/api/v1/user/main', { body: user('a'), headers })).status, 400, 'all members required');
  });
});
