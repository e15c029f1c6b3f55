import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ENV } from '../options.ts';

/** Consecutive time-outs after which a target is taken to have stopped answering: later requests fail at once. */
export const GIVE_UP_AFTER = 3;
const MARKER_LOOK_MS = 250;

/**
 * Which targets have stopped answering. Playwright replaces a worker process after a failed test, so the
 * verdict is also left in a file of this run: a fresh worker then does not wait out three more time-outs.
 */
export class Silence {
  private readonly counts = new Map<string, number>();
  /** The marker file per run and origin: asked before every request, so worked out once (reading the environment is slow). */
  private readonly markers = new Map<string, string>();
  private readonly lookedAt = new Map<string, number>();
  private run?: { value: string | undefined; readAt: number };

  private marker(origin: string): string | undefined {
    // A process belongs to one run; the run id is read again at most once a second (the harness's own tests switch runs).
    const now = Date.now();
    if (!this.run || now - this.run.readAt > 1000) this.run = { value: process.env[ENV.runId], readAt: now };
    const run = this.run.value;
    if (!run) return undefined;
    const key = `${run} ${origin}`;
    let m = this.markers.get(key);
    if (!m) {
      m = path.join(os.tmpdir(), `conformance-silent-${run}-${createHash('sha1').update(origin).digest('hex').slice(0, 12)}`);
      this.markers.set(key, m);
    }
    return m;
  }

  /** How many requests in a row got no answer (GIVE_UP_AFTER once any process of the run gave up on it). */
  count(origin: string): number {
    const n = this.counts.get(origin) ?? 0;
    if (n >= GIVE_UP_AFTER) return n;
    // Another process's verdict is looked for at most every MARKER_LOOK_MS: a file-system call before every request
    // cost more than the rest of the client's own work. A fresh process looks at its first request.
    const now = performance.now();
    if (now - (this.lookedAt.get(origin) ?? -Infinity) < MARKER_LOOK_MS) return n;
    this.lookedAt.set(origin, now);
    const m = this.marker(origin);
    if (m && existsSync(m)) {
      this.counts.set(origin, GIVE_UP_AFTER);
      return GIVE_UP_AFTER;
    }
    return n;
  }

  answered(origin: string): void {
    this.counts.set(origin, 0);
  }

  timedOut(origin: string): void {
    const n = (this.counts.get(origin) ?? 0) + 1;
    this.counts.set(origin, n);
    const m = this.marker(origin);
    if (n >= GIVE_UP_AFTER && m) writeFileSync(m, new Date().toISOString());
  }
}

/** Removes this run's markers (the runner calls it when the run ends). */
export function forgetSilence(run = process.env[ENV.runId]): void {
  if (!run) return;
  for (const f of readdirSync(os.tmpdir())) if (f.startsWith(`conformance-silent-${run}-`)) rmSync(path.join(os.tmpdir(), f), { force: true });
}
