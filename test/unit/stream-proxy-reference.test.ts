/**
 * The stream-proxy reference (mocks/stream-proxy/) driven over HTTP under a path prefix, as a client of the document
 * would drive it: authentication, the configuration documents and their revisions (checked against the files'
 * BLAKE3 hashes), playlists of every variant (with a local provider for the custom ones), the programme guide, the
 * collapsed playlist update, the web player and its token, the library, proxy users, the self-service endpoints and
 * the other reads; then the switched-off configurations, and a handful of seeded faults, each shown misbehaving.
 */
import { after, before, describe, test } from 'node:test';
import { answerOf, type Answer } from '../support/answer.ts';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { blake3 } from '@noble/hashes/blake3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { Value } from '@sinclair/typebox/value';
import { streamProxyEntry, type StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';
import { faults } from '../../mocks/stream-proxy/faults.ts';
import { UPDATE_RUNS_PATH, resourceIdOf, start, type StartOptions, type StreamProxyServer } from '../../mocks/stream-proxy/server.ts';

const PREFIX = '/proxy';
const SECRETS = { adminToken: 'admin-token-1', userToken: 'user-token-1', adminUser: 'admin', adminPassword: 'admin-password' };
const TIMING = { webPlayerTokenMs: 300, scanMs: 200, updateMs: 200 };

function settingsWith(tweak: Partial<StreamProxySettings> = {}): StreamProxySettings {
  return Value.Default(streamProxyEntry().properties.settings, {
    pathPrefix: PREFIX,
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

const running: Array<{ close(): Promise<void> }> = [];
after(async () => {
  await Promise.all(running.map((r) => r.close()));
});

async function reference(o: { fault?: string; settings?: Partial<StreamProxySettings>; reference?: StartOptions['reference'] } = {}): Promise<StreamProxyServer> {
  const server = await start({ settings: settingsWith(o.settings), reference: { ...TIMING, ...o.reference }, secrets: { ...SECRETS }, fault: o.fault, port: 0 });
  running.push(server);
  return server;
}


const admin = { authorization: `Bearer ${SECRETS.adminToken}` };
const user = { authorization: `Bearer ${SECRETS.userToken}` };

async function call(base: string, method: string, p: string, o: { headers?: Record<string, string>; body?: unknown; raw?: string } = {}): Promise<Answer> {
  const text = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  const res = await fetch(p.startsWith('http') ? p : base + p, { method, headers: { ...(text !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers }, body: text });
  return answerOf(res);
}

/** Requests to one reference, under its prefix, with the admin token unless told otherwise. */
function client(server: StreamProxyServer) {
  const at = (p: string) => `${PREFIX}${p}`;
  return {
    admin: (method: string, p: string, o: { headers?: Record<string, string>; body?: unknown; raw?: string } = {}) => call(server.url, method, at(p), { ...o, headers: { ...admin, ...o.headers } }),
    user: (method: string, p: string, o: { body?: unknown } = {}) => call(server.url, method, at(p), { ...o, headers: user }),
    bare: (method: string, p: string, o: { headers?: Record<string, string>; body?: unknown; raw?: string } = {}) => call(server.url, method, at(p), o),
  };
}

const hashFile = (file: string) => bytesToHex(blake3(fs.readFileSync(file)));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- a provider the reference fetches (CustomM3u, CustomPanel, Custom EPG, the login test) ------------------------

let provider: { base: string; close(): Promise<void> };
before(async () => {
  const m3u = '#EXTM3U\n#EXTINF:-1 tvg-id="a" group-title="Local",Local One\nhttp://127.0.0.1/a.ts\n#EXTINF:-1,No Group\nhttp://127.0.0.1/b.ts\n';
  const epg = '<?xml version="1.0"?><tv><channel id="a"><display-name>Local One</display-name></channel><programme start="1" stop="2" channel="a"><title>Evening</title></programme></tv>';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const reply = (type: string, body: string) => res.writeHead(200, { 'content-type': type }).end(body);
    if (url.pathname === '/list.m3u') return reply('audio/x-mpegurl', m3u);
    if (url.pathname === '/epg.xml') return reply('application/xml', epg);
    if (url.pathname === '/panel/player_api.php' && url.searchParams.get('password') === 'pw') {
      const action = url.searchParams.get('action');
      return reply('application/json', JSON.stringify(action ? [{ name: `Panel ${action}`, stream_id: 5, category_id: '3' }] : { user_info: { auth: 1, status: 'Active' } }));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  provider = { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }) };
  running.push(provider);
});

// ---- the reference as configured in a typical profile ------------------------------------------------------------

describe('stream-proxy reference', () => {
  let server: StreamProxyServer;
  let c: ReturnType<typeof client>;
  before(async () => {
    server = await reference();
    c = client(server);
  });

  test('admin endpoints need the admin token; a login trades the admin credentials for it; the resource endpoint is public', async () => {
    const none = await c.bare('GET', '/api/v1/status');
    assert.equal(none.status, 401);
    assert.equal(typeof none.json.error, 'string');
    assert.equal((await c.bare('GET', '/api/v1/streams', { headers: { authorization: 'Bearer nope' } })).status, 401);
    assert.equal((await c.admin('GET', '/api/v1/status')).status, 200);
    // Without the prefix nothing is served.
    assert.equal((await call(server.url, 'GET', '/api/v1/status', { headers: admin })).status, 404);

    const login = await c.bare('POST', '/auth/token', { body: { username: 'admin', password: 'admin-password' } });
    assert.equal(login.status, 200);
    assert.equal(login.json.token, SECRETS.adminToken);
    assert.equal((await c.bare('POST', '/auth/token', { body: { username: 'admin', password: 'wrong' } })).status, 401);

    const resource = await c.bare('GET', `/api/v1/playlist/resource/${server.resourceId}`);
    assert.equal(resource.status, 200);
    assert.equal(resource.headers.get('content-type'), 'image/png');
    assert.equal((await c.bare('GET', '/api/v1/playlist/resource/unknown-id')).status, 404);

    const unknown = await c.admin('GET', '/api/v1/nothing-here');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error, 'Not Found');
    assert.equal((await c.admin('DELETE', '/api/v1/status')).status, 404);
  });

  test('GET /config merges the three documents; each revision is the BLAKE3 hash of its file; users stay out of api-proxy', async () => {
    const config = await c.admin('GET', '/api/v1/config');
    assert.equal(config.status, 200);
    assert.deepEqual(Object.keys(config.json).sort(), ['api_proxy', 'config', 'sources']);
    assert.equal(config.json.config.update_on_boot, false);
    assert.deepEqual(config.json.sources.sources[0].targets.map((t: { name: string; id: number }) => [t.name, t.id]), [['main', 1], ['backup', 2]]);
    assert.equal(config.json.sources.sources[0].inputs[0].id, 7);
    assert.equal(config.json.api_proxy.server[0].name, 'default');
    assert.equal(config.json.api_proxy.user, undefined);
    assert.equal(config.headers.get('x-config-main-revision'), hashFile(path.join(server.configDir, 'config.json')));
    assert.equal(config.headers.get('x-config-sources-revision'), hashFile(path.join(server.configDir, 'source.json')));
    const apiProxy = await c.admin('GET', '/api/v1/config/apiproxy');
    assert.equal(apiProxy.status, 200);
    assert.deepEqual(apiProxy.json, config.json.api_proxy);
    assert.equal(apiProxy.headers.get('x-config-api-proxy-revision'), hashFile(path.join(server.configDir, 'api-proxy.json')));
  });

  test('saves: 200 with the new revision for the current one (quoted or bare), 428 without, 409 stale, 400 malformed or not an object', async () => {
    const read = await c.admin('GET', '/api/v1/config');
    const main = read.json.config;
    const r0 = read.headers.get('x-config-main-revision')!;
    const sources0 = read.headers.get('x-config-sources-revision')!;

    assert.equal((await c.admin('POST', '/api/v1/config/main', { body: main })).status, 428);
    assert.equal((await c.admin('POST', '/api/v1/config/main', { body: main, headers: { 'if-match': 'not-a-revision' } })).status, 400);
    assert.equal((await c.admin('POST', '/api/v1/config/main', { body: [1, 2], headers: { 'if-match': r0 } })).status, 400);
    assert.equal((await c.admin('POST', '/api/v1/config/main', { raw: '{"broken": ', headers: { 'if-match': r0 } })).status, 400);

    const saved = await c.admin('POST', '/api/v1/config/main', { body: { ...main, conformance_note: 'one' }, headers: { 'if-match': `"${r0}"` } });
    assert.equal(saved.status, 200);
    const r1 = saved.headers.get('x-config-main-revision')!;
    assert.notEqual(r1, r0);
    assert.equal(r1, hashFile(path.join(server.configDir, 'config.json')));
    assert.match(fs.readFileSync(path.join(server.configDir, 'config.json'), 'utf8'), /\n {2}"conformance_note": "one"/);

    const after = await c.admin('GET', '/api/v1/config');
    assert.equal(after.headers.get('x-config-main-revision'), r1);
    assert.equal(after.json.config.conformance_note, 'one');
    assert.equal(after.headers.get('x-config-sources-revision'), sources0, 'a save of main leaves sources alone');

    const stale = await c.admin('POST', '/api/v1/config/main', { body: { ...main, conformance_note: 'two' }, headers: { 'if-match': r0 } });
    assert.equal(stale.status, 409);
    assert.equal((await c.admin('GET', '/api/v1/config')).json.config.conformance_note, 'one');

    const sources = await c.admin('POST', '/api/v1/config/sources', { body: { ...read.json.sources, conformance_note: 's' }, headers: { 'if-match': sources0 } });
    assert.equal(sources.status, 200);
    assert.ok(sources.headers.get('x-config-sources-revision'));

    const ap = await c.admin('GET', '/api/v1/config/apiproxy');
    const put = await c.admin('PUT', '/api/v1/config/apiproxy', { body: { ...ap.json, conformance_note: 'p' }, headers: { 'if-match': ap.headers.get('x-config-api-proxy-revision')! } });
    assert.equal(put.status, 200);
    assert.equal(put.headers.get('x-config-api-proxy-revision'), (await c.admin('GET', '/api/v1/config/apiproxy')).headers.get('x-config-api-proxy-revision'));
  });

  test('of four saves sent at once with one revision, one is 200 and three are 409', async () => {
    const read = await c.admin('GET', '/api/v1/config');
    const revision = read.headers.get('x-config-main-revision')!;
    const replies = await Promise.all([0, 1, 2, 3].map((i) => c.admin('POST', '/api/v1/config/main', { body: { ...read.json.config, conformance_note: `race-${i}` }, headers: { 'if-match': revision } })));
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409, 409, 409]);
  });

  test('playlists: every variant lists grouped items for live, VOD and series; one variant exactly; providers fetched', async () => {
    const panel = { url: `${provider.base}/panel`, username: 'u', password: 'pw' };
    for (const kind of ['live', 'vod', 'series']) {
      for (const body of [{ Target: 1 }, { Input: 7 }, { CustomM3u: { url: `${provider.base}/list.m3u` } }, { CustomPanel: panel }]) {
        const r = await c.admin('POST', `/api/v1/playlist/${kind}`, { body });
        assert.equal(r.status, 200, `${kind} ${JSON.stringify(body)}: ${r.text}`);
        assert.ok(Array.isArray(r.json) && r.json.length > 0 && r.json[0].channels.length > 0);
      }
    }
    const live = await c.admin('POST', '/api/v1/playlist/live', { body: { Target: 1 } });
    assert.equal(resourceIdOf(live.json[0].channels[0].logo), server.resourceId);
    assert.ok(live.json[0].channels[0].logo.startsWith(`${PREFIX}/api/v1/playlist/resource/`));
    const m3u = await c.admin('POST', '/api/v1/playlist/live', { body: { CustomM3u: { url: `${provider.base}/list.m3u` } } });
    assert.deepEqual(m3u.json.map((g: { group: string }) => g.group), ['Local', 'Uncategorised']);
    assert.equal((await c.bare('GET', `/api/v1/playlist/resource/${resourceIdOf(m3u.json[0].channels[0].logo)}`)).status, 200);

    for (const body of [{}, { Target: 1, Input: 7 }, { Target: 99 }, { Input: 8 }, { Target: '1' }, { CustomM3u: { url: `${provider.base}/missing` } }, { CustomPanel: { ...panel, password: 'wrong' } }]) {
      assert.equal((await c.admin('POST', '/api/v1/playlist/live', { body })).status, 400, JSON.stringify(body));
    }

    assert.equal((await c.admin('POST', '/api/v1/playlist/series_info/1/55', { body: { Target: 1 } })).status, 200);
    assert.equal((await c.admin('POST', '/api/v1/playlist/series_info/1/55', { body: { Input: 7 } })).status, 400);
    const episode = await c.admin('POST', '/api/v1/playlist/series/episode/3', { body: { Target: 2 } });
    assert.equal(episode.status, 200);
    assert.equal(episode.json.virtual_id, '3');
  });

  test('the programme guide for a target and for a fetched XMLTV document', async () => {
    const target = await c.admin('POST', '/api/v1/playlist/epg', { body: { Target: 1 } });
    assert.equal(target.status, 200);
    assert.ok(target.json.programmes.length > 0);
    const custom = await c.admin('POST', '/api/v1/playlist/epg', { body: { Custom: `${provider.base}/epg.xml` } });
    assert.equal(custom.status, 200);
    assert.deepEqual(custom.json.programmes[0], { channel: 'a', start: '1', stop: '2', title: 'Evening' });
    assert.equal((await c.admin('POST', '/api/v1/playlist/epg', { body: { Custom: `${provider.base}/missing` } })).status, 400);
    assert.equal((await c.admin('POST', '/api/v1/playlist/epg', { body: { Target: 1, Custom: 'x' } })).status, 400);
  });

  test('playlist update: 202, repeats collapse into the pending run, invalid names 400 once nothing is pending', async () => {
    const runs = async () => (await c.bare('GET', UPDATE_RUNS_PATH)).json as { runs: number; pending: boolean };
    assert.deepEqual(await runs(), { runs: 0, pending: false });
    assert.equal((await c.admin('POST', '/api/v1/playlist/update', { body: ['main'] })).status, 202);
    assert.equal((await c.admin('POST', '/api/v1/playlist/update', { body: [] })).status, 202);
    assert.equal((await c.admin('POST', '/api/v1/playlist/update', { body: ['no-such-target'] })).status, 202, 'while pending any request is 202');
    assert.deepEqual(await runs(), { runs: 1, pending: true });
    await sleep(TIMING.updateMs + 100);
    assert.deepEqual(await runs(), { runs: 1, pending: false });
    assert.equal((await c.admin('POST', '/api/v1/playlist/update', { body: ['no-such-target'] })).status, 400);
    assert.equal((await c.admin('POST', '/api/v1/playlist/update', { body: { main: true } })).status, 400);
    assert.equal((await c.admin('POST', '/api/v1/playlist/update', { body: [] })).status, 202);
  });

  test('the web player: a plain-text URL on the request\'s host and prefix that streams while its token lives', async () => {
    const r = await c.admin('POST', '/api/v1/playlist/webplayer', { body: { target_id: 1, cluster: 'live', virtual_id: 1 } });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
    assert.ok(r.text.startsWith(`${server.url}${PREFIX}/stream/`), r.text);
    assert.match(r.text, /\/1\/1$/);
    const stream = await call(server.url, 'GET', r.text);
    assert.equal(stream.status, 200);
    assert.equal(stream.headers.get('content-type'), 'video/mp2t');
    await sleep(TIMING.webPlayerTokenMs + 100);
    assert.equal((await call(server.url, 'GET', r.text)).status, 401);
    assert.equal((await c.admin('POST', '/api/v1/playlist/webplayer', { body: { target_id: 99, cluster: 'live', virtual_id: 1 } })).status, 400);
  });

  test('the library: a scan is 202, 400 while it runs, and the status shows it', async () => {
    assert.equal((await c.admin('POST', '/api/v1/library/scan', { body: { force_rescan: false } })).status, 202);
    assert.equal((await c.admin('POST', '/api/v1/library/scan', { body: { force_rescan: true } })).status, 400);
    const status = await c.admin('GET', '/api/v1/library/status');
    assert.equal(status.status, 200);
    assert.equal(status.json.scanning, true);
    assert.equal(typeof status.json.items.total, 'number');
    await sleep(TIMING.scanMs + 50);
    assert.equal((await c.admin('GET', '/api/v1/library/status')).json.scanning, false);
    assert.equal((await c.admin('POST', '/api/v1/library/scan', { body: { force_rescan: true } })).status, 202);
  });

  test('proxy users: unique usernames and tokens across targets, updates select by username and move, deletes per target', async () => {
    const u = (username: string, token?: string) => ({ username, password: 'pw', ...(token ? { token } : {}), proxy: 'reverse', server: 'default', max_connections: 1, status: 'Active', exp_date: null });
    assert.equal((await c.admin('POST', '/api/v1/user/main', { body: u('ann', 't1') })).status, 200);
    assert.equal((await c.admin('POST', '/api/v1/user/backup', { body: u('ann') })).status, 400, 'username used in another target');
    assert.equal((await c.admin('POST', '/api/v1/user/backup', { body: u('bob', 't1') })).status, 400, 'token taken');
    assert.equal((await c.admin('POST', '/api/v1/user/nowhere', { body: u('bob') })).status, 400, 'unknown target');
    assert.equal((await c.admin('POST', '/api/v1/user/main', { body: { username: 'bob' } })).status, 400, 'no password');
    assert.equal((await c.admin('POST', '/api/v1/user/backup', { body: u('bob', 't2') })).status, 200);

    assert.equal((await c.admin('PUT', '/api/v1/user/main', { body: u('carl', 't3') })).status, 400, 'unknown user');
    assert.equal((await c.admin('PUT', '/api/v1/user/main', { body: u('bob', 't1') })).status, 400, 'token of another user');
    assert.equal((await c.admin('PUT', '/api/v1/user/main', { body: u('ann', 't1') })).status, 200, 'its own token');
    assert.equal((await c.admin('PUT', '/api/v1/user/backup', { body: u('ann', 't4') })).status, 200, 'moved');
    assert.equal((await c.admin('DELETE', '/api/v1/user/main/ann')).status, 400, 'left main');
    assert.equal((await c.admin('DELETE', '/api/v1/user/backup/ann')).status, 200);
    assert.equal((await c.admin('DELETE', '/api/v1/user/backup/ann')).status, 400);
    assert.equal((await c.admin('POST', '/api/v1/user/main', { body: u('ann', 't1') })).status, 200, 'its name and token are free again');
  });

  test('the self-service endpoints take the user token: categories, and the bouquet as last saved', async () => {
    assert.equal((await c.admin('GET', '/api/v1/user/playlist/categories')).status, 401, 'the admin token is not a user token');
    assert.equal((await c.bare('GET', '/api/v1/user/playlist/bouquet')).status, 401);
    const categories = await c.user('GET', '/api/v1/user/playlist/categories');
    assert.equal(categories.status, 200);
    assert.deepEqual(Object.keys(categories.json), ['live', 'vod', 'series']);
    assert.deepEqual((await c.user('GET', '/api/v1/user/playlist/bouquet')).json, {});
    const saved = { xtream: { live: ['News'] }, m3u: { vod: ['Movies'] } };
    assert.equal((await c.user('POST', '/api/v1/user/playlist/bouquet', { body: saved })).status, 200);
    assert.deepEqual((await c.user('GET', '/api/v1/user/playlist/bouquet')).json, saved);
    assert.equal((await c.user('POST', '/api/v1/user/playlist/bouquet', { body: ['News'] })).status, 400);
  });

  test('the other reads: status, streams, GeoIP (disabled), ipinfo, batch CSV, provider login test, downloads', async () => {
    assert.equal(typeof (await c.admin('GET', '/api/v1/status')).json, 'object');
    assert.deepEqual((await c.admin('GET', '/api/v1/streams')).json, []);
    assert.equal((await c.admin('GET', '/api/v1/geoip/update')).status, 400);
    assert.deepEqual(Object.keys((await c.admin('GET', '/api/v1/ipinfo')).json), ['ipv4', 'ipv6']);
    const csv = await c.admin('GET', '/api/v1/config/batchContent/7');
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(csv.text, /^name,url,username,password/);
    assert.equal((await c.admin('GET', '/api/v1/config/batchContent/8')).status, 400);
    const login = await c.admin('POST', '/api/v1/config/panel/login-info', { body: { url: `${provider.base}/panel`, username: 'u', password: 'pw' } });
    assert.equal(login.status, 200);
    assert.equal(login.json.user_info.auth, 1);
    assert.equal((await c.admin('POST', '/api/v1/config/panel/login-info', { body: { url: `${provider.base}/panel`, username: 'u', password: 'no' } })).status, 400);
    assert.equal((await c.admin('POST', '/api/v1/file/download', { body: { url: 'http://x/y' } })).status, 202);
    assert.equal((await c.admin('GET', '/api/v1/file/download/info')).status, 200);
  });
});

// ---- switched-off configurations ---------------------------------------------------------------------------------

describe('stream-proxy reference, switched-off configurations', () => {
  test('without web authentication no token is needed; the user endpoints still take the user token', async () => {
    const c = client(await reference({ settings: { webAuthEnabled: false } }));
    assert.equal((await c.bare('GET', '/api/v1/status')).status, 200);
    assert.equal((await c.bare('GET', '/api/v1/config')).status, 200);
    assert.equal((await c.bare('GET', '/api/v1/user/playlist/categories')).status, 401);
  });

  test('without the user UI the self-service endpoints do not exist; without the library neither do its endpoints', async () => {
    const c = client(await reference({ settings: { userUiEnabled: false, libraryEnabled: false } }));
    assert.equal((await c.user('GET', '/api/v1/user/playlist/categories')).status, 404);
    assert.equal((await c.user('POST', '/api/v1/user/playlist/bouquet', { body: {} })).status, 404);
    assert.equal((await c.admin('POST', '/api/v1/library/scan', { body: { force_rescan: false } })).status, 404);
    assert.equal((await c.admin('GET', '/api/v1/library/status')).status, 404);
  });

  test('with use_user_db the users are kept in a database file, not in the api-proxy document', async () => {
    const server = await reference({ reference: { useUserDb: true } });
    const c = client(server);
    assert.equal((await c.admin('POST', '/api/v1/user/main', { body: { username: 'dora', password: 'pw' } })).status, 200);
    const db = JSON.parse(fs.readFileSync(path.join(server.configDir, 'user.db.json'), 'utf8'));
    assert.equal(db.user[0].credentials[0].username, 'dora');
    assert.equal((await c.admin('GET', '/api/v1/config/apiproxy')).json.use_user_db, true);
  });

  test('without an admin token among the secrets, a login issues a fresh one the reference accepts', async () => {
    const server = await start({ settings: settingsWith(), reference: TIMING, secrets: { adminUser: 'a', adminPassword: 'b' }, port: 0 });
    running.push(server);
    const c = client(server);
    const token = (await c.bare('POST', '/auth/token', { body: { username: 'a', password: 'b' } })).json.token;
    assert.equal((await c.bare('GET', '/api/v1/status', { headers: { authorization: `Bearer ${token}` } })).status, 200);
  });
});

// ---- seeded faults -----------------------------------------------------------------------------------------------

describe('stream-proxy reference, seeded faults', () => {
  test('the catalogue: unique names, B- requirement ids, profiles for the switched-off configurations', async () => {
    assert.equal(new Set(faults.map((f) => f.name)).size, faults.length);
    for (const f of faults) for (const id of [...f.violates, ...((f as { collateral?: readonly string[] }).collateral ?? [])]) assert.match(id, /^B-[A-Z0-9-]+$/);
    await assert.rejects(start({ settings: settingsWith(), reference: {}, secrets: {}, fault: 'no-such-fault', port: 0 }), /unknown stream-proxy fault/);
  });

  test('save-not-atomic: concurrent saves with one revision all win', async () => {
    const c = client(await reference({ fault: 'save-not-atomic' }));
    const read = await c.admin('GET', '/api/v1/config');
    const revision = read.headers.get('x-config-main-revision')!;
    const replies = await Promise.all([0, 1, 2].map((i) => c.admin('POST', '/api/v1/config/main', { body: { n: i }, headers: { 'if-match': revision } })));
    assert.deepEqual(replies.map((r) => r.status), [200, 200, 200]);
  });

  test('revision-unchanged-after-save and revision-over-request-body: the revision answered is not the file\'s', async () => {
    for (const fault of ['revision-unchanged-after-save', 'revision-over-request-body']) {
      const server = await reference({ fault });
      const c = client(server);
      const r0 = (await c.admin('GET', '/api/v1/config')).headers.get('x-config-main-revision')!;
      const saved = await c.admin('POST', '/api/v1/config/main', { body: { changed: true }, headers: { 'if-match': r0 } });
      assert.equal(saved.status, 200);
      assert.notEqual(saved.headers.get('x-config-main-revision'), hashFile(path.join(server.configDir, 'config.json')), fault);
    }
  });

  test('save-touches-sources: saving main changes the sources revision', async () => {
    const c = client(await reference({ fault: 'save-touches-sources' }));
    const read = await c.admin('GET', '/api/v1/config');
    await c.admin('POST', '/api/v1/config/main', { body: { changed: true }, headers: { 'if-match': read.headers.get('x-config-main-revision')! } });
    const after = await c.admin('GET', '/api/v1/config');
    assert.notEqual(after.headers.get('x-config-sources-revision'), read.headers.get('x-config-sources-revision'));
    assert.deepEqual(after.json.sources, read.json.sources);
  });

  test('duplicate-token-accepted and move-leaves-copy break the user rules', async () => {
    const dup = client(await reference({ fault: 'duplicate-token-accepted' }));
    assert.equal((await dup.admin('POST', '/api/v1/user/main', { body: { username: 'a', password: 'p', token: 't' } })).status, 200);
    assert.equal((await dup.admin('POST', '/api/v1/user/backup', { body: { username: 'b', password: 'p', token: 't' } })).status, 200);
    const move = client(await reference({ fault: 'move-leaves-copy' }));
    await move.admin('POST', '/api/v1/user/main', { body: { username: 'a', password: 'p' } });
    assert.equal((await move.admin('PUT', '/api/v1/user/backup', { body: { username: 'a', password: 'p' } })).status, 200);
    assert.equal((await move.admin('DELETE', '/api/v1/user/main/a')).status, 200, 'still in the target it left');
  });

  test('update-queues-duplicate: a repeat while pending queues a second run', async () => {
    const server = await reference({ fault: 'update-queues-duplicate' });
    const c = client(server);
    await c.admin('POST', '/api/v1/playlist/update', { body: [] });
    assert.equal((await c.admin('POST', '/api/v1/playlist/update', { body: [] })).status, 202);
    assert.equal((await c.bare('GET', UPDATE_RUNS_PATH)).json.runs, 2);
  });

  test('webplayer-url-dead, two-variants-accepted, resource-needs-token, batch-as-json', async () => {
    const dead = client(await reference({ fault: 'webplayer-url-dead' }));
    const url = (await dead.admin('POST', '/api/v1/playlist/webplayer', { body: { target_id: 1, cluster: 'live', virtual_id: 1 } })).text;
    assert.equal((await call('', 'GET', url)).status, 401);

    const two = client(await reference({ fault: 'two-variants-accepted' }));
    assert.equal((await two.admin('POST', '/api/v1/playlist/live', { body: { Target: 1, Input: 7 } })).status, 200);

    const locked = await reference({ fault: 'resource-needs-token' });
    assert.equal((await client(locked).bare('GET', `/api/v1/playlist/resource/${locked.resourceId}`)).status, 401);

    const json = client(await reference({ fault: 'batch-as-json' }));
    assert.match((await json.admin('GET', '/api/v1/config/batchContent/7')).headers.get('content-type') ?? '', /^application\/json/);
  });

  test('the faults that refuse a control or answer trouble: admin-token-refused, status-forbidden, update-shutting-down, geoip-500, library-status-500', async () => {
    const refusing = client(await reference({ fault: 'admin-token-refused' }));
    assert.equal((await refusing.admin('GET', '/api/v1/status')).status, 401, 'the right admin token is refused too');
    assert.equal((await refusing.user('GET', '/api/v1/user/playlist/categories')).status, 200, 'the user token still works');
    const forbidden = client(await reference({ fault: 'status-forbidden' }));
    assert.equal((await forbidden.admin('GET', '/api/v1/status')).status, 403);
    assert.equal((await forbidden.admin('GET', '/api/v1/streams')).status, 200);
    const closing = client(await reference({ fault: 'update-shutting-down' }));
    assert.equal((await closing.admin('POST', '/api/v1/playlist/update', { body: [] })).status, 503);
    assert.equal((await client(await reference({ fault: 'geoip-500' })).admin('GET', '/api/v1/geoip/update')).status, 500);
    assert.equal((await client(await reference({ fault: 'library-status-500' })).admin('GET', '/api/v1/library/status')).status, 500);
  });

  test('geoip-202 and library-status-text answer what the document does not allow', async () => {
    assert.equal((await client(await reference({ fault: 'geoip-202' })).admin('GET', '/api/v1/geoip/update')).status, 202);
    const text = await client(await reference({ fault: 'library-status-text' })).admin('GET', '/api/v1/library/status');
    assert.equal(text.status, 200);
    assert.match(text.headers.get('content-type') ?? '', /^text\/plain/);
  });

  test('the switched-off configurations\' faults: web-auth-always, user-ui-ignored, library-disabled-scans', async () => {
    const auth = client(await reference({ fault: 'web-auth-always', settings: { webAuthEnabled: false } }));
    assert.equal((await auth.bare('GET', '/api/v1/status')).status, 401);
    const ui = client(await reference({ fault: 'user-ui-ignored', settings: { userUiEnabled: false } }));
    assert.equal((await ui.bare('GET', '/api/v1/user/playlist/categories')).status, 200);
    const lib = client(await reference({ fault: 'library-disabled-scans', settings: { libraryEnabled: false } }));
    assert.equal((await lib.admin('POST', '/api/v1/library/scan', { body: { force_rescan: false } })).status, 202);
  });
});

test("restore puts the target's redacted secrets back from the document the harness wrote, and says when it cannot", async () => {
  const { withTargetSecrets } = await import('../../suites/stream-proxy/restore.ts');
  const original = { sources: [{ password: '{{secret:target_password}}', note: 'x' }], conformance_note: 'before' };
  const current = { sources: [{ password: 'planted-provider-pass', note: 'x' }], conformance_note: 'harness' };
  assert.deepEqual(withTargetSecrets(original, current, 'sources'), { sources: [{ password: 'planted-provider-pass', note: 'x' }], conformance_note: 'before' });
  assert.throws(() => withTargetSecrets(original, { sources: [] }, 'sources'), /\/sources\/0\/password of the sources document redacted/);
});
