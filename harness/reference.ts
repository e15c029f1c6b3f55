/**
 * What the harness asks of an embedded reference (mocks/<name>/reference.ts): a server it can start in a chosen
 * fault and reading, the seeded faults the self-test proves each check with, and the readings of the spec's open
 * points it implements. The references implement this contract; the harness never imports them, a command hands
 * them over (scripts/interfaces.ts).
 */

export interface ReferenceOptions<S = any, R = any> {
  settings: S;
  reference: R;
  secrets: Record<string, string>;
  fault?: string;
  host?: string;
  port?: number;
}

export interface Reference {
  /** Starts the server, importing its code only when called: a process that never starts one never loads it. */
  start(options: ReferenceOptions): Promise<RunningServer>;
  faults: readonly Fault[];
  /** The readings of the spec's open points the reference implements (mocks/<name>/readings.ts). */
  readings: readonly OpenPointReadings[];
  /** Secrets of the deployment the reference plants in its state: never to be found in any file a run writes. */
  planted?: readonly string[];
  /**
   * Where the reference hands out its own credentials (no profile names them): one set made on the running server, for
   * a person who starts it to try a client against (npm run reference), and how to make more.
   */
  issueCredentials?(server: RunningServer): Promise<{ credentials: Record<string, string>; more: string }>;
}

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
  /**
   * The part of its reference the fault changes (its operations and nothing else): the self-test may run two faults
   * of one reference together when they name different parts, different requirements, and the same profile, depth
   * and kept readings. A fault without a part (a routing or envelope fault, which every answer goes through) runs alone.
   * Parts nest: 'trading/cancels' is a corner of 'trading', and a fault of the whole 'trading' pairs with none of its corners.
   */
  readonly part?: string;
  /** The reference profile (a file under targets/) the fault needs in order to show; default reference.yaml. */
  readonly profile?: string;
  /**
   * The self-test runs faults at quick depth; a fault that shows only in a generated case too rare for a quarter of
   * the cases (a user moved, then read back) is run at the default depth instead.
   */
  readonly needsDefaultDepth?: boolean;
  /**
   * Why a run with this fault takes minutes where others take seconds (it mostly waits: a throttle sat out case after
   * case): the self-test starts it among the first, so that it is not the last run left.
   */
  readonly slow?: string;
  /**
   * Why the self-test makes the fault's run alone, never in a group (scripts/conformance-group.ts): what it shows
   * depends on its reference's clock or on its checks' timing, which a group changes (its references start before any
   * of its tests; its workers are warm and shared), so that its verdicts there move from run to run.
   */
  readonly alone?: string;
  /**
   * Open points the fault cannot show under in their other readings (point -> why): the self-test runs each fault whose
   * requirements meet an open point in the other readings too, with these points kept at their default.
   */
  readonly keepsDefault?: Readonly<Record<string, string>>;
}

/** One reading of an open point, as the reference takes it. */
export interface Reading {
  /** One of the point's reading ids in the spec (`x-not-shown[].readings[].id`). */
  readonly name: string;
  /**
   * Options of the reference that take this reading, deep-merged into the profile entry's `reference` (where a reading
   * is an option the reference already has). Readings without one are read by the server through `readingSwitch`.
   */
  readonly reference?: Readonly<Record<string, unknown>>;
  /**
   * What a tester of a deployment that takes this reading would state in its profile (member names, the refusal
   * status, paging), deep-merged into the entry's `settings`. Absent: a tester would not know it, and the suite must
   * pass without being told.
   */
  readonly settings?: Readonly<Record<string, unknown>>;
  /**
   * Credentials a tester would give for such a deployment (credential name -> environment variable), merged into the
   * entry's `credentials`: the reference gets their values (drawn at random for the run) in its `secrets`, and the
   * profile's extras can name them ("Bearer {credential:apiKey}").
   */
  readonly credentials?: Readonly<Record<string, string>>;
  /**
   * No request reaches such a deployment unless its profile states this reading's settings (how requests are signed):
   * the generated profile template, which states none, is not tried against it (scripts/selftest-template.ts).
   */
  readonly neededToConnect?: boolean;
  /**
   * The reading leaves most checks nothing to judge (accounts without funds): the self-test runs the other readings
   * once more with this point at its default, so that the other points' readings are judged where they can be. The
   * text says why.
   */
  readonly leavesLittleToJudge?: string;
}

/** An open point of the spec and the readings the reference implements: at least two, the first its default. */
export interface OpenPointReadings {
  readonly point: string;
  readonly readings: readonly [Reading, Reading, ...Reading[]];
}
