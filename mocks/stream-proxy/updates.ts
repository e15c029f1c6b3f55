// Playlist updates: "202 queued or already pending; 400 invalid target names"; "Rapid repeated playlist updates are
// collapsed into one pending run". An update stays pending for reference.updateMs, then its one run executes. The
// number of runs is the reference's own observation (GET <prefix>/__reference/playlist-update-runs): the documented
// interface shows no way to see that repeats were collapsed.
import type { StreamProxyFault } from './faults.js';
import { fail, ok, type Reply } from './replies.js';

export const UPDATE_MS = 1500;

export class PlaylistUpdates {
  /** Runs executed or queued since start. */
  private runs = 0;
  /** Runs queued behind the pending one (only the 'update-queues-duplicate' fault queues any). */
  private queuedBehind = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly targetNames: readonly string[],
    private readonly updateMs: number,
    private readonly on: (name: StreamProxyFault) => boolean,
  ) {}

  get pending(): boolean {
    return this.timer !== undefined;
  }

  /**
   * The body is a JSON array of target names ([] = every target), already parsed; `undefined` when it did not parse.
   * `bodyFirst` (the body-first reading of B-NS-UPDATE-ORDER): the body is refused when it is no array of strings
   * before the pending run is looked at, as a framework's JSON extractor does before the handler runs.
   */
  request(names: unknown, bodyFirst = false): Reply {
    const wellFormed = Array.isArray(names) && names.every((n) => typeof n === 'string');
    if (bodyFirst && !wellFormed) return fail(400, 'The body must be a JSON array of target names.');
    if (this.pending) {
      // While one is pending any request is answered 202 and changes nothing: it is that pending run.
      if (this.on('update-repeat-refused')) return fail(409, 'A playlist update is already pending.');
      if (this.on('update-queues-duplicate')) {
        this.queuedBehind++;
        this.runs++;
      }
      return ok({ status: 'pending' }, 202);
    }
    if (!wellFormed) return fail(400, 'The body must be a JSON array of target names.');
    const unknown = (names as string[]).filter((n) => !this.targetNames.includes(n));
    if (unknown.length > 0 && !this.on('invalid-target-accepted')) return fail(400, `Invalid target names: ${unknown.join(', ')}.`);
    this.runs++;
    this.schedule();
    return ok({ status: 'queued', targets: (names as string[]).length === 0 ? [...this.targetNames] : names }, 202);
  }

  observed(): { runs: number; pending: boolean } {
    return { runs: this.runs, pending: this.pending };
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The pending run executes after updateMs; a run queued behind it (the fault) then becomes pending in turn. */
  private schedule(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.queuedBehind > 0) {
        this.queuedBehind--;
        this.schedule();
      }
    }, this.updateMs);
    this.timer.unref();
  }
}
