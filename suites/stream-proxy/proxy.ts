/**
 * The stream-proxy suite's own fixture: the profile's settings and switches, the three configuration documents as the
 * profile locates them, and requests with the admin or user token. Every request goes through the harness's client.
 */
import type { RequirementId } from '../../generated/stream-proxy.ts';
import { reqTags as tagsOf } from '../../harness/verdicts.ts';
import { type Identity } from '../../harness/fixtures.ts';
import { test as base } from './test.ts';
import type { Client } from '../../harness/http/client.ts';
import type { Profile } from '../../harness/profile/types.ts';
import type { Target } from '../../harness/targets.ts';
import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import { Inconclusive } from '../../harness/verdicts.ts';
import { accepted, judged, needAccepted } from '../../harness/answers.ts';
import { ENV } from '../../harness/options.ts';
import { getAt } from '../../harness/json-pointer.ts';
import { isStated } from '../../harness/profile/load.ts';
import { streamScope, type StreamScope } from './scope.ts';
import { SHARED_STATE, type SharedState } from './shared-state.ts';
import type { StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';

export { expect, deviation, NotTested, Inconclusive, RequirementViolation } from '../../harness/fixtures.ts';
/** The tags of the requirements a test claims, typed by the spec's ids (generated/stream-proxy.ts): a misspelt id does not compile. */
export const reqTags = (...ids: RequirementId[]): string[] => tagsOf(...ids);

export { DOCS, REVISION_HEADER, SAVE, revisionOf, type Doc } from './documents.ts';
import { SAVE, revisionOf, type Doc } from './documents.ts';

/** The `reading` fixture: records the reading of an open point a check saw the target take (or what it did instead). */
export type RecordReading = (point: string, reading: string | undefined, detail?: string) => void;

/**
 * An open point a refusal of a request valid by the document may rest on, with the profile setting in which a tester
 * states the target's reading: where the profile leaves that setting to its default, such a refusal proves nothing.
 */
export interface OpenSetting {
  point: string;
  setting: string;
  /** What the target may want, and how to state it. */
  what: string;
}

/** B-NS-EXTRA-REQUEST-PARTS: what a request needs beyond the document. Extras: {} states "nothing more". */
export const EXTRAS: OpenSetting = {
  point: 'B-NS-EXTRA-REQUEST-PARTS',
  setting: 'extras',
  what: 'more than the document shows (a CSRF header, a query parameter): state it per operation in settings.extras, or extras: {} for nothing more',
};

/** B-NS-DTO-FIELDS: which members of a document (or the bouquet) a deployment keeps; the harness sets one of them. */
export const scratchMember = (setting: string, pointer: string): OpenSetting => ({
  point: 'B-NS-DTO-FIELDS',
  setting,
  what: `members it knows only, and ${pointer}, the harness's own, may be none of them: state one it knows in settings.${setting}`,
});

/** The three documents as one read shows them: their content and their revisions (undefined when a header is missing). */
export interface Snapshot {
  content: Record<Doc, unknown>;
  revision: Record<Doc, string | undefined>;
  replies: Reply[];
}

export interface Proxy {
  settings: StreamProxySettings;
  scope: StreamScope;
  live: boolean;
  /**
   * Whether the profile states a setting (a dotted path under the entry's settings) rather than leaving it to its
   * default: where the document is silent, a check holds the target only to what its profile states.
   */
  stated(setting: string): boolean;
  /**
   * Why a refusal (a 4xx) of a request valid by the document proves nothing, or undefined where it is evidence: it may
   * rest on an open point whose setting the profile leaves unstated (a default the harness guessed never becomes a
   * failure). What a request needs beyond the document (`EXTRAS`) is stated per operation, so a control rules it out:
   * a request to the same operation that the target accepted. `open` names the other points the request met.
   */
  refusalOpen(reply: Reply, o?: { control?: boolean; open?: OpenSetting[] }): string | undefined;
  admin(request: RequestSpec): Promise<Reply>;
  user(request: RequestSpec): Promise<Reply>;
  /** GET /api/v1/config and GET /api/v1/config/apiproxy: each document where the profile says it is. */
  read(label?: string): Promise<Snapshot>;
  save(doc: Doc, body: { json: unknown } | { raw: string }, ifMatch: string | undefined, label?: string): Promise<Reply>;
  /**
   * Shared state of the deployment (by default the configuration documents) to this test alone until it ends: they are one deployment's, and users live in the
   * api-proxy configuration file, so checks that save documents or change users must not interleave.
   */
  exclusive(state?: SharedState): Promise<void>;
}

/** What the suite's fixture is made from: the harness's fixtures of the test. */
export interface ProxyContext {
  api: Client;
  target: Target;
  profile: Profile;
  identity: Identity;
}

export const test = base.extend<{ stream: Proxy }>({
  // Not "proxy": Playwright has a fixture of that name (the browser's proxy).
  stream: async ({ api, target, profile, identity }, use) => {
    await use(makeProxy({ api, target, profile, identity }));
  },
});

/** The suite's view of one stream-proxy target for one test (the `stream` fixture; the generic checks' source too). */
export function makeProxy({ api, target, profile, identity }: ProxyContext): Proxy {
  const entry = profile.interfaces['stream-proxy'];
  if (!entry) throw new Error('harness: stream-proxy is not in the profile');
  const settings = entry.settings as StreamProxySettings;
  const live = !target.reference;
  const scope = streamScope(settings, { writes: profile.writes, live });
  const admin = (r: RequestSpec) => api.send({ ...r, authenticate: true });
  const proxy: Proxy = {
    settings,
    scope,
    live,
    stated: (setting) => isStated(profile, 'stream-proxy', setting),
    refusalOpen: (reply, o = {}) => {
      // Only a refusal can rest on an open point; a throttle, a server error or a page not of the API is thrown here.
      if (judged(reply) === 'accepted') return undefined;
      const open = [...(o.control ? [] : [EXTRAS]), ...(o.open ?? [])].filter((p) => !isStated(profile, 'stream-proxy', p.setting));
      if (open.length === 0) return undefined;
      return `answered ${reply.status}, a refusal that may rest on what the profile does not state: the target may want ${open.map((p) => `${p.what} (${p.point})`).join('; or ')}`;
    },
    admin,
    user: (r) => api.send({ ...r, authenticate: true, credential: 'user' }),
    read: async (label = 'read the configuration') => {
      const config = await admin({ method: 'GET', path: '/api/v1/config', label: `${label}: GET /api/v1/config` });
      // A read the check needs to go on: refused, it decides nothing (B-CONFIG-READ and B-APIPROXY-READ judge the reads).
      needAccepted(config, `${label}: GET /api/v1/config`, { why: 'the configuration could not be read' });
      const apiProxy = await admin({ method: 'GET', path: '/api/v1/config/apiproxy', label: `${label}: GET /api/v1/config/apiproxy` });
      needAccepted(apiProxy, `${label}: GET /api/v1/config/apiproxy`, { why: 'the configuration could not be read' });
      const d = settings.documents;
      return {
        content: { main: getAt(config.json, d.main.inConfig), sources: getAt(config.json, d.sources.inConfig), apiProxy: apiProxy.json },
        revision: { main: revisionOf(config, 'main'), sources: revisionOf(config, 'sources'), apiProxy: revisionOf(apiProxy, 'apiProxy') },
        replies: [config, apiProxy],
      };
    },
    exclusive: async (state = 'configuration') => {
      if (!(await identity.lease(SHARED_STATE[state], [0], 300_000))) throw new Inconclusive(process.env[ENV.shard] ? `the ${state} of the deployment is shard 1's in a sharded run against a live target (this is shard ${process.env[ENV.shard]}), or another check held it for five minutes: run stream-proxy unsplit` : `another check held the ${state} of the deployment for five minutes`);
    },
    save: (doc, body, ifMatch, label) => {
      const s = SAVE[doc];
      const content = 'json' in body ? { json: body.json } : { body: body.raw, headers: { 'content-type': 'application/json' } };
      const headers: Record<string, string | undefined> = { ...('headers' in content ? content.headers : {}), 'If-Match': ifMatch };
      return admin({ method: s.method, path: s.path, ...content, headers, label: label ?? `save ${doc}${ifMatch === undefined ? ' without If-Match' : ''}` });
    },
  };
  return proxy;
}

/** A resource identifier the server generated, from the first listing item that links one. */
export async function resourceFromListing(proxy: Proxy): Promise<string | undefined> {
  const r = await proxy.admin({ method: 'POST', path: '/api/v1/playlist/live', json: { Target: proxy.settings.targets[0].id }, label: 'a listing, for a resource identifier' });
  // A throttled or failing listing is thrown (no resource is "not carried" by an answer the API did not give).
  if (!accepted(r, 'a listing, for a resource identifier')) return undefined;
  const m = /\/api\/v1\/playlist\/resource\/([^"?\s/]+)/.exec(r.text);
  return m ? decodeURIComponent(m[1]) : undefined;
}
