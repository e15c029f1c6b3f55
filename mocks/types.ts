/** What every reference deployment shares: its running handle and the shape of its seeded faults. */

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** A realistic bug the reference can be started with, and the requirements a good suite must see fail under it. */
export interface Fault {
  name: string;
  description: string;
  /** The requirement ids the self-test expects to fail. */
  violates: string[];
  /** Ids that may fail too. */
  collateral?: string[];
  /** The reference profile (a file under targets/) the fault needs in order to show; default reference.yaml. */
  profile?: string;
}
