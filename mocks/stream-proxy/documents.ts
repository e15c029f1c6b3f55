// What the three configuration documents hold when the reference starts. "Inner fields of these ... objects: not
// shown": the reference follows the layout a stream proxy of this kind uses (config.yml, source.yml, api-proxy.yml),
// filled from the profile's settings so that the targets and the input the profile names are the ones it serves.
import type { StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';
import { PLANTED_SECRETS } from './planted.js';

/** The three configuration documents a deployment keeps. */
export type DocName = 'main' | 'sources' | 'apiProxy';

export function initialDocuments(settings: StreamProxySettings, useUserDb: boolean, ipcheck = true): Record<DocName, unknown> {
  const main = {
    api: { host: '0.0.0.0', port: 8901, web_root: './web' },
    working_dir: './data',
    update_on_boot: false,
    web_ui: {
      enabled: true,
      user_ui_enabled: settings.userUiEnabled,
      ...(settings.pathPrefix ? { path: settings.pathPrefix.slice(1) } : {}),
      auth: { enabled: settings.webAuthEnabled, issuer: 'stream_proxy', userfile: './user.txt' },
    },
    library: { enabled: settings.libraryEnabled, scan_directories: [{ path: './media', recursive: true }] },
    // Without ipcheck (the unconfigured readings of B-NS-IPINFO-UNCONFIGURED) GET /api/v1/ipinfo has nothing to ask.
    ...(ipcheck ? { ipcheck: { url_ipv4: 'https://ipinfo.invalid/ip', url_ipv6: 'https://ipinfo6.invalid/ip' } } : {}),
    schedules: [{ schedule: '0 0 8 * * * *', targets: settings.targets.map((t) => t.name) }],
  };
  const sources = {
    templates: [],
    sources: [
      {
        inputs: [
          {
            id: settings.inputId,
            name: `input-${settings.inputId}`,
            type: 'xtream',
            url: 'http://provider.invalid',
            username: 'provider-user',
            password: PLANTED_SECRETS.providerPassword,
            enabled: true,
          },
        ],
        targets: settings.targets.map((t) => ({
          id: t.id,
          name: t.name,
          enabled: true,
          output: [{ type: 'xtream' }, { type: 'm3u' }],
        })),
      },
    ],
  };
  // "without the user list": users are kept apart (users.ts), whichever way use_user_db says.
  const apiProxy = {
    server: [{ name: settings.serverProfile, protocol: 'http', host: '127.0.0.1', port: '8901', timezone: 'UTC', message: 'Welcome' }],
    use_user_db: useUserDb,
  };
  return { main, sources, apiProxy };
}

// ---- typed documents (the readings of B-NS-DTO-FIELDS other than kept-as-sent) --------------------------------------
// A deployment that deserialises each document into typed structures knows its members: what it does not know it drops
// (serde's default) or refuses (deny_unknown_fields). The members it knows are those of the layout above, and a few
// optional ones the layout leaves out.

/** The members a typed deployment knows: an object's members, an array's items, or anything (a leaf, an empty list). */
export type Shape = { kind: 'any' } | { kind: 'object'; members: Record<string, Shape> } | { kind: 'array'; items: Shape };

const ANY: Shape = { kind: 'any' };
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The shape of a value: its objects' members (an array's items merged), anything below a leaf or an empty list. */
export function shapeOf(value: unknown): Shape {
  if (Array.isArray(value)) return value.length ? { kind: 'array', items: value.map(shapeOf).reduce(merge) } : ANY;
  if (isRecord(value)) return { kind: 'object', members: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)])) };
  return ANY;
}

function merge(a: Shape, b: Shape): Shape {
  if (a.kind === 'object' && b.kind === 'object') {
    const members = { ...a.members };
    for (const [k, v] of Object.entries(b.members)) members[k] = members[k] ? merge(members[k], v) : v;
    return { kind: 'object', members };
  }
  if (a.kind === 'array' && b.kind === 'array') return { kind: 'array', items: merge(a.items, b.items) };
  return a.kind === 'any' ? b : a;
}

/** The members a typed deployment knows in each document: the layout's, and optional ones it leaves out. */
export function knownShapes(initial: Record<DocName, unknown>): Record<DocName | 'bouquet', Shape> {
  const withOptional = (shape: Shape, optional: string[]): Shape =>
    shape.kind === 'object' ? { kind: 'object', members: { ...Object.fromEntries(optional.map((k) => [k, ANY])), ...shape.members } } : shape;
  const perOutput: Shape = { kind: 'object', members: { live: ANY, vod: ANY, series: ANY } };
  return {
    main: withOptional(shapeOf(initial.main), ['backup_dir', 'messaging', 'custom_stream_response_path']),
    sources: shapeOf(initial.sources),
    apiProxy: shapeOf(initial.apiProxy),
    // "the user's saved bouquet for both panel and M3U output types": per output type, the chosen groups of each kind.
    bouquet: { kind: 'object', members: { xtream: perOutput, m3u: perOutput } },
  };
}

/** The members of `value` its shape does not know, as JSON pointers. */
export function unknownMembers(value: unknown, shape: Shape, at = ''): string[] {
  if (shape.kind === 'object' && isRecord(value)) {
    return Object.entries(value).flatMap(([k, v]) => (k in shape.members ? unknownMembers(v, shape.members[k], `${at}/${k}`) : [`${at}/${k}`]));
  }
  if (shape.kind === 'array' && Array.isArray(value)) return value.flatMap((v, i) => unknownMembers(v, shape.items, `${at}/${i}`));
  return [];
}

/** `value` without the members its shape does not know. */
export function pruned(value: unknown, shape: Shape): unknown {
  if (shape.kind === 'object' && isRecord(value)) {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k in shape.members).map(([k, v]) => [k, pruned(v, shape.members[k])]));
  }
  if (shape.kind === 'array' && Array.isArray(value)) return value.map((v) => pruned(v, shape.items));
  return value;
}
