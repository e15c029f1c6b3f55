import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { runShard } from './harness/options.ts';
import { reportersFor } from './harness/reporter/reporters.ts';
import { reportsDir } from './harness/paths.ts';
import { loadProfile } from './harness/profile/load.ts';
import { interfacesInScope, settleRun } from './harness/targets.ts';

// The runner evaluates this file first and its workers inherit its environment: the seed and the reference's
// credentials are settled here once, so that every worker sees the same.
const profile = loadProfile();
const scope = interfacesInScope(profile);
settleRun(profile, scope);
const shard = runShard();
const reports = reportsDir();

// One project for every interface in scope: Playwright starts new worker processes whenever the project changes, and
// that start-up (module loading, schema compiling) was the largest fixed cost of a run. A test's interface is the
// folder of its file (interfaceOfTestFile).
const inScope = new RegExp(`[\\\\/]suites[\\\\/](${scope.map((n) => n.replace(/[^a-z0-9-]/g, '')).join('|')})[\\\\/][^\\\\/]+\\.spec\\.ts$`);

export default defineConfig({
  testDir: 'suites',
  globalSetup: './scripts/global-setup.ts',
  fullyParallel: true,
  // A retry would resend counted requests (rate limits) and hide a deviation that shows once: never retry.
  retries: 0,
  workers: process.env.HARNESS_WORKERS ? Number(process.env.HARNESS_WORKERS) : 2,
  // Tests whose work grows with depth, pacing or windows set their own limit from it (harness/budget.ts).
  // HARNESS_TEST_TIMEOUT_MS fixes every test's limit instead (the harness's own tests use it to provoke a time-out).
  timeout: Number(process.env.HARNESS_TEST_TIMEOUT_MS) || 120_000,
  forbidOnly: Boolean(process.env.CI),
  outputDir: path.join(reports, 'test-results'),
  reporter: [
    ...reportersFor(reports, { quiet: Boolean(process.env.HARNESS_QUIET), playwrightHtml: !process.env.HARNESS_SELFTEST }),
    // A shard also keeps Playwright's blob report, from which npm run merge-reports makes the reports of the whole run.
    ...(shard ? [['blob', { outputDir: path.join(reports, 'blob'), fileName: `report-${shard.current}-of-${shard.total}.zip` }] as const] : []),
  ],
  ...(shard ? { shard } : {}),
  use: { trace: 'off' },
  testMatch: inScope,
});
