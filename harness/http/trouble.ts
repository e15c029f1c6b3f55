import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ENV } from '../options.ts';

/**
 * Troubled exchanges in a row after which the client asks whether the target still answers at all: then it gives up
 * on the whole target, or on the one operation that keeps being troubled.
 */
export const GIVE_UP_AFTER = 3;
/**
 * How long one operation stays given up while the target answers others: a throttle or a backend of its own may
 * recover, and a worker runs many tests; the whole target, given up, stays so for the run.
 */
export const GIVE_UP_OPERATION_MS = 15_000;
/**
 * Distinct operations troubled one after another, with no answer of the API to any other request between them (its
 * harmless documented request aside), after which the last one's control is asked and, troubled too, the whole target
 * given up: a gateway that lets only the health check through answers nothing the run could judge. Giving up one
 * operation at a time (three troubles each) made a run of six interfaces behind it take over ten minutes.
 */
export const DARK_OPERATIONS = 3;
const MARKER_LOOK_MS = 250;

/**
 * What the environment may do to an exchange instead of letting the API answer it: no answer within the time-out, a
 * connection closed or reset, a body that never ends, a throttle, a server error, a page that is not the API.
 */
export type TroubleKind = 'no-answer' | 'reset' | 'slow-body' | 'throttled' | 'server-error' | 'not-the-api';

const NAMED: Record<TroubleKind, string> = {
  'no-answer': 'no answer within the time-out',
  reset: 'the connection closed or reset without an answer',
  'slow-body': 'a slow body: the answer began, but its body did not finish within the time-out',
  throttled: 'throttled (429)',
  'server-error': 'a server error (5xx)',
  'not-the-api': 'not the API answering (a redirect or an HTML page)',
};

/** A kind of trouble in a report's words. */
export const troubleNamed = (kind: TroubleKind) => NAMED[kind];

interface Run {
  /** Troubled exchanges in a row, and their kinds. */
  count: number;
  kinds: Map<TroubleKind, number>;
}

/**
 * Which targets and operations this run has given up on, and why, and when each operation last got an answer of the
 * API. Playwright replaces a worker process after a failed test, so a target given up is also left in a file of this
 * run (with its cause): a fresh worker then does not sit out the same trouble again.
 */
export class TroubleLog {
  private readonly origins = new Map<string, Run>();
  private readonly operations = new Map<string, Run>();
  private readonly gaveUp = new Map<string, string>();
  private readonly gaveUpOn = new Map<string, { cause: string; until: number }>();
  private readonly lastAnswer = new Map<string, number>();
  /** Per origin, the operations troubled since the API last answered a request that was not the health check. */
  private readonly dark = new Map<string, { operations: Set<string>; run: Run }>();
  /** The marker file per run and origin: asked before every request, so its name is worked out once. */
  private readonly markers = new Map<string, string>();
  private readonly lookedAt = new Map<string, number>();

  private marker(origin: string): string | undefined {
    // Read at every request: a worker of a grouped self-test run serves several runs (harness/run-scoped.ts), one test
    // after another, and the harness's own tests switch runs.
    const run = process.env[ENV.runId];
    if (!run) return undefined;
    const key = `${run} ${origin}`;
    let m = this.markers.get(key);
    if (!m) {
      m = path.join(os.tmpdir(), `conformance-silent-${run}-${createHash('sha1').update(origin).digest('hex').slice(0, 12)}`);
      this.markers.set(key, m);
    }
    return m;
  }

  /** Why the whole target was given up (by this process or another of the run), or undefined while it is not. */
  givenUp(origin: string): string | undefined {
    const cause = this.gaveUp.get(origin);
    if (cause) return cause;
    // Another process's verdict is looked for at most every MARKER_LOOK_MS: a file-system call before every request
    // cost more than the rest of the client's own work. A fresh process looks at its first request.
    const now = performance.now();
    if (now - (this.lookedAt.get(origin) ?? -Infinity) < MARKER_LOOK_MS) return undefined;
    this.lookedAt.set(origin, now);
    const m = this.marker(origin);
    if (m && existsSync(m)) {
      let found = 'the target stopped answering';
      try {
        found = readFileSync(m, 'utf8').trim() || found;
      } catch {
        // Removed as it was read: the run is ending.
      }
      this.gaveUp.set(origin, found);
      return found;
    }
    return undefined;
  }

  /** Why this process gave up on one operation of the target, or undefined. */
  givenUpOn(origin: string, operation: string | undefined): string | undefined {
    if (operation === undefined) return undefined;
    const key = `${origin} ${operation}`;
    const given = this.gaveUpOn.get(key);
    if (!given) return undefined;
    if (performance.now() < given.until) return given.cause;
    // Its time is up: asked again, as if it had never been troubled.
    this.gaveUpOn.delete(key);
    this.operations.delete(key);
    return undefined;
  }

  /**
   * The API answered (accepted or refused): the trouble in a row starts again, for the target and the operation. An
   * answer to the health check alone (`health`) does not show that the target answers the run's other requests.
   */
  answered(origin: string, operation: string | undefined, health = false): void {
    this.origins.delete(origin);
    if (!health) this.dark.delete(origin);
    if (operation === undefined) return;
    const key = `${origin} ${operation}`;
    this.operations.delete(key);
    this.lastAnswer.set(key, Date.now());
  }

  /** Whether the API answered the operation at or after `since` (epoch milliseconds). */
  answeredSince(origin: string, operation: string, since: number): boolean {
    return (this.lastAnswer.get(`${origin} ${operation}`) ?? -Infinity) >= since;
  }

  /** Counts a troubled exchange; says whether the target or the operation has now been troubled GIVE_UP_AFTER times in a row. */
  troubled(origin: string, operation: string | undefined, kind: TroubleKind, probed = false): { origin: boolean; operation: boolean } {
    const bump = (map: Map<string, Run>, key: string) => {
      const run = map.get(key) ?? { count: 0, kinds: new Map() };
      run.count++;
      run.kinds.set(kind, (run.kinds.get(kind) ?? 0) + 1);
      map.set(key, run);
      return run.count >= GIVE_UP_AFTER;
    };
    // The probe's own operations are not in the streak: their trouble is the health check's to judge. Nor is a
    // redirect or a page that is not the API: a deployment may answer every bad input so (unified's
    // bad-input-redirected), where the target answers all the same; a target gone dark is throttled, failing or silent.
    if (operation !== undefined && !probed && kind !== 'not-the-api') {
      const dark = this.dark.get(origin) ?? { operations: new Set<string>(), run: { count: 0, kinds: new Map() } };
      dark.operations.add(operation);
      dark.run.kinds.set(kind, (dark.run.kinds.get(kind) ?? 0) + 1);
      this.dark.set(origin, dark);
    }
    return { origin: bump(this.origins, origin), operation: operation === undefined ? false : bump(this.operations, `${origin} ${operation}`) };
  }

  /**
   * Whether DARK_OPERATIONS distinct operations (or all `others` the interface has beside its probe's) have been
   * troubled with no answer of the API to anything but the health check between them: then the target, not one
   * operation, may be what does not answer (the client asks a control before it gives the target up). Gives the
   * operations in words, or undefined.
   */
  onlyHealthAnswers(origin: string, others: number): string | undefined {
    const dark = this.dark.get(origin);
    const n = dark?.operations.size ?? 0;
    // An interface whose every operation is the probe's (chat) has no other operation to go dark.
    if (!dark || others < 1 || n < Math.min(DARK_OPERATIONS, others)) return undefined;
    const shown = [...dark.operations].slice(-DARK_OPERATIONS);
    return `${n} operations troubled in a row (${n > shown.length ? '…; ' : ''}${shown.join('; ')}) by ${this.describe(dark.run)}, and no other request answered between them, the last one's control included`;
  }

  /** The troubles in a row, in words: "throttled (429) 3 times". */
  private describe(run: Run | undefined): string {
    if (!run) return 'trouble';
    return [...run.kinds].map(([k, n]) => `${NAMED[k]}${n > 1 ? ` ${n} times` : ''}`).join(', then ');
  }

  /** Gives up on the whole target, for every process of the run; returns the cause. */
  giveUp(origin: string, health: string): string {
    return this.mark(origin, `the target stopped answering: ${this.describe(this.origins.get(origin))} in a row, and ${health}`);
  }

  /** Gives up on the whole target that answers its health check alone (onlyHealthAnswers); returns the cause. */
  giveUpDark(origin: string, health: string, dark: string): string {
    return this.mark(origin, `the target answers only its harmless documented request (${health}): ${dark}`);
  }

  private mark(origin: string, cause: string): string {
    this.gaveUp.set(origin, cause);
    const m = this.marker(origin);
    if (m) writeFileSync(m, cause);
    return cause;
  }

  /** Gives up on one operation, in this process, for GIVE_UP_OPERATION_MS, while the target answers others; returns the cause. */
  giveUpOn(origin: string, operation: string): string {
    const key = `${origin} ${operation}`;
    const cause = `${operation} stopped answering: ${this.describe(this.operations.get(key))} in a row, while the target answers other requests`;
    this.gaveUpOn.set(key, { cause, until: performance.now() + GIVE_UP_OPERATION_MS });
    return cause;
  }

  /** The target answers its harmless documented request: the troubles in a row were not the whole target's. */
  healthy(origin: string): void {
    this.origins.delete(origin);
  }
}

/** Removes this run's markers (the runner calls it when the run ends). */
export function forgetTrouble(run = process.env[ENV.runId]): void {
  if (!run) return;
  for (const f of readdirSync(os.tmpdir())) if (f.startsWith(`conformance-silent-${run}-`)) rmSync(path.join(os.tmpdir(), f), { force: true });
}
