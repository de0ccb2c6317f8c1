// The browser and HTTP flows of apps/studio/e2e on Playwright's runner. Every spec imports `test`
// and `expect` from e2e/support/test.ts (the fixtures: a studio server per worker, axe, newPage).
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from './e2e/support/chromium';
import { DESKTOP_VIEWPORT, PHONE_VIEWPORT } from './e2e/support/viewports';

const isCI = Boolean(process.env.CI);
/** Specs that measure the server's latency under their own load. */
const ALONE = ['**/no-stall.spec.ts'];

/**
 * Playwright records video with its own ffmpeg build, which it downloads (`npx playwright install
 * ffmpeg`); these machines cannot download it. Without it, a failure keeps its trace (a screencast
 * of every action, the DOM, network and console) and a screenshot, and no video.
 */
function hasPlaywrightFfmpeg(): boolean {
  const dir = process.env.PLAYWRIGHT_BROWSERS_PATH || path.join(homedir(), '.cache', 'ms-playwright');
  if (!existsSync(dir)) return false;
  return readdirSync(dir).some(
    (entry) => entry.startsWith('ffmpeg-') && existsSync(path.join(dir, entry, 'ffmpeg-linux')),
  );
}

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  // Two workers share the two cores of the machines this runs on; TRELLIS_E2E_WORKERS overrides.
  workers: Number(process.env.TRELLIS_E2E_WORKERS ?? 2),
  // Tests within a file share a user, a family or a server; files run in parallel.
  fullyParallel: false,
  // A test that passes only on a retry is a flake to fix: CI retries once so the report names it.
  retries: isCI ? 1 : 0,
  forbidOnly: isCI,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  outputDir: './test-results',
  reporter: [['list'], ['html', { outputFolder: './playwright-report', open: 'never' }]],
  use: {
    headless: true,
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
    actionTimeout: 20_000,
    navigationTimeout: 20_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    video: hasPlaywrightFfmpeg() ? 'retain-on-failure' : 'off',
  },
  projects: [
    { name: 'desktop', grepInvert: /@phone/, testIgnore: ALONE, use: { browserName: 'chromium', viewport: DESKTOP_VIEWPORT } },
    { name: 'phone', grep: /@phone/, testIgnore: ALONE, use: { browserName: 'chromium', viewport: PHONE_VIEWPORT } },
    // Specs that time the server (health latency while it works) run once the others are done, so the
    // other worker's browser is not what they measure.
    { name: 'alone', testMatch: ALONE, dependencies: ['desktop', 'phone'], use: { browserName: 'chromium', viewport: DESKTOP_VIEWPORT } },
  ],
});
