import { defineConfig } from '@playwright/test';

// Debian's Chromium: Playwright's own browser download cannot run on our machines (guide/stack.md).
export default defineConfig({
  testDir: 'test/e2e',
  timeout: 120_000,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: {
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
});
