// The web player: POST /api/v1/playlist/webplayer answers "a plain-text stream URL using an access token valid 30
// seconds"; the URL carries the token, so the stream itself needs no Authorization header. The reference's lifetime
// is configurable (reference.webPlayerTokenMs) so that a run need not wait half a minute.
import { randomBytes } from 'node:crypto';
import type { ReadingOf } from './choices.js';
import type { StreamProxyFault } from './faults.js';
import { itemCount, type PlaylistKind } from './playlists.js';
import { fail, isObject, refuse, type Reply } from './replies.js';

/** "Web player access token lifetime: 30 seconds." */
export const WEB_PLAYER_TOKEN_MS = 30_000;

interface Grant {
  targetId: number;
  virtualId: number;
  /** When the token stops working, in ms since the epoch (the 'webplayer-url-dead' fault stores seconds). */
  expires: number;
}

/** B-NS-WEBPLAYER-CLUSTER: the clusters an enumerating deployment knows, and the kind of item each names. */
const CLUSTERS: Record<string, PlaylistKind> = { live: 'live', video: 'vod', series: 'series' };

export class WebPlayer {
  private readonly grants = new Map<string, Grant>();
  private readonly lifetimeMs: number;

  constructor(
    lifetimeMs: number,
    /** How long past its lifetime a token is still accepted (the with-leeway reading of B-NS-WEBPLAYER-LIFETIME). */
    private readonly leewayMs: number,
    private readonly targetIds: readonly number[],
    private readonly on: (name: StreamProxyFault) => boolean,
    private readonly reading: ReadingOf,
  ) {
    // The fault: an extra zero in the lifetime.
    this.lifetimeMs = on('webplayer-token-outlives') ? lifetimeMs * 10 : lifetimeMs;
  }

  /** The stream URL for `{target_id, cluster, virtual_id}`, built on the address the client used (`origin` + prefix). */
  issue(body: unknown, origin: string, prefix: string): Reply {
    if (!isObject(body)) return refuse('shape', 'The body must be an object with target_id, cluster and virtual_id.');
    const { target_id: targetId, cluster, virtual_id: virtualId } = body;
    if (typeof targetId !== 'number' || !Number.isInteger(targetId)) return refuse('shape', 'target_id must be an integer.');
    if (typeof cluster !== 'string' || cluster.length === 0) return refuse('shape', 'cluster must be a non-empty string (for example live).');
    const clusters = this.reading('B-NS-WEBPLAYER-CLUSTER');
    const known = clusters === 'capitalised-enumerated' ? Object.keys(CLUSTERS).map((c) => c[0].toUpperCase() + c.slice(1)) : Object.keys(CLUSTERS);
    if (clusters !== 'any-string' && !known.includes(cluster)) return refuse('shape', `cluster must be one of ${known.join(', ')}.`);
    if (typeof virtualId !== 'number' || !Number.isInteger(virtualId) || virtualId < 0) return refuse('shape', 'virtual_id must be a non-negative integer.');
    if (!this.targetIds.includes(targetId)) return refuse('unknown', `No target with id ${targetId}.`);
    // B-NS-UNKNOWN-SOURCE, not-found-404: the item is looked up too (the virtual ids its target lists for the cluster).
    const kind = CLUSTERS[cluster.toLowerCase()];
    if (this.reading('B-NS-UNKNOWN-SOURCE') === 'not-found-404' && kind && (virtualId < 1 || virtualId > itemCount(kind))) {
      return refuse('unknown', `Target ${targetId} has no ${cluster} item ${virtualId}.`);
    }
    this.forgetExpired();
    const token = randomBytes(16).toString('hex');
    const expires = Date.now() + this.lifetimeMs;
    this.grants.set(token, { targetId, virtualId, expires: this.on('webplayer-url-dead') ? Math.floor(expires / 1000) : expires });
    const path = `${prefix}/stream/${token}/${targetId}/${virtualId}`;
    // B-NS-WEBPLAYER-URL: an absolute URL on the address the client used, or the path alone (printed with a line break).
    if (this.reading('B-NS-WEBPLAYER-URL') === 'root-relative-expired-403') return { status: 200, text: `${path}\n` };
    return { status: 200, text: `${origin}${path}` };
  }

  /** GET of a stream URL: a few MPEG-TS packets while the token lives and matches the path, 401 (or 403) otherwise. */
  stream(token: string, target: string, virtual: string): Reply {
    const grant = this.grants.get(token);
    if (!grant || grant.expires + this.leewayMs <= Date.now() || String(grant.targetId) !== target || String(grant.virtualId) !== virtual) {
      const status = this.reading('B-NS-WEBPLAYER-URL') === 'root-relative-expired-403' ? 403 : 401;
      return fail(status, 'The stream token is unknown or has expired; ask for a new web-player URL.');
    }
    return { status: 200, bytes: nullPackets(3), headers: { 'content-type': 'video/mp2t', 'cache-control': 'no-store' } };
  }

  private forgetExpired(): void {
    const now = Date.now();
    // Only to bound memory: an expired grant is refused anyway.
    for (const [token, g] of this.grants) if (g.expires + this.leewayMs + 60_000 < now) this.grants.delete(token);
  }
}

/** MPEG-TS null packets (sync byte 0x47, PID 0x1FFF): a valid stream that shows nothing. */
function nullPackets(count: number): Buffer {
  const out = Buffer.alloc(188 * count, 0xff);
  for (let i = 0; i < count; i++) out.set([0x47, 0x1f, 0xff, 0x10], i * 188);
  return out;
}
