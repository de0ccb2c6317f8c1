// History and search at real size: a family of 64 steps and 13 paths with long titles, made through the API.
// The history shows every path's name (≥ 30 characters of each title), folds three regenerations
// of one reply into one row, the skip link is the first tab stop, and a search for a sentence that
// seven document versions hold is one hit naming its path, opened with ↓ Enter — live, so the next
// message continues that path. The family is support/make-large-family.ts's, as family-map.spec.ts's is.
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { ApiClient } from './support/api-client';
import { seriousViolations } from './support/axe';
import { makeLargeFamily, type LargeFamily } from './support/make-large-family';

const PASSWORD = 'correct horse battery';

let family: LargeFamily;
let email: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000);
  email = `family-${Date.now().toString(36)}@example.test`;
  const client = new ApiClient(baseURL!);
  await client.signUp(email, PASSWORD);
  family = await makeLargeFamily(client);
  expect(family.stepCount).toBe(64);
  expect(family.threadIds).toHaveLength(13);
});

async function signIn(page: Page, baseURL: string): Promise<void> {
  const response = await page.request.post('/api/auth/sign-in/email', {
    data: { email, password: PASSWORD },
    headers: { origin: baseURL },
  });
  expect(response.ok()).toBe(true);
}

/** How many characters of each history row's title are on screen (the rest clipped by the row). */
function visibleTitleCharacters(page: Page) {
  return page.getByTestId('conversation-item').evaluateAll((rows) =>
    rows.map((row) => {
      const title = row.querySelector<HTMLElement>('[data-testid="conversation-title"]')!;
      const box = title.getBoundingClientRect();
      const text = title.firstChild as Text;
      const range = document.createRange();
      let visible = 0;
      for (let i = 0; i < text.length; i++) {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const r = range.getBoundingClientRect();
        if (r.bottom <= box.bottom + 1 && r.right <= box.right + 1) visible++;
      }
      return { threadId: (row as HTMLElement).dataset.threadId!, title: text.data, visible };
    }),
  );
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  // The phone's variant runs in the `phone` project (tagged), the desktop's in `desktop`.
  test.describe(
    `at ${viewport.width}×${viewport.height}`,
    { tag: viewport.width < 768 ? '@phone' : [] },
    () => {
      test.use({ viewport });

      test('every history row shows at least 30 characters of its title; three regenerations are one count', async ({
        page,
        baseURL,
      }) => {
        await signIn(page, baseURL!);
        await page.goto(`/c/${family.rootThreadId}`);
        if (viewport.width < 768) await page.getByTestId('tab-history').click();
        await page.getByTestId('conversation-item').first().waitFor();
        const rows = await visibleTitleCharacters(page);
        // 13 paths, the 3 regenerations folded into the root's row
        expect(rows).toHaveLength(10);
        for (const row of rows) {
          expect(row.title).toBe(family.titles.get(row.threadId));
          expect(row.visible, row.title).toBeGreaterThanOrEqual(Math.min(30, row.title.length));
        }
        for (const id of family.regenerationIds)
          await expect(page.locator(`[data-testid="conversation-item"][data-thread-id="${id}"]`)).toHaveCount(
            0,
          );
        const root = page.locator(
          `[data-testid="conversation-item"][data-thread-id="${family.rootThreadId}"]`,
        );
        await expect(root.getByTestId('reply-alternatives')).toHaveText(
          `4 replies at step ${family.regeneratedStep}`,
        );
        // the starred path is pinned at the top of the family
        await expect(page.getByTestId('conversation-item').nth(1)).toHaveAttribute(
          'data-thread-id',
          family.starredThreadId,
        );
      });

      test('archiving a path with paths under it says how many go with it', async ({ page, baseURL }) => {
        await signIn(page, baseURL!);
        await page.goto(`/c/${family.rootThreadId}`);
        if (viewport.width < 768) await page.getByTestId('tab-history').click();
        // the first branch holds two paths: a branch of it and that branch's own branch
        const row = page.locator(
          `[data-testid="conversation-item"][data-thread-id="${family.threadIds[1]}"]`,
        );
        await row.hover();
        await row.getByTestId('archive-conversation').click();
        const dialog = page.getByRole('dialog');
        await expect(dialog).toContainText('and the 2 paths under it go to Archived');
        await page.keyboard.press('Escape');
        await expect(row).toHaveAttribute('data-archived', 'false');
      });

      test('the skip link is the first tab stop', async ({ page, baseURL }) => {
        await signIn(page, baseURL!);
        await page.goto(`/c/${family.rootThreadId}`);
        await page.getByTestId('message-list').waitFor();
        await page.keyboard.press('Tab');
        await expect(page.getByTestId('skip-to-composer')).toBeFocused();
      });

      test('a sentence in many document versions is one hit naming its path; ↓ Enter opens it live and a send continues it', async ({
        page,
        baseURL,
      }) => {
        await signIn(page, baseURL!);
        await page.goto(`/c/${family.rootThreadId}`);
        await page.getByTestId('search-open').click();
        await page.getByTestId('search-input').fill(family.keptWord);
        const hits = page.getByTestId('search-hit');
        await expect(hits).toHaveCount(1);
        const hit = hits.first();
        const threadId = (await hit.getAttribute('data-thread-id'))!;
        await expect(hit.getByTestId('search-hit-path')).toHaveText(`in ${family.titles.get(threadId)}`);
        await expect(hit.getByTestId('search-hit-label')).toHaveText(/^Steps \d+(\.\d+)*–\d+(\.\d+)*$/);
        await expect(hit).toHaveAttribute('data-latest', 'true');
        await expect(hit.locator('mark')).toHaveText(family.keptWord);
        await expect(page.getByRole('listbox', { name: 'Search results' })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await page.keyboard.press('ArrowDown');
        await expect(page.getByTestId('search-input')).toHaveAttribute(
          'aria-activedescendant',
          (await hit.getAttribute('id'))!,
        );
        await page.keyboard.press('Enter');
        await expect(page.getByTestId('search-dialog')).toHaveCount(0);
        await expect(page).toHaveURL(new RegExp(`/c/${threadId}$`));

        const before = await page.request
          .get('/api/conversations')
          .then((r) => r.json() as Promise<{ conversations: unknown[] }>);
        if (viewport.width < 768) await page.getByTestId('tab-chat').click();
        await page.getByTestId('chat-input').fill('todo: Continue this path');
        await page.getByTestId('chat-input').press('Enter');
        await expect(page.getByTestId('message-user').last()).toContainText('todo: Continue this path');
        await expect(page).toHaveURL(new RegExp(`/c/${threadId}$`));
        const after = await page.request
          .get('/api/conversations')
          .then((r) => r.json() as Promise<{ conversations: unknown[] }>);
        expect(after.conversations).toHaveLength(before.conversations.length);
      });
    },
  );
}
