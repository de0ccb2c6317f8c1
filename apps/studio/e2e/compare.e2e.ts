/**
 * Comparing two paths in Chromium against a production build: two paths are built (two turns on the
 * root, a branch at step 1 that locks a preference, ticks a todo and rewrites the document), their tips
 * are compared through the deep link, the document diff and the item badges show, each side opens from
 * the compare view, the deep link survives a reload, and the view has no serious accessibility issue.
 */
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';
import { launchBrowser, newPage, uniqueEmail } from './support/browser';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

describe('comparing two paths', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ui: StudioPage;
  let root = '';
  let branch = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, inject('baseUrl')));
    ui = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('compare'), 'correct horse battery');
    root = await ui.newConversation();
    await ui.send(['doc: # Bees', 'Bees thrive in city gardens.', 'prefer: Short paragraphs', 'todo: Research regulations'].join('\n'));
    await ui.waitForReplies(1);
    await ui.send('append: Hives need shade.');
    await ui.waitForReplies(2);
    const created = await page.request.post(`/api/conversations/${root}/branch`, { data: { from_turn: 1 } });
    expect(created.status()).toBe(201);
    branch = ((await created.json()) as { thread_id: string }).thread_id;
    const workspace = (await (await page.request.get(`/api/conversations/${branch}/workspace`)).json()) as {
      preferences: { id: string }[];
    };
    const locked = await page.request.patch(`/api/conversations/${branch}/preferences/${workspace.preferences[0]!.id}`, {
      data: { locked: true },
    });
    expect(locked.status()).toBe(200);
    await page.goto(`/c/${branch}`);
    await ui.waitForReplies(1);
    await ui.send(['done: Research regulations', 'append: Rooftops work well.'].join('\n'));
    await ui.waitForReplies(2);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  const deepLink = () => `/c/${root}/compare?a=${root}:2&b=${branch}:2`;

  it('shows the fork, the document diff and the item badges for the two tips', async () => {
    await page.goto(deepLink());
    await ui.byTestId('compare-view').waitFor();
    expect(await ui.byTestId('compare-fork').textContent()).toContain('step 1');
    expect(await ui.byTestId('compare-label-a').textContent()).toBe('2');
    expect(await ui.byTestId('compare-label-b').textContent()).toMatch(/^2\.\d+$/);
    const documentDiff = ui.byTestId('compare-document');
    await documentDiff.locator('.cm-content').first().waitFor();
    expect(await documentDiff.textContent()).toContain('Rooftops work well.');
    expect(await documentDiff.textContent()).toContain('Hives need shade.');
    const preference = ui.byTestId('compare-preferences').locator('li').first();
    expect(await preference.getAttribute('data-status')).toBe('edited');
    expect(await preference.getByTestId('compare-badge').allTextContents()).toEqual(['edited', 'lock changed']);
    const todo = ui.byTestId('compare-todos').locator('li').first();
    expect(await todo.getAttribute('data-status')).toBe('edited');
    expect(await ui.byTestId('compare-words').textContent()).toMatch(/\+\d+ −\d+ words/);
  });

  it('has no serious or critical accessibility violations', async () => {
    await page.goto(deepLink());
    await ui.byTestId('compare-document').locator('.cm-content').first().waitFor();
    await page.addScriptTag({ path: axePath });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string | null }[] }> } }).axe;
      const result = await axe.run();
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
    });
    expect(violations).toEqual([]);
  });

  it('opens each side from the compare view, and the deep link survives a reload', async () => {
    await page.goto(deepLink());
    await ui.byTestId('compare-open-a').click();
    await page.waitForURL((url) => url.pathname === `/c/${root}`);
    await ui.waitForReplies(2);
    await page.goBack();
    await ui.byTestId('compare-open-b').click();
    await page.waitForURL((url) => url.pathname === `/c/${branch}`);
    await ui.waitForReplies(2);
    // The trajectory cards carry the stored word counts of their steps.
    await expect.poll(() => ui.byTestId('step-change-badge').count()).toBeGreaterThan(0);
    await page.goto(deepLink());
    await page.reload();
    await ui.byTestId('compare-view').waitFor();
    expect(await ui.byTestId('compare-label-a').textContent()).toBe('2');
  });
});
