import type { Exchange } from './http/exchange.ts';

/**
 * What a check can say about one requirement:
 * - passed: the condition the requirement is about arose at least once and the target did what it must;
 * - failed: an exchange shows the target breaking it (the evidence);
 * - inconclusive: the harness could not decide (a time-out, an outage, a refused credential, a harness error);
 * - not-tested: the check ran but the condition never arose (no 429 was seen, so the 429 checks are not tested);
 * - not-applicable: the profile rules it out (an endpoint switched off, writes forbidden);
 * - flagged: an advisory's risk is present.
 */
export const VERDICT_STATUSES = ['passed', 'failed', 'inconclusive', 'not-tested', 'not-applicable', 'flagged'] as const;
export type VerdictStatus = (typeof VERDICT_STATUSES)[number];

/** A failed check's evidence: what was sent and received, what was expected, and how to see it again. */
export interface Evidence {
  requirement: string;
  message: string;
  expected?: string;
  exchanges: Exchange[];
  property?: PropertyFailureInfo;
  /** Every requirement this same evidence fails (the first is the one the request was testing). */
  touches?: string[];
}

export interface PropertyFailureInfo {
  property: string;
  seed: number;
  path: string;
  numRuns: number;
  numShrinks: number;
  counterexample: string;
  replay: string;
  reproduced: boolean;
}

/** One requirement's verdict from one test; the reporter merges them (one failure fails the requirement). */
export interface Verdict {
  id: string;
  status: VerdictStatus;
  message?: string;
  /** Name of the attachment that holds the evidence. */
  evidence?: string;
  /**
   * Requirements whose failure would explain this one: when one of them fails in the same run, this failure is
   * shown as its knock-on rather than as a deviation of its own.
   */
  knockOnOf?: string[];
}

/** Annotation types the suites write and the conformance reporter reads. */
export const ANNOTATION = { verdict: 'verdict', note: 'note', write: 'write', plannedWait: 'planned-wait', cases: 'property-cases', reading: 'open-point-reading', operations: 'operations' } as const;

/**
 * The reading of an open point a check saw the target take (`reading` in its spec's list), or, where the target did
 * something no listed reading describes but the check accepted, what it did (`detail` alone).
 */
export interface SeenReading {
  point: string;
  reading?: string;
  detail?: string;
}

/** A check's way of saying which requirement a deviation breaks, so one property can judge several. */
export class RequirementViolation extends Error {
  /** The requirement the deviating request was testing, then any others the same evidence breaks. */
  readonly requirements: string[];

  constructor(
    requirement: string | string[],
    message: string,
    readonly expected?: string,
    /** The exchanges that show the deviation, when the check judged after the fact (a whole schedule, say). */
    readonly exchanges?: Exchange[],
    readonly knockOnOf?: string[],
  ) {
    const ids = Array.isArray(requirement) ? requirement : [requirement];
    super(ids.length ? `${ids.join(', ')}: ${message}` : message);
    this.requirements = ids;
  }

  get requirement(): string {
    return this.requirements[0];
  }
}

/** A deviation of the requirement being verified (inside `verify(id, ...)`, the id is that verify's). */
export function deviation(message: string, expected?: string, exchanges?: Exchange[]): RequirementViolation {
  return new RequirementViolation([], message, expected, exchanges);
}

/** The condition a requirement is about never arose: the check says so instead of passing it unseen. */
export class NotTested extends Error {}

/** The harness or the environment cannot decide (an outage, a refused credential): never a verdict on the target. */
export class Inconclusive extends Error {}

export function reqTags(...ids: string[]): string[] {
  return ids.map((id) => `@${id}`);
}

/** The requirement ids of a test's tags (reqTags' inverse). */
export function idsOfTags(tags: readonly string[]): string[] {
  return tags.map((t) => t.replace(/^@/, ''));
}
