/**
 * The generic checks of the registry on every stream-proxy operation, with the admin or user token through the
 * descriptor's authentication step. The suite's fixture gives what the spec's schemas alone would get wrong: the
 * profile's target, input and web-player ids; a resource a listing links; a provider the deployment can reach; a fresh
 * user to update or delete; a configuration document or bouquet saved back as it is. Every write is journalled before
 * it is sent (bad input too, which a faulty target might take) and put back when the test ends; the deployment's
 * shared state (the documents, the update runs, the bouquet) is leased as the suite's own checks lease it.
 */
import { defineGenericChecks, specRequest, type GenericContext, type OperationSource } from '../../harness/generic/define.ts';
import { test } from './test.ts';
import type { Prepared } from '../../harness/generic/request-checks.ts';
import type { RequestSpec } from '../../harness/http/client.ts';
import type { Operation } from '../../harness/spec/types.ts';
import { needAccepted } from '../../harness/answers.ts';
import { guard, type Guard } from './config-guard.ts';
import { DOCS, SAVE, makeProxy, resourceFromListing, type Doc } from './proxy.ts';
import { providerFor } from './provider.ts';
import { contentHash, guardUser as guardOne, restoreBouquet, type BouquetUndo } from './restore.ts';
import type { SharedState } from './shared-state.ts';
import { userBody } from './user-body.ts';
import type { StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';

defineGenericChecks(test, {
  enabled: (op, profile) => !op.enabledBy || profile.interfaces['stream-proxy']?.settings[op.enabledBy as 'libraryEnabled'] !== false,
  // Switched off, the user and library endpoints "do not exist": any 4xx (the document names none).
  whenDisabled: Array.from({ length: 100 }, (_, i) => 400 + i),
  source: streamSource,
});

const docOf = (op: Operation): Doc | undefined => DOCS.find((d) => SAVE[d].operation === op.key);

/** What a write operation's request may change: the shared state its check leases. */
function stateOf(op: Operation): SharedState | undefined {
  if (docOf(op) || op.path.startsWith('/api/v1/user/{target}')) return 'configuration';
  if (op.key === 'POST /api/v1/playlist/update') return 'update-runs';
  if (op.key === 'POST /api/v1/user/playlist/bouquet') return 'bouquet';
  if (op.key === 'POST /api/v1/library/scan') return 'library-scan';
  return undefined;
}

async function streamSource(ctx: GenericContext): Promise<OperationSource> {
  const proxy = makeProxy(ctx);
  const s: StreamProxySettings = proxy.settings;
  const target = s.targets[0];
  const provider = await providerFor(proxy);
  const hasUserToken = ctx.secrets.has('userToken') || s.userLogin !== undefined;
  const credentialOf = (op: Operation) => (op.security.includes('userToken') ? 'user' : undefined);
  const request = (op: Operation, r: Omit<RequestSpec, 'method'>): Prepared => ({ request: { method: op.method, ...r, ...(op.security.length ? { authenticate: true, credential: credentialOf(op) } : {}) } });

  const leased = new Set<SharedState>();
  const own = async (state: SharedState) => {
    if (leased.has(state)) return;
    await proxy.exclusive(state);
    leased.add(state);
  };

  let docs: Guard | undefined;
  const guardDocs = async () => (docs ??= guard(proxy, ctx.writes, await proxy.read('before the generic checks save a document')));
  const guardedUsers = new Set<string>();
  const guardUser = (username: string) => guardOne(ctx.writes, (q) => proxy.admin(q), s.targets.map((t) => t.name), guardedUsers, username);
  let bouquet: BouquetUndo | undefined;
  const guardBouquet = async () => {
    if (bouquet) return bouquet;
    const now = await proxy.user({ method: 'GET', path: '/api/v1/user/playlist/bouquet', label: 'the bouquet as it is' });
    needAccepted(now, "the user's bouquet as it is", { why: 'it could not be journalled before a save' });
    const undo: BouquetUndo = (bouquet = { kind: 'bouquet', original: now.json ?? {}, sent: [] });
    ctx.writes.intend('POST /api/v1/user/playlist/bouquet', 'save the bouquet back as it was', undo, async () => {
      const outcome = await restoreBouquet(undo, (r) => proxy.user(r));
      if (typeof outcome === 'object') throw new Error(outcome.conflict);
      return outcome === 'restored' ? 'undone' : 'nothing';
    });
    return undo;
  };
  /** A user of this test's own, created on the first target for an update or a delete to act on. */
  const freshUser = async () => {
    const username = ctx.identity.name('user');
    guardUser(username);
    const r = await proxy.admin({ method: 'POST', path: `/api/v1/user/${encodeURIComponent(target.name)}`, json: userBody(s, username, undefined), label: `create user ${username} to act on` });
    needAccepted(r, `create user ${username} to act on`, { why: 'an update or a delete of it cannot be sent' });
    return username;
  };
  const parsed = (r: RequestSpec): unknown => {
    if (r.json !== undefined) return r.json;
    try {
      return JSON.parse(r.body ?? '');
    } catch {
      return undefined;
    }
  };

  return {
    // A refusal may rest on what the deployment needs beyond the document, where the profile leaves it unstated.
    refusalOpen: (_op, reply) => proxy.refusalOpen(reply),
    unsecured: (op) => (!s.webAuthEnabled && op.security.includes('adminToken') ? 'web_auth_enabled is false in the profile: the admin endpoints need no token' : undefined),
    otherRole: (role) => (role === 'userToken' && hasUserToken ? { credential: 'user' } : { missing: `the profile names no ${role} (credentials or settings.userLogin)` }),
    beforeWrite: async (op, r) => {
      const state = stateOf(op);
      if (state) await own(state);
      const doc = docOf(op);
      const body = parsed(r);
      if (doc) (await guardDocs()).sending(doc, body);
      if (op.path === '/api/v1/user/{target}' && typeof (body as { username?: unknown })?.username === 'string') guardUser((body as { username: string }).username);
      if (op.key === 'POST /api/v1/user/playlist/bouquet' && body !== undefined) (await guardBouquet()).sent.push(contentHash(body));
    },
    valid: async (op) => {
      if (op.security.includes('userToken') && !hasUserToken) return { notApplicable: 'the profile names no user token' };
      const state = op.write ? stateOf(op) : undefined;
      if (state) await own(state);
      const doc = docOf(op);
      if (doc) {
        // The document saved back as it is, over its current revision: valid, and it changes nothing but the revision.
        await guardDocs();
        const now = await proxy.read(`the ${doc} document to save back`);
        const revision = now.revision[doc];
        if (revision === undefined) return { notApplicable: `the ${doc} document's revision header was missing from its read: no save of it can be valid` };
        return request(op, { path: SAVE[doc].path, json: now.content[doc], headers: { 'If-Match': revision } });
      }
      switch (op.key) {
        case 'GET /api/v1/config/batchContent/{input_id}':
          return specRequest(ctx.spec, op, { input_id: s.inputId });
        case 'POST /api/v1/config/panel/login-info':
          return provider ? request(op, { path: op.path, json: { url: provider.panelUrl, username: provider.username, password: provider.password } }) : { notApplicable: 'no provider panel the deployment can reach (settings.provider)' };
        case 'POST /api/v1/file/download':
          return provider ? request(op, { path: op.path, json: { url: provider.m3uUrl, filename: 'conformance-generic.m3u' } }) : { notApplicable: 'no provider URL the deployment can reach (settings.provider)' };
        case 'POST /api/v1/playlist/update':
          return request(op, { path: op.path, json: [target.name] });
        case 'POST /api/v1/playlist/live':
        case 'POST /api/v1/playlist/vod':
        case 'POST /api/v1/playlist/series':
        case 'POST /api/v1/playlist/epg':
          return request(op, { path: op.path, json: { Target: target.id } });
        case 'POST /api/v1/playlist/series_info/{virtual_id}/{provider_id}':
          return request(op, { path: '/api/v1/playlist/series_info/1/1', json: { Target: target.id } });
        case 'POST /api/v1/playlist/series/episode/{virtual_id}':
          return request(op, { path: '/api/v1/playlist/series/episode/1', json: { Target: target.id } });
        case 'POST /api/v1/playlist/webplayer':
          return request(op, { path: op.path, json: { target_id: target.id, cluster: s.webPlayer.cluster, virtual_id: s.webPlayer.virtualId } });
        case 'GET /api/v1/playlist/resource/{resource}': {
          const resource = s.resource ?? (await resourceFromListing(proxy));
          return resource ? specRequest(ctx.spec, op, { resource }) : { notApplicable: 'no resource identifier: the profile names none (settings.resource) and no listing links one' };
        }
        case 'POST /api/v1/library/scan':
          return request(op, { path: op.path, json: { force_rescan: false } });
        case 'POST /api/v1/user/{target}': {
          const username = ctx.identity.name('user');
          guardUser(username);
          return request(op, { path: `/api/v1/user/${encodeURIComponent(target.name)}`, json: userBody(s, username, undefined) });
        }
        case 'PUT /api/v1/user/{target}':
          return request(op, { path: `/api/v1/user/${encodeURIComponent(target.name)}`, json: userBody(s, await freshUser(), undefined) });
        case 'DELETE /api/v1/user/{target}/{username}':
          return request(op, { path: `/api/v1/user/${encodeURIComponent(target.name)}/${encodeURIComponent(await freshUser())}` });
        case 'POST /api/v1/user/playlist/bouquet': {
          const undo = await guardBouquet();
          return request(op, { path: op.path, json: undo.original });
        }
        default:
          return specRequest(ctx.spec, op, {}, credentialOf(op));
      }
    },
    done: async () => {
      await provider?.close?.();
    },
  };
}
