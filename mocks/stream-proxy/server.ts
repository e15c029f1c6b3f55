// Embedded reference of Interface B: the management interface of a stream proxy (/api/v1/, under the profile's path
// prefix). Written from the document alone (where it says "not shown", the plainest choice, named where it is made);
// it never imports the suite's model, only the type of its profile settings.
import http from 'node:http';
import Router, { type HTTPMethod } from 'find-my-way';
import type { StreamProxySettings } from '../../suites/stream-proxy/settings.ts';
import { faultSwitch, listen, readBody } from '../plumbing.js';
import type { RunningServer } from '../types.js';
import { Auth } from './auth.js';
import { ConfigStore, REVISION_HEADER, type DocName } from './config-store.js';
import { initialDocuments } from './documents.js';
import { faults } from './faults.js';
import { Library, SCAN_MS } from './library.js';
import { Playlists, resourceKey, type PlaylistKind } from './playlists.js';
import { fail, header, isObject, jsonBody, ok, send, type Handler, type Reply } from './replies.js';
import { Resources } from './resources.js';
import { PlaylistUpdates, UPDATE_MS } from './updates.js';
import { ProxyUsers } from './users.js';
import { WEB_PLAYER_TOKEN_MS, WebPlayer } from './web-player.js';

export type { StreamProxySettings };

export interface StreamProxyReferenceOptions {
  /** Lifetime of web-player tokens in ms (documented: 30 s). */
  webPlayerTokenMs?: number;
  /** How long a library scan runs, in ms. */
  scanMs?: number;
  /** How long a playlist update stays pending before its run, in ms. */
  updateMs?: number;
  /** Keep proxy users in a user database file (use_user_db) rather than in memory. */
  useUserDb?: boolean;
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

export async function start(options: StartOptions): Promise<StreamProxyServer> {
  const on = faultSwitch(faults, 'stream-proxy', options.fault);
  const { settings } = options;
  const reference = options.reference ?? {};
  const prefix = settings.pathPrefix;
  const targetIds = settings.targets.map((t) => t.id);
  const targetNames = settings.targets.map((t) => t.name);

  const store = new ConfigStore(initialDocuments(settings, Boolean(reference.useUserDb)), on);
  const users = new ProxyUsers(targetNames, settings.serverProfile, on, reference.useUserDb ? store.pathOf('user.db.json') : undefined);
  const auth = new Auth(settings, options.secrets, on);
  const resources = new Resources();
  const playlists = new Playlists(targetIds, settings.inputId, resources, prefix, on);
  const updates = new PlaylistUpdates(targetNames, reference.updateMs ?? UPDATE_MS, on);
  const library = new Library(reference.scanMs ?? SCAN_MS, on);
  const webPlayer = new WebPlayer(reference.webPlayerTokenMs ?? WEB_PLAYER_TOKEN_MS, targetIds, on);
  const startedAt = Date.now();
  /** The self-service bouquet: "the user's saved bouquet"; one user token, so one bouquet. */
  let bouquet: Record<string, unknown> = {};

  /** A handler whose JSON body is read and parsed first (400 when it does not parse). */
  const withJson =
    (handle: (body: unknown, req: http.IncomingMessage, params: Record<string, string | undefined>) => Reply | Promise<Reply>): Handler =>
    async (req, params) => {
      const parsed = await jsonBody(req);
      return 'value' in parsed ? handle(parsed.value, req, params) : parsed;
    };

  // ---- configuration -------------------------------------------------------------------------------------------

  const revisionHeaders = (...docs: DocName[]) => Object.fromEntries(docs.map((d) => [REVISION_HEADER[d], store.revision(d)]));

  const readConfig: Handler = () => {
    const body = { config: store.read('main'), sources: store.read('sources'), api_proxy: store.read('apiProxy') };
    return { status: 200, body, headers: on('config-without-revision-headers') ? revisionHeaders('apiProxy') : revisionHeaders('main', 'sources', 'apiProxy') };
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
    const id = Number(params.input_id);
    if (!/^\d+$/.test(params.input_id ?? '') || id !== settings.inputId) return fail(400, `No batch input with id ${params.input_id}.`);
    const csv = ['name,url,username,password,max_connections', `input-${id}-a,http://provider.invalid,user-a,pass-a,1`, `input-${id}-b,http://provider.invalid,user-b,pass-b,2`, ''].join('\n');
    return { status: 200, text: csv, headers: { 'content-type': on('batch-as-json') ? 'application/json' : 'text/csv; charset=utf-8' } };
  };

  // ---- playlists -----------------------------------------------------------------------------------------------

  const listing = (kind: PlaylistKind) => withJson((body) => playlists.listing(kind, body));

  const update: Handler = async (req) => {
    // While an update is pending any request is 202, so a body that does not parse is not refused before that.
    const parsed = await jsonBody(req);
    return updates.request('value' in parsed ? parsed.value : undefined);
  };

  const webPlayerUrl = withJson((body, req) => {
    const host = header(req, 'host') ?? `127.0.0.1:${(req.socket.localPort ?? 80).toString()}`;
    return webPlayer.issue(body, `http://${host}`, prefix);
  });

  const resource: Handler = (_req, params) => {
    const id = params.resource ?? '';
    if (!resources.has(id)) return fail(404, 'No such resource.');
    return { status: 200, bytes: resources.image, headers: { 'content-type': 'image/png', 'cache-control': 'public, max-age=3600' } };
  };

  // ---- users ---------------------------------------------------------------------------------------------------

  const userReply = (outcome: ReturnType<ProxyUsers['create']>): Reply => (outcome.ok ? ok({ ok: true, ...(outcome.user ? { username: outcome.user.username } : {}) }) : fail(400, outcome.message));

  const saveBouquet = withJson((body) => {
    if (!isObject(body)) return fail(400, 'The bouquet must be a JSON object (PlaylistBouquetDto).');
    if (!on('bouquet-not-saved')) bouquet = body;
    return ok({ saved: true });
  });

  // ---- the rest ------------------------------------------------------------------------------------------------

  const status: Handler = () => {
    const state = {
      status: 'ok',
      version: '0.0.0-reference',
      server_time: new Date().toISOString(),
      uptime_seconds: Math.floor((Date.now() - startedAt) / 1000),
      active_users: users.count(),
      active_connections: 0,
      update_pending: updates.pending,
      library_scanning: settings.libraryEnabled ? library.scanning : undefined,
    };
    // The fault: the state wrapped in a list, as a handler written for several servers would send it.
    return ok(on('status-array') ? [state] : state);
  };

  const fileDownload: Handler = async (req) => {
    // "payload shape: not shown": whatever is sent is queued (and nothing is downloaded).
    if ((await readBody(req)) === undefined) return fail(413, 'The body exceeds 1 MiB.');
    return ok({}, 202);
  };

  // ---- routes --------------------------------------------------------------------------------------------------

  const api = (path: string) => `${prefix}/api/v1${path}`;
  const routes: Array<[HTTPMethod, string, Access, Handler]> = [
    ['POST', `${prefix}${TOKEN_PATH}`, 'public', withJson((body) => auth.login(body))],
    ['GET', `${prefix}${UPDATE_RUNS_PATH}`, 'public', () => ok(updates.observed())],
    ['GET', `${prefix}${USERS_PATH}`, 'public', () => ok(users.names())],
    ['GET', `${prefix}/stream/:token/:target/:virtual`, 'public', (_req, p) => webPlayer.stream(p.token ?? '', p.target ?? '', p.virtual ?? '')],

    ['GET', api('/status'), 'admin', status],
    ['GET', api('/streams'), on('streams-open') ? 'public' : 'admin', () => ok(on('streams-object') ? { streams: [] } : [])],
    ['GET', api('/geoip/update'), 'admin', () => (on('geoip-500') ? fail(500, 'GeoIP update crashed.') : fail(400, 'GeoIP is disabled on this deployment.'))],
    ['GET', api('/ipinfo'), 'admin', () => ok({ ipv4: '192.0.2.10', ipv6: '2001:db8::10' })],

    ['GET', api('/config'), 'admin', readConfig],
    ['POST', api('/config/main'), 'admin', save('main')],
    ['POST', api('/config/sources'), 'admin', save('sources')],
    ['GET', api('/config/apiproxy'), 'admin', readApiProxy],
    ['PUT', api('/config/apiproxy'), 'admin', save('apiProxy')],
    ['GET', api('/config/batchContent/:input_id'), 'admin', batchContent],
    ['POST', api('/config/panel/login-info'), 'admin', withJson((body) => playlists.panelLogin(body))],
    ['POST', api('/file/download'), 'admin', fileDownload],
    ['GET', api('/file/download/info'), 'admin', () => ok({})],

    ['POST', api('/playlist/update'), 'admin', update],
    ['POST', api('/playlist/live'), 'admin', listing('live')],
    ['POST', api('/playlist/vod'), 'admin', listing('vod')],
    ['POST', api('/playlist/series'), 'admin', listing('series')],
    ['POST', api('/playlist/series_info/:virtual_id/:provider_id'), 'admin', withJson((body, _req, p) => playlists.seriesDetail(body, { virtualId: p.virtual_id ?? '', providerId: p.provider_id ?? '' }))],
    ['POST', api('/playlist/series/episode/:virtual_id'), 'admin', withJson((body, _req, p) => playlists.seriesDetail(body, { virtualId: p.virtual_id ?? '' }))],
    ['POST', api('/playlist/epg'), 'admin', withJson((body) => playlists.epg(body))],
    ['POST', api('/playlist/webplayer'), 'admin', webPlayerUrl],
    ['GET', api('/playlist/resource/:resource'), on('resource-needs-token') ? 'admin' : 'public', resource],

    ['POST', api('/user/:target'), 'admin', withJson((body, _req, p) => userReply(users.create(p.target ?? '', body)))],
    ['PUT', api('/user/:target'), 'admin', withJson((body, _req, p) => userReply(users.update(p.target ?? '', body)))],
    ['DELETE', api('/user/:target/:username'), 'admin', (_req, p) => userReply(users.remove(p.target ?? '', p.username ?? ''))],
  ];
  // "The library endpoints exist only when library.enabled is true" (the fault registers the scan regardless).
  if (settings.libraryEnabled || on('library-disabled-scans')) routes.push(['POST', api('/library/scan'), 'admin', withJson((body) => library.scan(body))]);
  if (settings.libraryEnabled) routes.push(['GET', api('/library/status'), 'admin', () => library.status()]);
  // The self-service endpoints "exist only when user_ui_enabled is true". The fault registers them regardless, but
  // their user-token guard only where the user UI is set up: with it off they answer anyone.
  if (settings.userUiEnabled || on('user-ui-ignored')) {
    const access: Access = settings.userUiEnabled ? 'user' : 'public';
    routes.push(
      ['GET', api('/user/playlist/categories'), access, () => ok(playlists.categories())],
      ['GET', api('/user/playlist/bouquet'), access, () => ok(bouquet)],
      ['POST', api('/user/playlist/bouquet'), access, saveBouquet],
    );
  }

  // Anything not routed is 404, a known path with another method too: a route that does not exist here (the user
  // endpoints with the user UI off) must look the same as one that never existed.
  const router = Router({ ignoreTrailingSlash: true, defaultRoute: (_req, res) => send(res, fail(404, 'No such route.')) });
  for (const [method, path, access, handle] of routes) {
    router.on(method, path, (req, res, params) => {
      const refused = access === 'admin' ? auth.admin(req) : access === 'user' ? auth.user(req) : undefined;
      if (refused) return send(res, refused);
      Promise.resolve()
        .then(() => handle(req, params))
        .then(
          (reply) => send(res, reply),
          () => (res.headersSent ? res.destroy() : send(res, fail(500, 'Unexpected error.'))),
        );
    });
  }

  const server = http.createServer((req, res) => router.lookup(req, res));
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
