import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { depthFactor, runSeed } from './options.ts';

/** At least one run, however shallow the depth. */
export function runsAtDepth(base: number): number {
  return Math.max(1, Math.round(base * depthFactor()));
}

/** Each property draws from its own seed, derived from the run's seed and its id, so that tests can run in any order. */
export function propertySeed(propertyId: string, seed = runSeed()): number {
  const h = createHash('sha256').update(`${seed}:${propertyId}`).digest();
  return h.readUInt32BE(0) & 0x7fffffff;
}

export interface PropertyRun<T> {
  failed: boolean;
  counterexample?: T;
  path?: string;
  error?: unknown;
  seed: number;
  numRuns: number;
  numShrinks: number;
}

/**
 * Runs a property with the run's depth and seed, or replays one case when the replay option names this property.
 * Async predicates run one after another; a predicate that must not share state with an earlier run takes fresh
 * identities itself.
 */
export async function runProperty<T>(
  propertyId: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  baseRuns: number,
  path?: string,
): Promise<PropertyRun<T>> {
  const seed = propertySeed(propertyId);
  const details = await fc.check(fc.asyncProperty(arbitrary, predicate), {
    seed,
    numRuns: runsAtDepth(baseRuns),
    ...(path ? { path, endOnFailure: true } : {}),
  });
  if (!details.failed) return { failed: false, seed, numRuns: details.numRuns, numShrinks: 0 };
  return {
    failed: true,
    counterexample: details.counterexample?.[0] as T | undefined,
    path: details.counterexamplePath ?? undefined,
    error: details.errorInstance,
    seed,
    numRuns: details.numRuns,
    numShrinks: details.numShrinks,
  };
}
