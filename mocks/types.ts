/** What every reference deployment shares: its running handle and the shape of its seeded faults. */

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** A realistic bug the reference can be started with, and the requirements a good suite must see fail under it. */
export interface Fault {
  readonly name: string;
  readonly description: string;
  /** The requirement ids the self-test expects to fail. */
  readonly violates: readonly string[];
  /**
   * Requirements the fault must keep from passing, without failing them: refusal checks whose control the fault
   * refuses too (their refusals then prove nothing). Inconclusive or not tested, never passed.
   */
  readonly undecided?: readonly string[];
  /** Ids that may fail too; any other failing id fails the self-test (wrong blame). */
  readonly collateral?: readonly string[];
  /** The reference profile (a file under targets/) the fault needs in order to show; default reference.yaml. */
  readonly profile?: string;
  /**
   * The self-test runs faults at quick depth; a fault that shows only in a generated case too rare for a quarter of
   * the cases (a user moved, then read back) is run at the default depth instead.
   */
  readonly needsDefaultDepth?: boolean;
  /**
   * Open points the fault cannot show under in their other readings (point -> why): the self-test runs each fault whose
   * requirements meet an open point in the other readings too, with these points kept at their default.
   */
  readonly keepsDefault?: Readonly<Record<string, string>>;
}
