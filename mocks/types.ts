/** What every reference deployment shares: its running handle and the shape of its seeded faults (the harness's contract). */
export type { Fault, RunningServer } from '../harness/reference.ts';
