import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_LAUNCH_OPTIONS, CHROMIUM_PATH } from './chromium';

/** Debian's Chromium, headless, for scripts outside the test runner (the benches). */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}; install Debian's chromium package`);
  return chromium.launch({ ...CHROMIUM_LAUNCH_OPTIONS, headless: true });
}

export function uniqueEmail(tag = 'e2e'): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}
