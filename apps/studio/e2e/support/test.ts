/**
 * The one `test` and `expect` of the e2e suite: every spec imports them from here.
 *
 *   import { test, expect } from './support/test';
 *
 *   test('signs up and is axe-clean', async ({ page, axe }) => {
 *     await page.goto('/sign-up');            // baseURL is this worker's studio
 *     await axe(page);                        // fails on a serious or critical violation
 *   });
 *
 * On top of Playwright's fixtures (`page`, `context`, `browser`, `baseURL`…):
 * - `studio` (one per worker): a production build of the studio (`next start`, built once by
 *   global-setup.ts) on a database of its own on the run's PostgreSQL. Spec files run in
 *   parallel workers, so a test makes its own user (`uniqueEmail`) and never counts others' data.
 * - `axe(page, selector?)`: axe-core on the page (or inside `selector`); fails with the list of
 *   serious and critical violations.
 * - `newPage(options?)`: one more page in a context of its own (a second user, another viewport),
 *   with the project's options; closed when the test ends. Traced and screenshotted like `page`.
 *
 * Projects (playwright.config.ts): `desktop` (1440×900) runs every test not tagged `@phone`;
 * `phone` (390×844) runs the tests tagged `@phone` (`test('…', { tag: '@phone' }, …)`).
 * Tests that stop, kill or restart a studio start their own with `startStudioServer`.
 */
import {
  test as base,
  expect,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from '@playwright/test';
import { seriousViolations } from './axe';
import { startStudioServer, type StudioServer } from './studio-server';

export { expect };

export interface E2eFixtures {
  axe: (page: Page, selector?: string) => Promise<void>;
  newPage: (options?: BrowserContextOptions) => Promise<{ context: BrowserContext; page: Page }>;
}

export interface E2eWorkerFixtures {
  studio: StudioServer;
}

export const test = base.extend<E2eFixtures, E2eWorkerFixtures>({
  studio: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const server = await startStudioServer();
      await use(server);
      await server.stop();
      await server.dispose();
    },
    { scope: 'worker', timeout: 180_000, title: 'studio server' },
  ],
  baseURL: async ({ studio }, use) => {
    await use(studio.baseUrl);
  },
  // eslint-disable-next-line no-empty-pattern -- as above
  axe: async ({}, use) => {
    await use(async (page, selector) => {
      await test.step(
        `axe ${selector ?? 'page'}`,
        async () => {
          expect(await seriousViolations(page, selector), 'serious or critical axe-core violations').toEqual(
            [],
          );
        },
        { box: true },
      );
    });
  },
  newPage: async ({ browser }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (options = {}) => {
      const context = await browser.newContext(options);
      contexts.push(context);
      return { context, page: await context.newPage() };
    });
    for (const context of contexts) await context.close();
  },
});
