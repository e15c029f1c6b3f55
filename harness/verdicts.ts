import type { Exchange } from './http/exchange.ts';

export type VerdictStatus = 'passed' | 'failed' | 'not-applicable' | 'flagged';

/** A failed check's evidence: what was sent and received, what was expected, and how to see it again. */
export interface Evidence {
  requirement: string;
  message: string;
  expected?: string;
  exchanges: Exchange[];
  property?: PropertyFailureInfo;
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
}

/** Annotation types the suites write and the conformance reporter reads. */
export const ANNOTATION = { verdict: 'verdict', note: 'note', write: 'write', plannedWait: 'planned-wait' } as const;

/** A check's way of saying which requirement a deviation breaks, so one property can judge several. */
export class RequirementViolation extends Error {
  constructor(
    readonly requirement: string,
    message: string,
    readonly expected?: string,
    /** The exchanges that show the deviation, when the check judged after the fact (a whole schedule, say). */
    readonly exchanges?: Exchange[],
  ) {
    super(`${requirement}: ${message}`);
  }
}

export function reqTags(...ids: string[]): string[] {
  return ids.map((id) => `@${id}`);
}
