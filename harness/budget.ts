import type { TestInfo } from '@playwright/test';
import type { RunProfile } from './profile/types.ts';

/** The work a test plans: requests it sends and time it must sit out by design (rate-limit windows). */
export interface Work {
  requests: number;
  waitMs?: number;
}

/**
 * Time one request is expected to take: the pacing share of one worker against a live target, a round trip otherwise.
 * On the embedded reference (loopback) a round trip with its validation measures 1 to 3 ms; 5 ms keeps some room, and
 * keeps the planned shares of the interfaces true to one another (shards are cut by them: harness/shard-weights.ts).
 */
export function perRequestMs(profile: Pick<RunProfile, 'requestsPerSecond'>, live: boolean, workers: number): number {
  const paced = live && profile.requestsPerSecond > 0 ? (1000 * Math.max(1, workers)) / profile.requestsPerSecond : 0;
  return Math.max(paced, live ? 100 : 5);
}

/** Expected wall time of some work; the time limit gives it twice that and half a minute of slack. */
export function expectedMs(work: Work, profile: Pick<RunProfile, 'requestsPerSecond'>, live: boolean, workers: number): number {
  return work.requests * perRequestMs(profile, live, workers) + (work.waitMs ?? 0);
}

/**
 * Sets a test's time limit from its planned work, so that a deep run, a slow pacing or a long window does not end in
 * Playwright's fixed time-out (which would leave what the test claims inconclusive).
 */
export function fitTimeout(testInfo: TestInfo, work: Work, profile: RunProfile, live: boolean): void {
  if (process.env.HARNESS_TEST_TIMEOUT_MS) return;
  const limit = 30_000 + 2 * expectedMs(work, profile, live, testInfo.config.workers);
  if (limit > testInfo.timeout) testInfo.setTimeout(Math.ceil(limit));
}
