/**
 * The cancel-all countdown (countdown-cancel-all): a real timer per scope (an account, or a key: U-NS-COUNTDOWN-SCOPE)
 * that cancels every open order of the account when it expires unrefreshed. It fires at its deadline (at-deadline)
 * or at the next sweep of expired timers (periodic-sweep, U-NS-COUNTDOWN-TIMING). Timers never keep the process
 * alive, and close() stops them all.
 */

/** The sweep runs a little more often than once a second, so a timer is swept within a second of its deadline. */
const SWEEP_MS = 900;

interface Armed {
  uid: string;
  deadline: number;
  timer?: NodeJS.Timeout;
}

export interface CountdownOptions {
  now(): number;
  timing: 'at-deadline' | 'periodic-sweep';
  /** Cancels every open order of the account. */
  expire(uid: string): void;
  /** The seeded fault countdown-never-fires. */
  neverFires: boolean;
}

export class Countdown {
  private readonly armed = new Map<string, Armed>();
  private sweeper?: NodeJS.Timeout;
  /** The deadline of the first timer ever armed here (a seeded fault throttles lookups once it has passed). */
  private firstDeadline?: number;

  constructor(private readonly options: CountdownOptions) {}

  /** Arms the scope's timer, or moves its deadline (a refresh). */
  arm(scope: string, uid: string, seconds: number): number {
    this.disarm(scope);
    const deadline = this.options.now() + seconds * 1000;
    this.firstDeadline ??= deadline;
    const entry: Armed = { uid, deadline };
    this.armed.set(scope, entry);
    if (this.options.timing === 'at-deadline') {
      entry.timer = setTimeout(() => this.fire(scope, entry), seconds * 1000);
      entry.timer.unref();
    } else this.startSweeping();
    return deadline;
  }

  /** Whether the first deadline of any timer armed here has passed, refreshed, disarmed or fired as it may be since. */
  firstDeadlinePassed(): boolean {
    return this.firstDeadline !== undefined && this.options.now() >= this.firstDeadline;
  }

  /** The deadline of the scope's armed timer, if any (the refresh-ignored fault keeps it). */
  deadlineOf(scope: string): number | undefined {
    return this.armed.get(scope)?.deadline;
  }

  disarm(scope: string): void {
    const entry = this.armed.get(scope);
    if (entry?.timer) clearTimeout(entry.timer);
    this.armed.delete(scope);
    if (this.armed.size === 0) this.stopSweeping();
  }

  close(): void {
    for (const scope of [...this.armed.keys()]) this.disarm(scope);
    this.stopSweeping();
  }

  private fire(scope: string, entry: Armed): void {
    if (this.armed.get(scope) !== entry) return;
    this.armed.delete(scope);
    if (this.armed.size === 0) this.stopSweeping();
    if (!this.options.neverFires) this.options.expire(entry.uid);
  }

  private startSweeping(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const t = this.options.now();
      for (const [scope, entry] of [...this.armed]) if (entry.deadline <= t) this.fire(scope, entry);
    }, SWEEP_MS);
    this.sweeper.unref();
  }

  private stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
