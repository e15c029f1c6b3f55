// The local media library: "202 scan started" with the scan running in the background, "400 ... scan already
// running". The reference's scan does nothing but take reference.scanMs; its item counts are fixed.
import type { StreamProxyFault } from './faults.js';
import { fail, isObject, ok, type Reply } from './replies.js';

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

  scan(body: unknown): Reply {
    if (!isObject(body)) return fail(400, 'The body must be an object with force_rescan.');
    const force = body.force_rescan ?? false;
    if (typeof force !== 'boolean') return fail(400, 'force_rescan must be a boolean.');
    if (this.scanning && !this.on('scan-while-running-accepted')) return fail(400, 'A library scan is already running.');
    this.scanningUntil = Date.now() + this.scanMs;
    clearTimeout(this.timer);
    // Only bookkeeping: `scanning` is read from the clock, so the answer never waits on this timer.
    this.timer = setTimeout(() => (this.lastScan = new Date().toISOString()), this.scanMs);
    this.timer.unref();
    return ok({ status: 'started', force_rescan: force }, 202);
  }

  status(): Reply {
    if (this.on('library-status-500')) return fail(500, 'The library index could not be read.');
    const { movies, series, episodes } = this.items;
    return ok({ scanning: this.scanning, last_scan: this.lastScan, items: { movies, series, episodes, total: movies + series + episodes } });
  }

  close(): void {
    clearTimeout(this.timer);
  }
}
