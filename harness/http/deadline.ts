/**
 * One overall deadline for an exchange: connection, headers and the whole body. undici's own time-outs bound each
 * stage, and its body time-out only the gap between two chunks, so a target that drips its answer a byte at a time
 * would hold a request (and a run) for minutes. One timer per exchange, cleared when it ends.
 */
export class Deadline {
  /** What a race rejects with once the deadline has passed. */
  static readonly PASSED: Error = Object.assign(new Error('the overall deadline of the exchange passed'), { name: 'DeadlineError' });

  private readonly timer: NodeJS.Timeout;
  private passed = false;
  private readonly expiry: Promise<never>;

  constructor(ms: number) {
    let expire!: (e: Error) => void;
    this.expiry = new Promise<never>((_, reject) => (expire = reject));
    // Nobody may be racing at the moment it passes (between two stages): that is not an unhandled rejection.
    this.expiry.catch(() => {});
    this.timer = setTimeout(() => {
      this.passed = true;
      expire(Deadline.PASSED);
    }, ms);
  }

  /** `work`, unless the deadline passes first; what `work` gives after that is handed to `onLate` to release. */
  race<T>(work: Promise<T>, onLate?: (late: T) => void): Promise<T> {
    if (onLate) work.then((v) => this.passed && onLate(v), () => {});
    return Promise.race([work, this.expiry]);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}
