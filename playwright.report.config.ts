import { defineConfig } from '@playwright/test';

// The one browser check: the conformance report opened in Debian's chromium (Playwright cannot download its own here).
export default defineConfig({
  testDir: 'test/browser',
  retries: 0,
  workers: 1,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // As root in a container chromium needs --no-sandbox; the rest keeps it off a network it cannot reach.
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
