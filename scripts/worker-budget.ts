/**
 * A count of Playwright workers the self-test lets run at once, taken and given back by its runs (a run takes as many
 * as it has workers): a weighted semaphore, granted in the order asked, so that a large taker is not passed over for
 * ever by small ones.
 */
export class WorkerBudget {
  private free: number;
  private readonly waiting: Array<{ weight: number; grant: () => void }> = [];

  constructor(private readonly size: number) {
    this.free = size;
  }

  /** Waits until `weight` workers (at most the whole budget) are free, and takes them. */
  take(weight: number): Promise<void> {
    const w = Math.min(weight, this.size);
    return new Promise((grant) => {
      this.waiting.push({ weight: w, grant });
      this.grant();
    });
  }

  give(weight: number): void {
    this.free += Math.min(weight, this.size);
    this.grant();
  }

  private grant(): void {
    while (this.waiting.length && this.waiting[0].weight <= this.free) {
      const next = this.waiting.shift()!;
      this.free -= next.weight;
      next.grant();
    }
  }
}
