/**
 * The conservation model of the unified account's funds (U-FUNDS-CONSERVED): what each account type of one account
 * holds of one coin, as transfers, earn subscriptions and redemptions, loans and their repayment move it. A type a read shows starts at what it showed; a type no read shows starts unknown (at least 0).
 * Each holding is kept as bounds, because a fee the document does not show may take up to a share of the amount from
 * the source beyond it (U-NS-FEES, settings.fees.transfer): an accepted transfer takes between the amount and the
 * amount plus that share from the source, and gives the destination exactly the amount. A read must fall within the
 * bounds; it then becomes the holding.
 */

export interface Held {
  lo: number;
  hi: number;
}

export class FundsModel {
  private readonly held = new Map<string, Held>();

  /** `fee`: the largest share of an amount a transfer may take beyond it. */
  constructor(readonly fee: number) {}

  /** A type's holding as first seen: what a read showed, or unknown. */
  start(type: string, shown?: number): void {
    this.held.set(type, shown === undefined ? { lo: 0, hi: Infinity } : { lo: shown, hi: shown });
  }

  bounds(type: string): Held {
    const h = this.held.get(type);
    if (!h) throw new Error(`harness: the funds model has no account type ${type}`);
    return h;
  }

  /** Whether the source surely holds the amount and its largest fee: a transfer would then be within its balance. */
  canMove(from: string, amount: number, fee = this.fee): boolean {
    return this.bounds(from).lo >= amount * (1 + fee);
  }

  /** An accepted transfer. */
  transfer(from: string, to: string, amount: number): void {
    this.take(from, amount, this.fee);
    this.give(to, amount);
  }

  /** The type pays the amount, and up to `fee` of it beyond (a transfer's fee, a repayment's interest). */
  take(type: string, amount: number, fee = 0): void {
    const h = this.bounds(type);
    h.lo -= amount * (1 + fee);
    h.hi -= amount;
  }

  /** The type is credited the amount, less up to `kept` of it (a fast redemption's fee). */
  give(type: string, amount: number, kept = 0): void {
    const h = this.bounds(type);
    h.lo += amount * (1 - kept);
    h.hi += amount;
  }

  /**
   * Whether a read agrees with the model, to within `unit` (one unit of the last place the read showed): if so it
   * becomes the holding.
   */
  agrees(type: string, shown: number, unit: number): boolean {
    const h = this.bounds(type);
    if (shown < h.lo - unit || shown > h.hi + unit) return false;
    h.lo = h.hi = shown;
    return true;
  }

  /** What the model expects a read to show, in words. */
  expected(type: string, places = 8): string {
    const { lo, hi } = this.bounds(type);
    return Number(lo.toFixed(places)) === Number(hi.toFixed(places)) ? `${Number(hi.toFixed(places))}` : `between ${Number(lo.toFixed(places))} and ${Number(hi.toFixed(places))}`;
  }
}
