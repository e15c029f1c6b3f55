/**
 * When a write takes effect (U-NS-ORDER-PROCESSING). Synchronous: at once, before the answer. Asynchronous: the
 * answer comes first and the effects follow within 100 ms, one after another in the order they were acknowledged
 * (a cancel acknowledged after a placement applies after it).
 */

/** The asynchronous reading's delay: well inside the 100 ms it promises. */
export const SETTLE_MS = 40;

export class Settler {
  private readonly queue: Array<() => void> = [];
  private timer?: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly asynchronous: boolean) {}

  /** Applies an effect now, or queues it. */
  later(effect: () => void): void {
    if (!this.asynchronous) return effect();
    if (this.closed) return;
    this.queue.push(effect);
    if (!this.timer) {
      this.timer = setTimeout(() => this.drain(), SETTLE_MS);
      this.timer.unref();
    }
  }

  /** Applies every queued effect now (a read that must see settled state, the countdown's expiry). */
  drain(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length) this.queue.shift()!();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
  }
}
