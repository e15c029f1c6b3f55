import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { GROUP_ENV, readManifest } from './harness/group/manifest.ts';

// A grouped run (harness/group/manifest.ts, made by scripts/conformance-group.ts): the configurations' stand-in spec
// files in one project, so that a worker serves every configuration; each configuration's references are started by
// the group's set-up and its reports written by the group's reporter.
const manifest = readManifest();
if (!manifest) throw new Error(`playwright.group.config.ts is the config of a grouped run: ${GROUP_ENV} names its manifest`);

export default defineConfig({
  testDir: manifest.dir,
  testMatch: /\.spec\.ts$/,
  globalSetup: './scripts/group-global-setup.ts',
  // A stand-in file is one configuration's interface: its tests one after another on one worker, as in the run of
  // its own on one worker that it stands for; the group's files run side by side.
  fullyParallel: false,
  // As a run of its own: a retry would resend counted requests and hide a deviation that shows once.
  retries: 0,
  workers: manifest.workers,
  timeout: Number(process.env.HARNESS_TEST_TIMEOUT_MS) || 120_000,
  forbidOnly: Boolean(process.env.CI),
  outputDir: path.join(manifest.dir, 'test-results'),
  reporter: [['./harness/group/reporter.ts']],
  use: { trace: 'off' },
});
