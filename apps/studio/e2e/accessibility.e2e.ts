/**
 * axe-core on every page of the studio, in Chromium: sign-in, sign-up, the empty studio, a
 * conversation with its trajectory, a restored step, the full-screen map, the import page and a
 * phone viewport. No serious or critical violation (axe's default rules: WCAG 2 A/AA and best practices).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';
import { seriousViolations } from './support/axe';
import { launchBrowser, newPage, uniqueEmail } from './support/browser';

const PASSWORD = 'correct horse battery';

describe('accessibility', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('has no serious or critical axe violation on the sign-in and sign-up pages', async () => {
    const { page, context } = await newPage(browser, inject('baseUrl'));
    await page.goto('/sign-in');
    await page.getByTestId('sign-in-form').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto('/sign-up');
    await page.getByRole('button', { name: 'Sign up' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('has none in the studio: empty, with a conversation and its trajectory, a restored step, the full-screen map, the import page', async () => {
    const { page, context } = await newPage(browser, inject('baseUrl'));
    const studio = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('axe'), PASSWORD);
    expect(await seriousViolations(page)).toEqual([]);

    await studio.newConversation();
    await studio.send('objective: Accessible bees\ntodo: Label every hive\nprefer: Plain words');
    await studio.waitForReplies(1);
    await studio.send('doc: # Hives\nOne per garden.');
    await studio.waitForReplies(2);
    await studio.byTestId('trajectory-panel').locator('[data-testid="trajectory-node"]').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${new URL(page.url()).pathname}?step=1`);
    await studio.byTestId('preview-banner').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await studio.byTestId('trajectory-fullscreen').click();
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto('/import');
    await page.getByRole('heading').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('has none on a phone', async () => {
    const { page, context } = await newPage(browser, inject('baseUrl'), {
      viewport: { width: 390, height: 844 },
    });
    const studio = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('axe-phone'), PASSWORD);
    await studio.send('todo: Tap targets');
    await studio.waitForReplies(1);
    expect(await seriousViolations(page)).toEqual([]);
    await studio.openTab('workspace');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
