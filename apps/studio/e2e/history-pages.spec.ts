import { test, expect } from './support/test';
import { uniqueEmail } from './support/browser';
import { writeFromPage } from './support/same-origin';
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';

// The history menu pages (GET /api/conversations?limit=&cursor=): the newest page paints first, and
// older conversations load as the list is scrolled to its end, with a loading row meanwhile. The list
// is virtualised: the DOM holds the rows near the viewport, not every loaded one.

const PASSWORD = 'correct horse battery';
/** More than one page of the history menu (CONVERSATION_PAGE_SIZE is 50). */
const CONVERSATIONS = 70;

test.describe('history menu pages', () => {
  test('shows the newest page first and the older conversations as the list scrolls, each once, archived ones in their group, rendering only the rows near the viewport', async ({
    page,
  }) => {
    // Short enough that the end of the first page is well below the fold.
    await page.setViewportSize({ width: 1280, height: 700 });
    const studio = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('pages'), PASSWORD);
    const created: string[] = [];
    for (let i = 1; i <= CONVERSATIONS; i++) {
      const response = await writeFromPage(page, 'POST', '/api/conversations', {
        title: `Conversation ${i}`,
      });
      expect(response.status()).toBe(201);
      created.push(((await response.json()) as { thread_id: string }).thread_id);
    }
    // The oldest is archived: it arrives with the last page, in the Archived group.
    const archive = await writeFromPage(page, 'PATCH', `/api/conversations/${created[0]}`, {
      archived: true,
    });
    expect(archive.ok()).toBe(true);

    await page.goto('/');
    const list = studio.byTestId('conversation-list');
    const rendered = list.getByTestId('conversation-item');
    const row = (threadId: string | undefined) =>
      rendered.and(page.locator(`[data-thread-id="${threadId}"]`));
    const loaded = async () => Number(await list.getAttribute('data-row-count'));
    const scroller = studio.byTestId('history-scroller');
    await studio.byTestId('conversations-loading-more').waitFor();
    // The list is virtualised: the first page is loaded, only the rows near the viewport are in the DOM.
    expect(await loaded()).toBe(50);
    expect(await rendered.count()).toBeLessThan(40);
    expect(await rendered.first().getByTestId('conversation-title').textContent()).toBe(
      `Conversation ${CONVERSATIONS}`,
    );
    expect(await row(created[1]).count()).toBe(0);
    expect(await studio.byTestId('archived-group').count()).toBe(0);

    // Tab walks the rows past the first screen: each focused row scrolls into view and mounts the next
    // ones (a row is its link and four action buttons).
    await rendered.first().locator('a').focus();
    for (let i = 0; i < 5 * 20; i++) await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const active = document.activeElement;
      return {
        tag: active?.tagName,
        row: active?.closest('[data-testid="conversation-item"]')?.getAttribute('aria-posinset'),
      };
    });
    expect(focused).toEqual({ tag: 'A', row: '21' });

    // Scrolled to its end, the list loads the older page and shows the oldest, still rendering few rows.
    const toEnd = () => scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await toEnd();
    await expect.poll(loaded).toBe(CONVERSATIONS - 1);
    await studio.byTestId('conversations-loading-more').waitFor({ state: 'detached' });
    await expect
      .poll(async () => {
        await toEnd();
        return row(created[1]).count();
      })
      .toBe(1);
    expect(await rendered.count()).toBeLessThan(40);

    // Walked from the top, every loaded row shows once, newest first.
    const walked = await scroller.evaluate(async (el) => {
      const titles: Record<number, string> = {};
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const items = () => [
        ...el.querySelectorAll('[data-testid="conversation-list"] [data-testid="conversation-item"]'),
      ];
      // Mounted rows reach across the viewport (or to the list's end) once the virtualiser has caught up.
      const covered = () => {
        const view = el.getBoundingClientRect();
        const boxes = items().map((li) => li.getBoundingClientRect());
        const listEnd =
          el.querySelector('[data-testid="conversation-list"]')?.getBoundingClientRect().bottom ?? 0;
        return (
          boxes.length > 0 &&
          Math.min(...boxes.map((b) => b.top)) <= view.top &&
          Math.max(...boxes.map((b) => b.bottom)) >= Math.min(view.bottom, listEnd - 2)
        );
      };
      for (let top = 0; ; top += el.clientHeight / 2) {
        el.scrollTo({ top });
        for (let i = 0; i < 60 && !covered(); i++) await frame();
        for (const li of items()) {
          titles[Number(li.getAttribute('aria-posinset'))] =
            li.querySelector('[data-testid="conversation-title"]')?.textContent ?? '';
        }
        if (top >= el.scrollHeight - el.clientHeight) break;
      }
      return titles;
    });
    expect(Object.keys(walked).map(Number)).toEqual(
      Array.from({ length: CONVERSATIONS - 1 }, (_, i) => i + 1),
    );
    expect(Object.values(walked)).toEqual(
      Array.from({ length: CONVERSATIONS - 1 }, (_, i) => `Conversation ${CONVERSATIONS - i}`),
    );

    const group = studio.byTestId('archived-group');
    expect(await group.locator('summary').textContent()).toBe('Archived (1)');
    await group.locator('summary').click();
    await studio.byTestId('archived-list').locator(`[data-thread-id="${created[0]}"]`).waitFor();

    // An older conversation opens like any other.
    await toEnd();
    await row(created[2]).locator('a').click();
    await page.waitForURL((url) => url.pathname === `/c/${created[2]}`);
    // Scrolled away, the row holding focus stays mounted; the others near it do not.
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    await row(created[CONVERSATIONS - 1]).waitFor();
    expect(await row(created[3]).count()).toBe(0);
    expect(await row(created[2]).count()).toBe(1);

    // A selection made elsewhere (here the back button) scrolls its row into view.
    await row(created[CONVERSATIONS - 1])
      .locator('a')
      .click();
    await page.waitForURL((url) => url.pathname === `/c/${created[CONVERSATIONS - 1]}`);
    await expect.poll(() => row(created[2]).count()).toBe(0);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === `/c/${created[2]}`);
    const selected = rendered.and(page.locator('[data-selected="true"]'));
    await expect.poll(() => selected.getAttribute('data-thread-id')).toBe(created[2]);
    const isInView = () =>
      selected.evaluate((li) => {
        const view = li.closest('[data-testid="history-scroller"]')?.getBoundingClientRect();
        const box = li.getBoundingClientRect();
        return view !== undefined && box.top >= view.top && box.bottom <= view.bottom;
      });
    await expect.poll(isInView).toBe(true);

    // On a phone the list sits behind the History tab, virtualised the same way.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await studio.byTestId('tab-history').click();
    await rendered.first().waitFor();
    expect(await rendered.first().getByTestId('conversation-title').textContent()).toBe(
      `Conversation ${CONVERSATIONS}`,
    );
    expect(await loaded()).toBe(50);
    expect(await rendered.count()).toBeLessThan(40);
  });
});
