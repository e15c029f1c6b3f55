import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { ENV, runSeed } from './harness/options.ts';
import { REPORTS_DIR } from './harness/paths.ts';
import { loadProfile } from './harness/profile/load.ts';
import { drawReferenceCredentials, interfacesInScope } from './harness/targets.ts';

// The runner evaluates this file first and its workers inherit its environment: the seed and the reference's
// credentials are settled here once, so that every worker sees the same.
const profile = loadProfile();
const scope = interfacesInScope(profile);
runSeed();
drawReferenceCredentials(profile, scope);
process.env[ENV.runId] ??= randomUUID();

export default defineConfig<{}, { interfaceName: string }>({
  testDir: 'suites',
  globalSetup: './harness/global-setup.ts',
  fullyParallel: true,
  // A retry would resend counted requests (rate limits) and hide a deviation that shows once: never retry.
  retries: 0,
  workers: process.env.HARNESS_WORKERS ? Number(process.env.HARNESS_WORKERS) : 2,
  // Tests whose work grows with depth, pacing or windows set their own limit from it (harness/budget.ts).
  // HARNESS_TEST_TIMEOUT_MS fixes every test's limit instead (the harness's own tests use it to provoke a time-out).
  timeout: Number(process.env.HARNESS_TEST_TIMEOUT_MS) || 120_000,
  forbidOnly: Boolean(process.env.CI),
  outputDir: path.join(REPORTS_DIR, 'test-results'),
  reporter: [
    ['./harness/reporter/console.ts', { quiet: Boolean(process.env.HARNESS_QUIET) }],
    // The self-test judges from summary.json alone and skips Playwright's own HTML report (the costliest part of a run).
    ...(process.env.HARNESS_SELFTEST ? [] : [['html', { outputFolder: path.join(REPORTS_DIR, 'playwright'), open: 'never' }] as const]),
    // Verdicts travel into CI test views as properties of each test case.
    ['junit', { outputFile: path.join(REPORTS_DIR, 'junit.xml'), embedAnnotationsAsProperties: true }],
    ['./harness/reporter/conformance-reporter.ts'],
  ],
  use: { trace: 'off' },
  projects: scope.map((name) => ({ name, testDir: path.join('suites', name), use: { interfaceName: name } })),
});
