import { defineConfig } from '@playwright/test';
import { reportsDir } from './harness/paths.ts';
import { reportersFor } from './harness/reporter/reporters.ts';

// npm run merge-reports replays the shards' blob reports through this: the run's own reporters, nothing started.
export default defineConfig({
  testDir: 'suites',
  reporter: reportersFor(reportsDir(), { quiet: true, playwrightHtml: true }),
});
