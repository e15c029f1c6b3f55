/**
 * The conservation model of the unified account's transfers (U-FUNDS-CONSERVED): what each account type of one account
 * holds of one coin. A type a read shows starts at what it showed; a type no read shows starts unknown (at least 0).
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

  /** Whether the source surely holds the amount and its largest fee: the transfer would then be within its balance. */
  canMove(from: string, amount: number): boolean {
    return this.bounds(from).lo >= amount * (1 + this.fee);
  }

  /** An accepted transfer. */
  transfer(from: string, to: string, amount: number): void {
    const source = this.bounds(from);
    const destination = this.bounds(to);
    source.lo -= amount * (1 + this.fee);
    source.hi -= amount;
    destination.lo += amount;
    destination.hi += amount;
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
    return lo === hi || this.fee === 0 ? `${Number(hi.toFixed(places))}` : `between ${Number(lo.toFixed(places))} and ${Number(hi.toFixed(places))}`;
  }
}
