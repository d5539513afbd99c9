import { defineConfig } from '@playwright/test';
import chromium from '@sparticuz/chromium';

// The browser comes with `npm install`: @sparticuz/chromium ships a whole Chromium in its npm package and
// unpacks it to the temp folder on first use (Playwright's own download cannot run on our machines).
// CHROMIUM_PATH (for example Debian's /usr/bin/chromium) overrides it.
const executablePath = process.env.CHROMIUM_PATH || (await chromium.executablePath());

export default defineConfig({
  testDir: 'test/e2e',
  // A test's whole budget, there to stop a hung one: the longest flows (every screen checked with axe, a search built,
  // run and exported) take 40-45 s on an idle 2-core machine and took past two minutes on one loaded four times over.
  timeout: 360_000,
  // A loaded 2-core CI machine answers slower than a laptop; waits for long work say so themselves.
  expect: { timeout: 10_000 },
  // Two tests at a time even on two cores: most of a test's time is spent waiting on its page, host or simulator
  // (the suite took 5.5 min on one worker on a 2-core AMD EPYC, 2.4-2.5 on two, three runs alike, none failed).
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: {
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath,
      args: ['--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
});
