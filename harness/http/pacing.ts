/** Keeps one process to a request rate: each request takes the next free slot, spaced 1/rate apart. */
export class Pacer {
  private next = 0;

  constructor(private readonly perSecond: number) {}

  get active(): boolean {
    return this.perSecond > 0;
  }

  async wait(): Promise<void> {
    if (!(this.perSecond > 0)) return;
    const now = Date.now();
    const slot = Math.max(now, this.next);
    this.next = slot + 1000 / this.perSecond;
    if (slot > now) await new Promise((r) => setTimeout(r, slot - now));
  }
}
