// Playlist browsing, series details and the programme guide. A PlaylistRequest names exactly one source: a target or
// an input of the sources config (the reference makes up their items), or an ad-hoc provider it fetches (CustomM3u:
// an M3U list; CustomPanel: an Xtream-style panel's player_api.php). Items are grouped as a player shows them, each
// with a logo served by the public resource endpoint.
import type { ReadingOf } from './choices.js';
import type { StreamProxyFault } from './faults.js';
import { fail, isObject, ok, refuse, type Reply } from './replies.js';
import type { Resources } from './resources.js';

export type PlaylistKind = 'live' | 'vod' | 'series';

export type PlaylistRequest =
  | { variant: 'Target'; id: number }
  | { variant: 'Input'; id: number }
  | { variant: 'CustomPanel'; url: string; username: string; password: string }
  | { variant: 'CustomM3u'; url: string };

const VARIANTS = ['Target', 'Input', 'CustomPanel', 'CustomM3u'] as const;

export interface Channel {
  name: string;
  url: string;
  logo: string;
  virtual_id: number;
}

export interface Group {
  group: string;
  channels: Channel[];
}

/** A provider must answer within this long; longer counts as unreachable (400), as a failed download does. */
export const PROVIDER_TIMEOUT_MS = 3000;

/** What the reference lists for a target or an input of its sources config: a few made-up items per kind. */
const CATALOGUE: Record<PlaylistKind, Array<{ group: string; names: string[] }>> = {
  live: [
    { group: 'News', names: ['Morning News', 'World Report'] },
    { group: 'Sports', names: ['Match Day'] },
  ],
  vod: [{ group: 'Movies', names: ['The Long Night', 'Harbour Lights'] }],
  series: [{ group: 'Drama', names: ['Northern Line', 'Quiet Valley'] }],
};

/** How many items the reference lists of a kind for a target or an input (their virtual ids are 1 to that). */
export const itemCount = (kind: PlaylistKind): number => CATALOGUE[kind].reduce((n, g) => n + g.names.length, 0);

/** B-NS-LISTING-PAGING, paged-envelope: the page size when the request names none, and the largest it may name. */
const PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 500;

/** What a listing needs to know of its request besides the body: the address the client used, and the query. */
export interface ListingContext {
  origin: string;
  query: URLSearchParams;
}

/** The key of the resource a listed item's logo stands for; the first live item of the first target is the one tests use. */
export const resourceKey = (source: string, kind: PlaylistKind, index: number): string => `${source}:${kind}:${index}`;

export class Playlists {
  constructor(
    private readonly targetIds: readonly number[],
    private readonly inputId: number,
    private readonly resources: Resources,
    /** The path prefix, so that logos point where the resource endpoint is served. */
    private readonly prefix: string,
    private readonly on: (name: StreamProxyFault) => boolean,
    private readonly reading: ReadingOf,
  ) {}

  /** Exactly one variant key: none or two are refused (the fault takes the first key it meets). */
  parse(body: unknown): PlaylistRequest | Reply {
    if (!isObject(body)) return refuse('shape', 'The body must be a PlaylistRequest object with one of Target, Input, CustomPanel, CustomM3u.');
    // B-NS-VARIANT-EXTRA-MEMBERS: members beside the variant keys are ignored, or (refused) make the body invalid, as an
    // externally tagged enum's deserialiser refuses them.
    const extra = Object.keys(body).filter((k) => !(VARIANTS as readonly string[]).includes(k));
    if (extra.length && this.reading('B-NS-VARIANT-EXTRA-MEMBERS') === 'refused') return refuse('shape', `Unknown member(s) ${extra.join(', ')} in the PlaylistRequest.`);
    const keys = Object.keys(body).filter((k): k is (typeof VARIANTS)[number] => (VARIANTS as readonly string[]).includes(k));
    if (keys.length === 0) return refuse('shape', 'The PlaylistRequest names no variant (Target, Input, CustomPanel or CustomM3u).');
    if (keys.length > 1 && !this.on('two-variants-accepted')) return refuse('shape', `The PlaylistRequest names ${keys.length} variants (${keys.join(', ')}); exactly one is allowed.`);
    const key = keys[0];
    const value = body[key];
    if (key === 'Target' || key === 'Input') {
      if (typeof value !== 'number' || !Number.isInteger(value)) return refuse('shape', `${key} must be an integer id.`);
      return { variant: key, id: value };
    }
    if (!isObject(value) || typeof value.url !== 'string') return refuse('shape', `${key} must be an object with a url string.`);
    if (key === 'CustomM3u') return { variant: key, url: value.url };
    if (typeof value.username !== 'string' || typeof value.password !== 'string') return refuse('shape', 'CustomPanel must carry url, username and password strings.');
    return { variant: key, url: value.url, username: value.username, password: value.password };
  }

  async listing(kind: PlaylistKind, body: unknown, context: ListingContext): Promise<Reply> {
    const request = this.parse(body);
    if ('status' in request) return request;
    const groups = await this.groups(kind, request, context.origin);
    if (!Array.isArray(groups)) return groups;
    // B-NS-RESPONSE-BODIES, other-shapes: a flat list of items, each naming its category.
    const items: unknown[] =
      this.reading('B-NS-RESPONSE-BODIES') === 'other-shapes'
        ? groups.flatMap((g) => g.channels.map((c) => ({ id: c.virtual_id, name: c.name, category: g.group, stream_url: c.url, cover: c.logo })))
        : groups;
    if (this.reading('B-NS-LISTING-PAGING') !== 'paged-envelope') return ok(items);
    // B-NS-LISTING-PAGING, paged-envelope: one page of the list, ?page (from 1) and ?page_size choosing which.
    const page = positive(context.query.get('page')) ?? 1;
    const size = Math.min(positive(context.query.get('page_size')) ?? PAGE_SIZE, MAX_PAGE_SIZE);
    return ok({ items: items.slice((page - 1) * size, page * size), page, page_size: size, total: items.length });
  }

  private async groups(kind: PlaylistKind, request: PlaylistRequest, origin: string): Promise<Group[] | Reply> {
    switch (request.variant) {
      case 'Target':
        if (!this.targetIds.includes(request.id)) return refuse('unknown', `No target with id ${request.id}.`);
        return this.made(`target:${request.id}`, kind, origin);
      case 'Input':
        if (this.on('input-variant-refused')) return fail(400, 'Unsupported playlist request.');
        if (request.id !== this.inputId) return refuse('unknown', `No input with id ${request.id}.`);
        return this.made(`input:${request.id}`, kind, origin);
      case 'CustomM3u': {
        const fetched = await fetchProvider(request.url);
        if (!fetched.ok) return this.providerFailed(`The M3U list could not be fetched: ${fetched.message}`, fetched);
        return this.fromM3u(request.url, fetched.text, origin);
      }
      case 'CustomPanel': {
        const action = { live: 'get_live_streams', vod: 'get_vod_streams', series: 'get_series' }[kind];
        const url = panelUrl(request.url, request.username, request.password, action);
        if (!url) return refuse('shape', 'CustomPanel.url is not an http(s) URL.');
        const fetched = await fetchProvider(url);
        if (!fetched.ok) return this.providerFailed(`The panel could not be asked: ${fetched.message}`, fetched);
        const streams = parseJson(fetched.text);
        if (!Array.isArray(streams)) return refuse('provider', 'The panel did not answer a list of streams.');
        return this.fromPanel(request, kind, streams, origin);
      }
    }
  }

  /** series_info and series/episode: only the Target variant names a place series details come from. */
  seriesDetail(body: unknown, what: { virtualId: string; providerId?: string }): Reply {
    // B-NS-ID-TYPES, integers-throughout: the ids of the series paths are integers, as in the web player request.
    if (this.reading('B-NS-ID-TYPES') === 'integers-throughout') {
      const notInteger = [what.virtualId, what.providerId].find((id) => id !== undefined && !/^\d+$/.test(id));
      if (notInteger !== undefined) return refuse('shape', `${JSON.stringify(notInteger)} is not an integer id.`);
    }
    const request = this.parse(body);
    if ('status' in request) return request;
    if (request.variant !== 'Target') return refuse('shape', `Series details take a PlaylistRequest with the Target variant, not ${request.variant}.`);
    if (!this.targetIds.includes(request.id)) return refuse('unknown', `No target with id ${request.id}.`);
    // B-NS-UNKNOWN-SOURCE, not-found-404: the item is looked up too (a series of the target; an episode of its series).
    const known = what.providerId === undefined ? itemCount('series') * 2 : itemCount('series');
    if (this.reading('B-NS-UNKNOWN-SOURCE') === 'not-found-404' && !(/^\d+$/.test(what.virtualId) && Number(what.virtualId) >= 1 && Number(what.virtualId) <= known)) {
      return refuse('unknown', `Target ${request.id} has no series item ${what.virtualId}.`);
    }
    const name = `Series ${what.virtualId}`;
    const other = this.reading('B-NS-RESPONSE-BODIES') === 'other-shapes';
    if (what.providerId === undefined) {
      if (other) return ok({ id: what.virtualId, name: `${name}, episode 1`, seasonNumber: 1, episodeNumber: 1, streamUrl: `http://provider.invalid/series/${what.virtualId}/1.ts` });
      return ok({ virtual_id: what.virtualId, title: `${name}, episode 1`, season: 1, episode_num: 1, url: `http://provider.invalid/series/${what.virtualId}/1.ts` });
    }
    if (other) {
      return ok({ id: what.virtualId, providerId: what.providerId, name, seasons: [{ number: 1, episodes: [1, 2].map((n) => ({ number: n, name: `${name}, episode ${n}` })) }] });
    }
    return ok({
      virtual_id: what.virtualId,
      provider_id: what.providerId,
      info: { name, plot: 'Made up by the reference.', genre: 'Drama' },
      episodes: { '1': [1, 2].map((n) => ({ episode_num: n, title: `${name}, episode ${n}`, season: 1 })) },
    });
  }

  /** PlaylistEpgRequest: Target (a target id) or Custom (the URL of an XMLTV document the reference fetches). */
  async epg(body: unknown): Promise<Reply> {
    if (!isObject(body)) return refuse('shape', 'The body must be a PlaylistEpgRequest object with Target or Custom.');
    const extra = Object.keys(body).filter((k) => k !== 'Target' && k !== 'Custom');
    if (extra.length && this.reading('B-NS-VARIANT-EXTRA-MEMBERS') === 'refused') return refuse('shape', `Unknown member(s) ${extra.join(', ')} in the PlaylistEpgRequest.`);
    const keys = ['Target', 'Custom'].filter((k) => k in body);
    if (keys.length !== 1) return refuse('shape', 'A PlaylistEpgRequest names exactly one of Target and Custom.');
    let guide: { channels: Array<{ id: string; name: string }>; programmes: Array<Record<string, string>> };
    if (keys[0] === 'Target') {
      if (this.on('epg-target-refused')) return fail(400, 'EPG by target is not supported.');
      const id = body.Target;
      if (typeof id !== 'number' || !Number.isInteger(id)) return refuse('shape', 'Target must be an integer id.');
      if (!this.targetIds.includes(id)) return refuse('unknown', `No target with id ${JSON.stringify(id)}.`);
      const channels = CATALOGUE.live.flatMap((g) => g.names).map((name, i) => ({ id: `target${id}.${i + 1}`, name }));
      const programmes = channels.map((c) => ({ channel: c.id, start: '20260101000000 +0000', stop: '20260101010000 +0000', title: `${c.name} at midnight` }));
      guide = { channels, programmes };
    } else {
      if (typeof body.Custom !== 'string') return refuse('shape', 'Custom must be the URL of an EPG document.');
      const fetched = await fetchProvider(body.Custom);
      if (!fetched.ok) return this.providerFailed(`The EPG document could not be fetched: ${fetched.message}`, fetched);
      if (!/<tv[\s>]/.test(fetched.text)) return refuse('provider', 'The EPG document is not XMLTV.');
      guide = parseXmltv(fetched.text);
    }
    // B-NS-RESPONSE-BODIES, other-shapes: XMLTV's own layout as JSON.
    if (this.reading('B-NS-RESPONSE-BODIES') === 'other-shapes') {
      return ok({ tv: { channel: guide.channels.map((c) => ({ '@id': c.id, 'display-name': c.name })), programme: guide.programmes.map((p) => ({ '@channel': p.channel, '@start': p.start, '@stop': p.stop, title: p.title })) } });
    }
    return ok(guide);
  }

  /** The self-service categories: the groups a user's playlists have, split by output type. */
  categories(): unknown {
    const byKind = { live: CATALOGUE.live.map((g) => g.group), vod: CATALOGUE.vod.map((g) => g.group), series: CATALOGUE.series.map((g) => g.group) };
    // B-NS-RESPONSE-BODIES, other-shapes: split by output type (Xtream panel and M3U), each by kind.
    if (this.reading('B-NS-RESPONSE-BODIES') === 'other-shapes') return { xtream: byKind, m3u: byKind };
    return byKind;
  }

  /** The provider login test: the panel's answer to player_api.php with the credentials, passed on as it is. */
  async panelLogin(body: unknown): Promise<Reply> {
    if (!isObject(body) || typeof body.url !== 'string' || typeof body.username !== 'string' || typeof body.password !== 'string') {
      return refuse('shape', 'The body must carry url, username and password strings.');
    }
    const url = panelUrl(body.url, body.username, body.password);
    if (!url) return refuse('shape', 'url is not an http(s) URL.');
    const fetched = await fetchProvider(url);
    if (!fetched.ok) return this.providerFailed(`The provider could not be asked: ${fetched.message}`, fetched);
    const answer = parseJson(fetched.text);
    if (answer === undefined) return refuse('provider', 'The provider did not answer JSON.');
    return ok(answer);
  }

  /** A provider that could not be asked: a URL that is none is the request's fault, anything else the provider's. */
  private providerFailed(message: string, fetched: { notUrl?: boolean }): Reply {
    return refuse(fetched.notUrl ? 'shape' : 'provider', message);
  }

  /**
   * Where a listed item's picture is served: a path under the prefix, or (B-NS-RESOURCE, absolute-logo-unknown-400)
   * an absolute URL on the address the client used.
   */
  private logo(key: string, origin: string): string {
    const path = `${this.prefix}/api/v1/playlist/resource/${this.resources.idFor(key)}`;
    return this.reading('B-NS-RESOURCE') === 'absolute-logo-unknown-400' ? `${origin}${path}` : path;
  }

  private made(source: string, kind: PlaylistKind, origin: string): Group[] {
    let index = 0;
    return CATALOGUE[kind].map(({ group, names }) => ({
      group,
      channels: names.map((name) => {
        const i = index++;
        return { name, url: `http://provider.invalid/${kind}/${source.replace(':', '-')}/${i + 1}.ts`, logo: this.logo(resourceKey(source, kind, i), origin), virtual_id: i + 1 };
      }),
    }));
  }

  /** #EXTINF lines: attributes (group-title) and the name after the last comma; the next non-comment line is the URL. */
  private fromM3u(source: string, text: string, origin: string): Group[] {
    const groups = new Map<string, Channel[]>();
    let pending: { name: string; group: string } | undefined;
    let index = 0;
    for (const line of text.split(/\r?\n/).map((l) => l.trim())) {
      if (line.startsWith('#EXTINF')) {
        const group = /group-title="([^"]*)"/.exec(line)?.[1] || 'Uncategorised';
        pending = { name: line.slice(line.lastIndexOf(',') + 1).trim(), group };
      } else if (line && !line.startsWith('#') && pending) {
        const i = index++;
        const list = groups.get(pending.group) ?? [];
        list.push({ name: pending.name, url: line, logo: this.logo(`m3u:${source}:${i}`, origin), virtual_id: i + 1 });
        groups.set(pending.group, list);
        pending = undefined;
      }
    }
    return [...groups].map(([group, channels]) => ({ group, channels }));
  }

  private fromPanel(request: Extract<PlaylistRequest, { variant: 'CustomPanel' }>, kind: PlaylistKind, streams: unknown[], origin: string): Group[] {
    const groups = new Map<string, Channel[]>();
    streams.filter(isObject).forEach((s, i) => {
      const group = `Category ${String(s.category_id ?? 'none')}`;
      const id = String(s.stream_id ?? s.series_id ?? i + 1);
      const list = groups.get(group) ?? [];
      list.push({
        name: typeof s.name === 'string' ? s.name : `Stream ${id}`,
        url: `${request.url.replace(/\/+$/, '')}/${kind === 'vod' ? 'movie' : kind}/${encodeURIComponent(request.username)}/${encodeURIComponent(request.password)}/${id}.ts`,
        logo: this.logo(`panel:${request.url}:${kind}:${id}`, origin),
        virtual_id: i + 1,
      });
      groups.set(group, list);
    });
    return [...groups].map(([group, channels]) => ({ group, channels }));
  }
}

/** `${url}/player_api.php?username=..&password=..[&action=..]`, or undefined when url is not an http(s) URL. */
function panelUrl(base: string, username: string, password: string, action?: string): string | undefined {
  let url: URL;
  try {
    url = new URL(`${base.replace(/\/+$/, '')}/player_api.php`);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.searchParams.set('username', username);
  url.searchParams.set('password', password);
  if (action) url.searchParams.set('action', action);
  return url.toString();
}

/** GET a provider URL: its text on a 2xx, otherwise why not (not a URL, refused, unreachable, too slow). */
export async function fetchProvider(url: string): Promise<{ ok: true; text: string } | { ok: false; message: string; notUrl?: boolean }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, message: 'not an http(s) URL', notUrl: true };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, message: 'not an http(s) URL', notUrl: true };
  try {
    const res = await fetch(parsed, { signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS), redirect: 'follow' });
    const text = await res.text();
    return res.ok ? { ok: true, text } : { ok: false, message: `answered ${res.status}` };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Just enough XMLTV: each channel's id and display name, each programme's channel, times and title. */
function parseXmltv(text: string): { channels: Array<{ id: string; name: string }>; programmes: Array<Record<string, string>> } {
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1] ?? '';
  const channels = [...text.matchAll(/<channel\b([^>]*)>([\s\S]*?)<\/channel>/g)].map((m) => ({
    id: attr(m[1], 'id'),
    name: /<display-name[^>]*>([\s\S]*?)<\/display-name>/.exec(m[2])?.[1] ?? '',
  }));
  const programmes = [...text.matchAll(/<programme\b([^>]*)>([\s\S]*?)<\/programme>/g)].map((m) => ({
    channel: attr(m[1], 'channel'),
    start: attr(m[1], 'start'),
    stop: attr(m[1], 'stop'),
    title: /<title[^>]*>([\s\S]*?)<\/title>/.exec(m[2])?.[1] ?? '',
  }));
  return { channels, programmes };
}

/** A positive integer from a query parameter, or undefined. */
function positive(value: string | null): number | undefined {
  return value !== null && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : undefined;
}
