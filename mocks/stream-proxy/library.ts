// The local media library: "202 scan started" with the scan running in the background, "400 ... scan already
// running". The reference's scan does nothing but take reference.scanMs; its item counts are fixed.
import type { StreamProxyFault } from './faults.js';
import { fail, isObject, ok, refuse, type Reply } from './replies.js';

export const SCAN_MS = 1000;

export class Library {
  private scanningUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastScan: string | null = null;
  private readonly items = { movies: 3, series: 1, episodes: 6 };

  constructor(
    private readonly scanMs: number,
    private readonly on: (name: StreamProxyFault) => boolean,
  ) {}

  get scanning(): boolean {
    return Date.now() < this.scanningUntil;
  }

  /** `forceRequired`: the force-rescan-required reading of B-NS-SCAN-BODY (a body without force_rescan is refused). */
  scan(body: unknown, forceRequired = false): Reply {
    if (!isObject(body)) return refuse('shape', 'The body must be an object with force_rescan.');
    if (forceRequired && body.force_rescan === undefined) return refuse('shape', 'force_rescan is required.');
    const force = body.force_rescan ?? false;
    if (typeof force !== 'boolean') return refuse('shape', 'force_rescan must be a boolean.');
    if (this.scanning && !this.on('scan-while-running-accepted')) return fail(400, 'A library scan is already running.');
    this.scanningUntil = Date.now() + this.scanMs;
    clearTimeout(this.timer);
    // Only bookkeeping: `scanning` is read from the clock, so the answer never waits on this timer.
    this.timer = setTimeout(() => (this.lastScan = new Date().toISOString()), this.scanMs);
    this.timer.unref();
    return ok({ status: 'started', force_rescan: force }, 202);
  }

  /** `otherShape`: the other-shapes reading of B-NS-RESPONSE-BODIES. */
  status(otherShape = false): Reply {
    if (this.on('library-status-500')) return fail(500, 'The library index could not be read.');
    // The fault: the state as a word of plain text, as a status page for people would show it.
    if (this.on('library-status-text')) return { status: 200, text: this.scanning ? 'scanning\n' : 'idle\n', headers: { 'content-type': 'text/plain; charset=utf-8' } };
    const { movies, series, episodes } = this.items;
    if (otherShape) return ok({ state: this.scanning ? 'scanning' : 'idle', lastScanAt: this.lastScan, counts: [{ kind: 'movie', count: movies }, { kind: 'series', count: series }, { kind: 'episode', count: episodes }] });
    return ok({ scanning: this.scanning, last_scan: this.lastScan, items: { movies, series, episodes, total: movies + series + episodes } });
  }

  close(): void {
    clearTimeout(this.timer);
  }
}
