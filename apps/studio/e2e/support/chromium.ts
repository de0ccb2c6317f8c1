// Debian's Chromium and the flags these machines need (no browser downloads, a closed network):
// one definition for the test runner's projects (playwright.config.ts) and the bench's launcher.
import type { LaunchOptions } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_LAUNCH_OPTIONS = {
  executablePath: CHROMIUM_PATH,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
} satisfies LaunchOptions;
