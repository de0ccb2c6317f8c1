import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, uniqueEmail } from './support/browser';
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';

// The history menu pages (GET /api/conversations?limit=&cursor=): the newest page paints first, and
// older conversations load as the list is scrolled to its end, with a loading row meanwhile.

const PASSWORD = 'correct horse battery';
/** More than one page of the history menu (CONVERSATION_PAGE_SIZE is 50). */
const CONVERSATIONS = 70;

describe('history menu pages', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('shows the newest page first and the older conversations as the list scrolls, each once, archived ones in their group', async () => {
    // Short enough that the end of the first page is well below the fold.
    const { page, context } = await newPage(browser, inject('baseUrl'), { viewport: { width: 1280, height: 700 } });
    const studio = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('pages'), PASSWORD);
    const created: string[] = [];
    for (let i = 1; i <= CONVERSATIONS; i++) {
      const response = await page.request.post('/api/conversations', { data: { title: `Conversation ${i}` } });
      expect(response.status()).toBe(201);
      created.push(((await response.json()) as { thread_id: string }).thread_id);
    }
    // The oldest is archived: it arrives with the last page, in the Archived group.
    const archive = await page.request.patch(`/api/conversations/${created[0]}`, { data: { archived: true } });
    expect(archive.ok()).toBe(true);

    await page.goto('/');
    const active = studio.byTestId('conversation-list').getByTestId('conversation-item');
    const titles = () => active.getByTestId('conversation-title').allTextContents();
    await studio.byTestId('conversations-loading-more').waitFor();
    expect(await active.count()).toBe(50);
    expect((await titles())[0]).toBe(`Conversation ${CONVERSATIONS}`);
    expect(await titles()).not.toContain('Conversation 2');
    expect(await studio.byTestId('archived-group').count()).toBe(0);

    await studio.byTestId('history-scroller').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => active.count()).toBe(CONVERSATIONS - 1);
    await studio.byTestId('conversations-loading-more').waitFor({ state: 'detached' });
    const all = await titles();
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(Array.from({ length: CONVERSATIONS - 1 }, (_, i) => `Conversation ${CONVERSATIONS - i}`));
    const group = studio.byTestId('archived-group');
    expect(await group.locator('summary').textContent()).toBe('Archived (1)');
    await group.locator('summary').click();
    await studio.byTestId('archived-list').locator(`[data-thread-id="${created[0]}"]`).waitFor();

    // An older conversation opens like any other.
    await active.and(page.locator(`[data-thread-id="${created[2]}"]`)).locator('a').click();
    await page.waitForURL((url) => url.pathname === `/c/${created[2]}`);
    await context.close();
  });
});
