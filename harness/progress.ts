/**
 * What a long test is doing, for the console's heartbeat (harness/reporter/console.ts): a test worker says it as a
 * Playwright step, which reaches the runner's reporters while the test runs (its annotations arrive only at its end).
 * Throttled, so that a property of hundreds of cases adds a step every few seconds, not one a case.
 */
import { test } from '@playwright/test';

/** Step titles the console reads as progress; nothing else uses them. */
export const PROGRESS_STEP = 'progress: ';
export const WAITING_STEP = 'waiting ';

const EVERY_MS = 5000;
let lastTest = '';
let lastAt = 0;

/** Says what the running test is at ("nonces: case 40 of 100"), at most every few seconds. */
export async function progressed(what: string): Promise<void> {
  const id = test.info().testId;
  const now = Date.now();
  if (id === lastTest && now - lastAt < EVERY_MS) return;
  lastTest = id;
  lastAt = now;
  await test.step(`${PROGRESS_STEP}${what}`, async () => {});
}

const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** Sits out `ms` by design (a rate-limit window), saying why when it is long enough for anyone to wonder. */
export async function waiting(ms: number, why: string): Promise<void> {
  if (ms < EVERY_MS) return pause(ms);
  await test.step(`${WAITING_STEP}${(ms / 1000).toFixed(0)} s: ${why}`, () => pause(ms));
}
