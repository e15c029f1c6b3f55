// Embedded reference of Interface B: the management interface of a stream proxy (/api/v1/, under the profile's path
// prefix). Written from the document alone (where it says "not shown", the plainest choice, named where it is made);
// it never imports the suite's model, only the type of its profile settings.
import http from 'node:http';
import Router, { type HTTPMethod } from 'find-my-way';
import type { StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';
import { faultSwitch, listen, readBody } from '../plumbing.js';
import type { RunningServer } from '../types.js';
import { Auth } from './auth.js';
import { readingsOf } from './choices.js';
import { ConfigStore, REVISION_HEADER, type DocName } from './config-store.js';
import { initialDocuments, knownShapes, pruned, unknownMembers } from './documents.js';
import { faults } from './faults.js';
import { Library, SCAN_MS } from './library.js';
import { Playlists, resourceKey, type PlaylistKind } from './playlists.js';
import { fail, header, isObject, jsonBody, ok, refuse, send, type Handler, type Reply } from './replies.js';
import { Resources } from './resources.js';
import { PlaylistUpdates, UPDATE_MS } from './updates.js';
import { ProxyUsers } from './users.js';
import { WEB_PLAYER_TOKEN_MS, WebPlayer } from './web-player.js';

export type { StreamProxySettings };

export interface StreamProxyReferenceOptions {
  /** Lifetime of web-player tokens in ms (documented: 30 s). */
  webPlayerTokenMs?: number;
  /** How long past its lifetime a web-player token is still accepted, in ms (default none; B-NS-WEBPLAYER-LIFETIME). */
  webPlayerLeewayMs?: number;
  /** How long a library scan runs, in ms. */
  scanMs?: number;
  /** How long a playlist update stays pending before its run, in ms. */
  updateMs?: number;
  /** How long a GeoIP update's download takes where GeoIP is enabled, in ms (B-NS-GEOIP-UPDATE). */
  geoipMs?: number;
  /** Keep proxy users in a user database file (use_user_db) rather than in memory. */
  useUserDb?: boolean;
  /** The readings of open points the reference takes (point -> reading; see readings.ts); the rest take the first. */
  readings?: Readonly<Record<string, string>>;
}

export interface StartOptions {
  settings: StreamProxySettings;
  reference: StreamProxyReferenceOptions;
  /** adminToken and userToken (the bearer tokens), adminUser and adminPassword (for POST <prefix>/auth/token). */
  secrets: Record<string, string>;
  fault?: string;
  host?: string;
  port?: number;
}

export interface StreamProxyServer extends RunningServer {
  /** A resource id GET <prefix>/api/v1/playlist/resource/{resource} serves: the logo of the first live item of the first target. */
  resourceId: string;
  /** The folder holding the configuration files (removed on close). */
  configDir: string;
}

/** The reference's own observation of playlist-update runs (not part of the interface), under the path prefix. */
export const UPDATE_RUNS_PATH = '/__reference/playlist-update-runs';
/** Reference-only: every user by target, so that a test can see that a run left none of its own behind. */
export const USERS_PATH = '/__reference/users';
/** Where a profile may log in for the admin token (the document does not show how tokens are issued). */
export const TOKEN_PATH = '/auth/token';

/** The resource id in a listed item's logo (`.../api/v1/playlist/resource/<id>`), for tests that take it from a listing. */
export function resourceIdOf(logo: string): string | undefined {
  return /\/api\/v1\/playlist\/resource\/([^/?#]+)$/.exec(logo)?.[1];
}

type Access = 'admin' | 'user' | 'public';

/** One route of the reference, and what the readings that look at routes need to know of it. */
interface Route {
  method: HTTPMethod;
  path: string;
  access: Access;
  handle: Handler;
  /** Reads a JSON body ('optional': one it may go without), so a reading may insist on its media type (B-NS-CONTENT-TYPE). */
  json?: boolean | 'optional';
  /** A write whose success body the document does not show (B-NS-WRITE-BODIES). */
  ack?: boolean;
  /** The document gives no status for refusing its body (B-NS-REFUSAL-STATUS). */
  openRefusals?: boolean;
  /** Part of the API under /api/v1/ that a CSRF guard looks at (B-NS-EXTRA-REQUEST-PARTS). */
  guarded?: boolean;
}

/** B-NS-RATE-LIMITS, per-client-limit: a token bucket per client address. */
const RATE_BURST = 300;
const RATE_PER_SECOND = 100;
/** B-NS-GEOIP-UPDATE, enabled-downloads: how long the download takes unless reference.geoipMs says. */
const GEOIP_MS = 1200;

export async function start(options: StartOptions): Promise<StreamProxyServer> {
  const on = faultSwitch(faults, 'stream-proxy', options.fault);
  const { settings } = options;
  const reference = options.reference ?? {};
  const reading = readingsOf(reference.readings);
  const prefix = settings.pathPrefix;
  const targetIds = settings.targets.map((t) => t.id);
  const targetNames = settings.targets.map((t) => t.name);

  const ipcheck = reading('B-NS-IPINFO-UNCONFIGURED') === 'configured';
  const initial = initialDocuments(settings, Boolean(reference.useUserDb), ipcheck);
  const known = knownShapes(initial);
  const store = new ConfigStore(initial, on, reading, known);
  const serverProfiles = () => {
    const doc = store.read('apiProxy');
    const list = isObject(doc) && Array.isArray(doc.server) ? doc.server : [];
    return list.filter(isObject).map((s) => String(s.name));
  };
  const users = new ProxyUsers(targetNames, settings.serverProfile, on, reading, serverProfiles, reference.useUserDb ? store.pathOf('user.db.json') : undefined);
  const auth = new Auth(settings, options.secrets, on, reading);
  const resources = new Resources();
  const playlists = new Playlists(targetIds, settings.inputId, resources, prefix, on, reading);
  const updates = new PlaylistUpdates(targetNames, reference.updateMs ?? UPDATE_MS, on);
  const library = new Library(reference.scanMs ?? SCAN_MS, on);
  const webPlayer = new WebPlayer(reference.webPlayerTokenMs ?? WEB_PLAYER_TOKEN_MS, reference.webPlayerLeewayMs ?? 0, targetIds, on, reading);
  const startedAt = Date.now();
  const otherShapes = reading('B-NS-RESPONSE-BODIES') === 'other-shapes';
  /** The self-service bouquet: "the user's saved bouquet"; one user token, so one bouquet. */
  let bouquet: Record<string, unknown> = {};
  let bouquetSaved = false;
  let downloads = 0;

  /** A handler whose JSON body is read and parsed first (400 when it does not parse). */
  const withJson =
    (handle: (body: unknown, req: http.IncomingMessage, params: Record<string, string | undefined>) => Reply | Promise<Reply>): Handler =>
    async (req, params) => {
      // The fault: the body is parsed without catching the parser's error (answered 500 by the router).
      if (on('broken-json-500')) {
        const raw = await readBody(req);
        return raw === undefined ? fail(413, 'The body exceeds 1 MiB.') : handle(JSON.parse(raw), req, params);
      }
      const parsed = await jsonBody(req);
      return 'value' in parsed ? handle(parsed.value, req, params) : parsed;
    };

  /** The address the client used, for URLs the reference hands out. */
  const originOf = (req: http.IncomingMessage) => `http://${header(req, 'host') ?? `127.0.0.1:${(req.socket.localPort ?? 80).toString()}`}`;
  const queryOf = (req: http.IncomingMessage) => new URL(req.url ?? '/', 'http://reference.invalid').searchParams;

  // ---- configuration -------------------------------------------------------------------------------------------

  const revisionHeaders = (...docs: DocName[]) => Object.fromEntries(docs.map((d) => [REVISION_HEADER[d], store.revision(d)]));

  const readConfig: Handler = () => {
    // B-NS-CONFIG-SPLIT: where each document lies in the merged object.
    const body =
      reading('B-NS-CONFIG-SPLIT') === 'main-sources-apiproxy'
        ? { main: store.read('main'), sources: store.read('sources'), apiProxy: store.read('apiProxy') }
        : { config: store.read('main'), sources: store.read('sources'), api_proxy: store.read('apiProxy') };
    // B-NS-CONFIG-API-PROXY-REVISION: the api-proxy revision here too, or only on its own read.
    const docs: DocName[] = reading('B-NS-CONFIG-API-PROXY-REVISION') === 'main-and-sources' ? ['main', 'sources'] : ['main', 'sources', 'apiProxy'];
    return { status: 200, body, headers: on('config-without-revision-headers') ? revisionHeaders('apiProxy') : revisionHeaders(...docs) };
  };

  const readApiProxy: Handler = () => ({
    status: 200,
    body: store.read('apiProxy'),
    headers: on('apiproxy-revision-header-missing') ? {} : revisionHeaders('apiProxy'),
  });

  const save =
    (doc: DocName): Handler =>
    async (req) => {
      const raw = await readBody(req);
      if (raw === undefined) return fail(413, 'The body exceeds 1 MiB.');
      const outcome = await store.save(doc, header(req, 'if-match'), raw);
      if (outcome.status !== 200) return fail(outcome.status, outcome.message);
      return { status: 200, body: { saved: true }, headers: { [REVISION_HEADER[doc]]: outcome.revision } };
    };

  /** The raw batch CSV of the input: one provider account per line. */
  const batchContent: Handler = (_req, params) => {
    if (!/^\d+$/.test(params.input_id ?? '')) return refuse('shape', `No batch input with id ${params.input_id}.`);
    const id = Number(params.input_id);
    if (id !== settings.inputId) return refuse('unknown', `No batch input with id ${params.input_id}.`);
    const csv = ['name,url,username,password,max_connections', `input-${id}-a,http://provider.invalid,user-a,pass-a,1`, `input-${id}-b,http://provider.invalid,user-b,pass-b,2`, ''].join('\n');
    return { status: 200, text: csv, headers: { 'content-type': on('batch-as-json') ? 'application/json' : 'text/csv; charset=utf-8' } };
  };

  // ---- playlists -----------------------------------------------------------------------------------------------

  const listing = (kind: PlaylistKind) => withJson((body, req) => playlists.listing(kind, body, { origin: originOf(req), query: queryOf(req) }));

  const update: Handler = async (req) => {
    // The fault: the updater's queue was closed as for a shutdown that never came; every update gets the document's
    // "503 server shutting down".
    if (on('update-shutting-down')) return fail(503, 'The server is shutting down.');
    // While an update is pending any request is 202, so a body that does not parse is not refused before that (unless
    // the body-first reading of B-NS-UPDATE-ORDER checks it first).
    const parsed = await jsonBody(req);
    return updates.request('value' in parsed ? parsed.value : undefined, reading('B-NS-UPDATE-ORDER') === 'body-first');
  };

  const webPlayerUrl = withJson((body, req) => webPlayer.issue(body, originOf(req), prefix));

  const resource: Handler = (_req, params) => {
    const id = params.resource ?? '';
    if (!resources.has(id)) {
      // B-NS-RESOURCE: an unknown id is not found, or (its decoding fails) a bad request.
      return reading('B-NS-RESOURCE') === 'absolute-logo-unknown-400' ? fail(400, 'Not a resource identifier of this server.') : fail(404, 'No such resource.');
    }
    return { status: 200, bytes: resources.image, headers: { 'content-type': 'image/png', 'cache-control': 'public, max-age=3600' } };
  };

  // ---- users ---------------------------------------------------------------------------------------------------

  const userReply = (outcome: ReturnType<ProxyUsers['create']>): Reply => {
    if (outcome.ok) return ok({ ok: true, ...(outcome.user ? { username: outcome.user.username } : {}) });
    return outcome.unknownTarget ? refuse('unknown', outcome.message) : fail(400, outcome.message);
  };

  const saveBouquet = withJson((body) => {
    if (!isObject(body)) return refuse('shape', 'The bouquet must be a JSON object (PlaylistBouquetDto).');
    // B-NS-DTO-FIELDS: a typed deployment drops, or refuses, the members its bouquet does not know.
    const members = reading('B-NS-DTO-FIELDS');
    const unknown = unknownMembers(body, known.bouquet);
    if (members === 'unknown-members-refused' && unknown.length) return refuse('shape', `Unknown member(s) ${unknown.slice(0, 5).join(', ')} in the bouquet.`);
    const kept = members === 'unknown-members-dropped' ? (pruned(body, known.bouquet) as Record<string, unknown>) : body;
    if (!on('bouquet-not-saved')) {
      bouquet = kept;
      bouquetSaved = true;
    }
    return ok({ saved: true });
  });

  // B-NS-BOUQUET-UNSAVED: before any save the bouquet is empty, or (null-until-saved) there is none.
  const readBouquet: Handler = () =>
    bouquetSaved || reading('B-NS-BOUQUET-UNSAVED') === 'empty-object' ? ok(bouquet) : { status: 200, text: 'null', headers: { 'content-type': 'application/json; charset=utf-8' } };

  // ---- the rest ------------------------------------------------------------------------------------------------

  const status: Handler = () => {
    // The fault: the status sits behind a permission of its own that the admin token was never given.
    if (on('status-forbidden')) return fail(403, 'Viewing the server status needs the metrics permission.');
    const uptime = Math.floor((Date.now() - startedAt) / 1000);
    const state = otherShapes
      ? {
          state: 'running',
          build: { version: '0.0.0-reference' },
          started_at: new Date(startedAt).toISOString(),
          uptime_secs: uptime,
          users: { total: users.count() },
          connections: { active: 0 },
          jobs: { playlist_update: updates.pending ? 'pending' : 'idle', ...(settings.libraryEnabled ? { library_scan: library.scanning ? 'running' : 'idle' } : {}) },
        }
      : {
          status: 'ok',
          version: '0.0.0-reference',
          server_time: new Date().toISOString(),
          uptime_seconds: uptime,
          active_users: users.count(),
          active_connections: 0,
          update_pending: updates.pending,
          library_scanning: settings.libraryEnabled ? library.scanning : undefined,
        };
    // The fault: the state wrapped in a list, as a handler written for several servers would send it.
    return ok(on('status-array') ? [state] : state);
  };

  const geoip: Handler = async () => {
    if (on('geoip-500')) return fail(500, 'GeoIP update crashed.');
    // The fault: the download started in the background and answered at once, as a job queue would.
    if (on('geoip-202')) return ok({ started: true }, 202);
    if (reading('B-NS-GEOIP-UPDATE') === 'enabled-downloads') {
      // The database is downloaded before the answer (the reference waits as long instead).
      await new Promise((resolve) => setTimeout(resolve, reference.geoipMs ?? GEOIP_MS));
      return ok({ updated: true });
    }
    return fail(400, 'GeoIP is disabled on this deployment.');
  };

  const ipinfo: Handler = () => {
    const how = reading('B-NS-IPINFO-UNCONFIGURED');
    if (how === 'unconfigured-400') return fail(400, 'ipcheck is not configured in config.yml.');
    const [ipv4, ipv6] = how === 'unconfigured-null-addresses' ? [null, null] : ['192.0.2.10', '2001:db8::10'];
    return ok(otherShapes ? { ip: { v4: ipv4, v6: ipv6 } } : { ipv4, ipv6 });
  };

  const fileDownload: Handler = async (req) => {
    const raw = await readBody(req);
    if (raw === undefined) return fail(413, 'The body exceeds 1 MiB.');
    // B-NS-DOWNLOAD-STATUS: the accepted task's status.
    const accepted = reading('B-NS-DOWNLOAD-STATUS') === 'ok-200' ? 200 : 202;
    // B-NS-DOWNLOAD-PAYLOAD: whatever is sent is queued (and nothing is downloaded), or (url-required) the body names the
    // URL to download and the answer is the queued task.
    if (reading('B-NS-DOWNLOAD-PAYLOAD') !== 'url-required') return ok({}, accepted);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return fail(400, 'The body is not valid JSON.');
    }
    if (!isObject(body) || typeof body.url !== 'string' || !/^https?:\/\/[^/\s]+/i.test(body.url)) return refuse('shape', 'The body must name the url (http or https) to download.');
    if (body.filename !== undefined && typeof body.filename !== 'string') return refuse('shape', 'filename must be a string.');
    const filename = typeof body.filename === 'string' ? body.filename : body.url.split(/[?#]/)[0].split('/').pop() || 'download';
    return ok({ id: ++downloads, url: body.url, filename, status: 'queued' }, accepted);
  };

  const downloadInfo: Handler = () => ok(otherShapes ? { queue: [], active: null } : {});

  const scan: Handler = async (req) => {
    // Registered with the library off only by the registered-refusing reading of B-NS-DISABLED-ANSWER (or the fault).
    if (!settings.libraryEnabled && !on('library-disabled-scans')) return fail(400, 'The library is not enabled.');
    const raw = await readBody(req);
    if (raw === undefined) return fail(413, 'The body exceeds 1 MiB.');
    // B-NS-SCAN-BODY: force_rescan may be left out; or it is required; or the whole body may be.
    const scanBody = reading('B-NS-SCAN-BODY');
    let body: unknown = {};
    if (!(raw.trim() === '' && scanBody === 'body-optional')) {
      try {
        body = JSON.parse(raw);
      } catch {
        return fail(400, 'The body is not valid JSON.');
      }
    }
    return library.scan(body, scanBody === 'force-rescan-required');
  };

  const libraryStatus: Handler = () => (settings.libraryEnabled ? library.status(otherShapes) : fail(400, 'The library is not enabled.'));

  // ---- routes --------------------------------------------------------------------------------------------------

  const api = (path: string) => `${prefix}/api/v1${path}`;
  const route = (method: HTTPMethod, path: string, access: Access, handle: Handler, more: Partial<Route> = {}): Route => ({ method, path, access, handle, guarded: path.startsWith(api('/')), ...more });
  const loginPath = reading('B-NS-TOKEN-ISSUING') === 'api-login-path' ? api('/auth/login') : `${prefix}${TOKEN_PATH}`;
  const routes: Route[] = [
    // A login is not guarded against CSRF: it is what gives a client its token.
    route('POST', loginPath, 'public', withJson((body) => auth.login(body)), { guarded: false }),
    route('GET', `${prefix}${USERS_PATH}`, 'public', () => ok(users.names())),
    route('GET', `${prefix}/stream/:token/:target/:virtual`, 'public', (_req, p) => webPlayer.stream(p.token ?? '', p.target ?? '', p.virtual ?? '')),

    route('GET', api('/status'), 'admin', status),
    route('GET', api('/streams'), on('streams-open') ? 'public' : 'admin', () => ok(on('streams-object') ? { streams: [] } : [])),
    route('GET', api('/geoip/update'), 'admin', geoip),
    route('GET', api('/ipinfo'), 'admin', ipinfo),

    route('GET', api('/config'), 'admin', readConfig),
    route('POST', api('/config/main'), 'admin', save('main'), { json: true, ack: true }),
    route('POST', api('/config/sources'), 'admin', save('sources'), { json: true, ack: true }),
    route('GET', api('/config/apiproxy'), 'admin', readApiProxy),
    route('PUT', api('/config/apiproxy'), 'admin', save('apiProxy'), { json: true, ack: true }),
    route('GET', api('/config/batchContent/:input_id'), 'admin', batchContent),
    route('POST', api('/config/panel/login-info'), 'admin', withJson((body) => playlists.panelLogin(body)), { json: true, openRefusals: true }),
    route('POST', api('/file/download'), 'admin', fileDownload, { json: 'optional', openRefusals: true }),
    route('GET', api('/file/download/info'), 'admin', downloadInfo),

    route('POST', api('/playlist/update'), 'admin', update, { json: true, ack: true }),
    route('POST', api('/playlist/live'), 'admin', listing('live'), { json: true, openRefusals: true }),
    route('POST', api('/playlist/vod'), 'admin', listing('vod'), { json: true, openRefusals: true }),
    route('POST', api('/playlist/series'), 'admin', listing('series'), { json: true, openRefusals: true }),
    route('POST', api('/playlist/series_info/:virtual_id/:provider_id'), 'admin', withJson((body, _req, p) => playlists.seriesDetail(body, { virtualId: p.virtual_id ?? '', providerId: p.provider_id ?? '' })), { json: true, openRefusals: true }),
    route('POST', api('/playlist/series/episode/:virtual_id'), 'admin', withJson((body, _req, p) => playlists.seriesDetail(body, { virtualId: p.virtual_id ?? '' })), { json: true, openRefusals: true }),
    route('POST', api('/playlist/epg'), 'admin', withJson((body) => playlists.epg(body)), { json: true, openRefusals: true }),
    route('POST', api('/playlist/webplayer'), 'admin', webPlayerUrl, { json: true, openRefusals: true }),
    route('GET', api('/playlist/resource/:resource'), on('resource-needs-token') ? 'admin' : 'public', resource),

    route('POST', api('/user/:target'), 'admin', withJson((body, _req, p) => userReply(users.create(p.target ?? '', body))), { json: true, ack: true }),
    route('PUT', api('/user/:target'), 'admin', withJson((body, _req, p) => userReply(users.update(p.target ?? '', body))), { json: true, ack: true }),
    route('DELETE', api('/user/:target/:username'), 'admin', (_req, p) => userReply(users.remove(p.target ?? '', p.username ?? '')), { ack: true }),
  ];
  // B-NS-DUPLICATE-UPDATE: the reference's own view of the runs, which a deployment need not offer.
  if (reading('B-NS-DUPLICATE-UPDATE') === 'reference-observation') routes.push(route('GET', `${prefix}${UPDATE_RUNS_PATH}`, 'public', () => ok(updates.observed())));

  // "The library endpoints exist only when library.enabled is true" (the fault registers the scan regardless; the
  // registered-refusing reading of B-NS-DISABLED-ANSWER registers both, to answer 400 "library not enabled").
  const refusingWhenOff = reading('B-NS-DISABLED-ANSWER') === 'registered-refusing';
  const scanWhen = settings.libraryEnabled || on('library-disabled-scans') || refusingWhenOff;
  if (scanWhen) routes.push(route('POST', api('/library/scan'), 'admin', scan, { json: reading('B-NS-SCAN-BODY') === 'body-optional' ? 'optional' : true, ack: true, openRefusals: true }));
  if (settings.libraryEnabled || refusingWhenOff) routes.push(route('GET', api('/library/status'), 'admin', libraryStatus));
  // The self-service endpoints "exist only when user_ui_enabled is true". The fault registers them regardless, but
  // their user-token guard only where the user UI is set up: with it off they answer anyone. The registered-refusing
  // reading registers them with the user UI off to answer 403.
  if (settings.userUiEnabled || on('user-ui-ignored')) {
    const access: Access = settings.userUiEnabled ? 'user' : 'public';
    routes.push(
      route('GET', api('/user/playlist/categories'), access, () => ok(playlists.categories())),
      route('GET', api('/user/playlist/bouquet'), access, readBouquet),
      route('POST', api('/user/playlist/bouquet'), access, saveBouquet, { json: true, ack: true, openRefusals: true }),
    );
  } else if (refusingWhenOff) {
    const off: Handler = () => fail(403, 'The user UI is disabled on this deployment.');
    routes.push(route('GET', api('/user/playlist/categories'), 'public', off), route('GET', api('/user/playlist/bouquet'), 'public', off), route('POST', api('/user/playlist/bouquet'), 'public', off));
  }
  // B-NS-USER-PATHS, playlist-reserved: every path under /api/v1/user/playlist/ belongs to the self-service endpoints,
  // so DELETE there is theirs (a method they do not serve), never a user of a target named "playlist".
  if (reading('B-NS-USER-PATHS') === 'playlist-reserved') {
    routes.push(
      route('DELETE', api('/user/playlist/:rest'), settings.userUiEnabled ? 'user' : 'public', () =>
        settings.userUiEnabled ? fail(405, 'The self-service endpoints take GET and POST.', { allow: 'GET, POST' }) : fail(404, 'No such route.'),
      ),
    );
  }

  // ---- what the readings change around every route -------------------------------------------------------------

  const errorBody = reading('B-NS-ERROR-BODY');
  /** The answer as sent: the statuses the readings give refusals, the shape of error bodies, empty success bodies. */
  const finish = (res: http.ServerResponse, reply: Reply, at?: Route): void => {
    let r = reply;
    if (r.kind === 'unknown' && reading('B-NS-UNKNOWN-SOURCE') === 'not-found-404') r = { ...r, status: 404 };
    if (r.kind === 'provider' && reading('B-NS-PROVIDER') === 'bad-gateway-502') r = { ...r, status: 502 };
    if (r.kind === 'shape' && at?.openRefusals && reading('B-NS-REFUSAL-STATUS') === 'unprocessable-422') r = { ...r, status: 422 };
    if (at?.ack && r.status >= 200 && r.status < 300 && reading('B-NS-WRITE-BODIES') === 'empty-body') r = { status: r.status, empty: true, headers: r.headers };
    if (r.refusal !== undefined) {
      // B-NS-ERROR-BODY: how a refusal's sentence is sent.
      const title = http.STATUS_CODES[r.status] ?? 'Error';
      const headers = r.headers;
      if (errorBody === 'problem-json') r = { status: r.status, body: { type: 'about:blank', title, status: r.status, detail: r.refusal }, headers: { ...headers, 'content-type': 'application/problem+json' } };
      else if (errorBody === 'plain-text') r = { status: r.status, text: `${r.refusal}\n`, headers };
      else if (errorBody === 'empty') r = { status: r.status, empty: true, headers };
      else r = { status: r.status, body: { error: title, message: r.refusal }, headers };
    }
    send(res, r);
  };

  const guard = reading('B-NS-EXTRA-REQUEST-PARTS') === 'csrf-header';
  const strictMediaType = reading('B-NS-CONTENT-TYPE') === 'json-required-415';
  /** What a request must carry beyond its credentials before its handler runs (undefined: nothing missing). */
  const before = (req: http.IncomingMessage, at: Route): Reply | undefined => {
    // B-NS-EXTRA-REQUEST-PARTS, csrf-header: a web UI's CSRF guard wants X-Requested-With on every POST, PUT and DELETE.
    if (guard && at.guarded && at.method !== 'GET' && (header(req, 'x-requested-with') ?? '').toLowerCase() !== 'xmlhttprequest') {
      return fail(403, 'X-Requested-With: XMLHttpRequest is required (CSRF protection).');
    }
    // B-NS-CONTENT-TYPE, json-required-415: a JSON body must say it is one.
    if (strictMediaType && at.json) {
      const hasBody = Number(header(req, 'content-length') ?? '0') > 0 || header(req, 'transfer-encoding') !== undefined;
      const isJson = /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(header(req, 'content-type') ?? '');
      if (!isJson && (at.json === true || hasBody)) return fail(415, 'Content-Type: application/json is required.');
    }
    return undefined;
  };

  const apiRoot = api('/');
  const resourceRoot = api('/playlist/resource/');
  const authFirst = reading('B-NS-AUTH-ORDER') === 'auth-first';
  const allowOthers = reading('B-NS-WRONG-METHOD') === 'method-not-allowed-405';
  const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

  // Anything not routed is 404, a known path with another method too: a route that does not exist here (the user
  // endpoints with the user UI off) must look the same as one that never existed. The readings: B-NS-AUTH-ORDER's
  // auth-first checks the admin token on every path under /api/v1/ before looking for a route, and B-NS-WRONG-METHOD's
  // method-not-allowed-405 answers a known path's other methods 405.
  const router = Router({
    ignoreTrailingSlash: true,
    defaultRoute: (req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (authFirst && path.startsWith(apiRoot) && !path.startsWith(resourceRoot)) {
        const refused = auth.admin(req);
        if (refused) return finish(res, refused);
      }
      if (allowOthers) {
        const allowed = METHODS.filter((m) => m !== req.method && router.find(m, path) !== null);
        if (allowed.length) return finish(res, fail(405, `${req.method ?? 'This method'} is not allowed here.`, { allow: allowed.join(', ') }));
      }
      finish(res, fail(404, 'No such route.'));
    },
  });
  for (const at of routes) {
    router.on(at.method, at.path, (req, res, params) => {
      const refused = (at.access === 'admin' ? auth.admin(req) : at.access === 'user' ? auth.user(req) : undefined) ?? before(req, at);
      if (refused) return finish(res, refused, at);
      // The faults: a malformed query escape "cleaned" by a redirect to the bare path; ipinfo moved under a trailing
      // slash, its documented path redirecting there.
      const url = req.url ?? '';
      if (on('odd-query-redirect') && /%(?![0-9a-f]{2})/i.test(url.split('?')[1] ?? '')) return finish(res, { status: 301, text: '', headers: { location: url.split('?')[0]! } }, at);
      if (on('ipinfo-moved') && at.path === api('/ipinfo')) return finish(res, { status: 308, text: '', headers: { location: `${url.split('?')[0]}/` } }, at);
      Promise.resolve()
        .then(() => at.handle(req, params))
        .then(
          (reply) => finish(res, reply, at),
          () => (res.headersSent ? res.destroy() : finish(res, fail(500, 'Unexpected error.'), at)),
        );
    });
  }

  // B-NS-RATE-LIMITS, per-client-limit: a token bucket per client address in front of everything.
  const limited = reading('B-NS-RATE-LIMITS') === 'per-client-limit';
  const buckets = new Map<string, { tokens: number; at: number }>();
  const overLimit = (req: http.IncomingMessage): boolean => {
    const key = req.socket.remoteAddress ?? '';
    const now = Date.now();
    const bucket = buckets.get(key) ?? { tokens: RATE_BURST, at: now };
    bucket.tokens = Math.min(RATE_BURST, bucket.tokens + ((now - bucket.at) / 1000) * RATE_PER_SECOND);
    bucket.at = now;
    buckets.set(key, bucket);
    if (bucket.tokens < 1) return true;
    bucket.tokens -= 1;
    return false;
  };

  const server = http.createServer((req, res) => {
    if (limited && overLimit(req)) return finish(res, fail(429, 'Too many requests; slow down.', { 'retry-after': '1' }));
    router.lookup(req, res);
  });
  const running = await listen(server, options.host, options.port, () => {
    updates.close();
    library.close();
  });
  return {
    ...running,
    close: async () => {
      await running.close();
      store.close();
    },
    resourceId: resources.idFor(resourceKey(`target:${settings.targets[0].id}`, 'live', 0)),
    configDir: store.dir,
  };
}
