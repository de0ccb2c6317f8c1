import { mkdir, mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from './support/test';
import type { Locator, Page } from '@playwright/test';
import { uniqueEmail } from './support/browser';
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';

// Curating a family (docs/branching.md): rename, star, archive and restore a path from the history
// menu; search every path and open a hit's step; the same on a phone.

const PASSWORD = 'correct horse battery';
const SCREENSHOT_DIR = process.env.TRELLIS_SCREENSHOT_DIR;

class CuratePage extends StudioPage {
  row(threadId: string): Locator {
    return this.page.locator(`[data-testid="conversation-item"][data-thread-id="${threadId}"]`);
  }
  activeRow(threadId: string): Locator {
    return this.byTestId('conversation-list').locator(`[data-thread-id="${threadId}"]`);
  }
  archivedRow(threadId: string): Locator {
    return this.byTestId('archived-list').locator(`[data-thread-id="${threadId}"]`);
  }
  async open(threadId: string, replies: number): Promise<void> {
    await this.page.goto(`/c/${threadId}`);
    await this.waitForReplies(replies);
  }
  async rename(threadId: string, title: string): Promise<void> {
    const row = this.row(threadId);
    await row.hover();
    await row.getByTestId('rename-conversation').click();
    const input = row.getByTestId('conversation-title-input');
    await input.fill(title);
    await input.press('Enter');
    await expect.poll(() => row.getByTestId('conversation-title').textContent()).toBe(title);
  }
  async search(text: string): Promise<Locator> {
    await this.page.keyboard.press('Control+k');
    const input = this.byTestId('search-input');
    await input.waitFor();
    await input.fill(text);
    const hits = this.byTestId('search-hit');
    await hits.first().waitFor();
    return hits;
  }
}

async function family(page: Page) {
  const ui = new CuratePage(page);
  await new AuthPage(page).signUp(uniqueEmail('curate'), PASSWORD);
  const root = await ui.newConversation();
  await ui.send('Let us write a guide to bees');
  await ui.waitForReplies(1);
  await ui.send('todo: Observe swarming in spring');
  await ui.waitForReplies(2);
  const branch = await ui.branch(root, 1);
  await ui.open(branch, 1);
  await ui.send('Focus on wasps instead');
  await ui.waitForReplies(2);
  return { ui, root, branch };
}

test.describe('curate a family', () => {
  test('a branch is named by its first message; rename, star, archive and restore a path', async ({
    page,
    axe,
  }) => {
    const { ui, root, branch } = await family(page);
    await expect
      .poll(() => ui.row(branch).getByTestId('conversation-title').textContent())
      .toBe('Focus on wasps instead');
    expect(await ui.row(root).getByTestId('conversation-title').textContent()).toBe(
      'Let us write a guide to bees',
    );

    await ui.rename(root, 'Bee guide');
    await ui.row(root).hover();
    await ui.row(root).getByTestId('star-conversation').click();
    await ui.row(root).getByTestId('starred-mark').waitFor();
    expect(await ui.row(root).getByTestId('star-conversation').getAttribute('aria-pressed')).toBe('true');

    await ui.row(branch).hover();
    await ui.row(branch).getByTestId('archive-conversation').click();
    await ui.activeRow(branch).waitFor({ state: 'detached' });
    const group = ui.byTestId('archived-group');
    await group.locator('summary').click();
    await ui.archivedRow(branch).waitFor();

    // after a reload the server agrees: starred, renamed, archived
    await page.reload();
    await ui.row(root).getByTestId('starred-mark').waitFor();
    expect(await ui.row(root).getByTestId('conversation-title').textContent()).toBe('Bee guide');
    expect(await ui.activeRow(branch).count()).toBe(0);
    const graph = (await (await page.request.get(`/api/conversations/${root}/graph`)).json()) as {
      threads: { thread_id: string; starred: boolean }[];
    };
    expect(graph.threads.map((t) => [t.thread_id, t.starred])).toEqual([[root, true]]);

    await ui.byTestId('archived-group').locator('summary').click();
    await ui.archivedRow(branch).waitFor();
    await axe(page, '[data-testid="history-panel"]');
    await ui.archivedRow(branch).hover();
    await ui.archivedRow(branch).getByTestId('restore-conversation').click();
    await ui.activeRow(branch).waitFor();
    expect(await ui.byTestId('archived-group').count()).toBe(0);
  });

  test('a branch at step 0 reads "alternative first message" and takes its first message as its name', async ({
    page,
  }) => {
    const { ui, root, branch } = await family(page);
    const alternative = await ui.branch(root, 0);
    await page.goto(`/c/${alternative}`);
    await ui.byTestId('chat-empty').waitFor();
    await ui.row(alternative).waitFor();
    expect(await ui.row(alternative).getByTestId('branched-at').textContent()).toBe(
      'alternative first message',
    );
    expect(await ui.row(branch).getByTestId('branched-at').textContent()).toBe('branched at step 1');
    expect(await ui.row(root).getByTestId('branched-at').count()).toBe(0);
    await ui.send('Start with a glossary of bee terms');
    await ui.waitForReplies(1);
    await expect
      .poll(() => ui.row(alternative).getByTestId('conversation-title').textContent())
      .toBe('Start with a glossary of bee terms');
    expect(await ui.row(alternative).getByTestId('branched-at').textContent()).toBe(
      'alternative first message',
    );
  });

  test('the skip link is the first tab stop and moves focus to the composer', async ({ page }) => {
    const { ui, branch } = await family(page);
    const skip = ui.byTestId('skip-to-composer');
    // The page's first stop for a keyboard user, before the header, shown once focused.
    await ui.open(branch, 2);
    await page.keyboard.press('Tab');
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    const box = await skip.boundingBox();
    expect(box !== null && box.width > 1 && box.height > 1).toBe(true);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => ui.byTestId('chat-input').evaluate((el) => el === document.activeElement))
      .toBe(true);
    // Typing goes into the message box, and the studio still shows the same path.
    await page.keyboard.type('typed after the skip');
    expect(await ui.byTestId('chat-input').inputValue()).toBe('typed after the skip');
    expect(ui.threadId()).toBe(branch);
  });

  test("renames a path from its lane's name on the trajectory; the history and a reload agree", async ({
    page,
  }) => {
    const { ui, branch } = await family(page);
    const panel = ui.byTestId('trajectory-panel');
    // a large panel with every card in view (React Flow renders only what is visible)
    await panel.getByTestId('trajectory-size-L').click();
    await panel.locator('.react-flow__controls-fitview').click();
    const lane = panel.locator(`[data-testid="lane-name"][data-thread-id="${branch}"]`);
    await expect.poll(() => lane.textContent()).toBe('Focus on wasps instead');
    await lane.getByTestId('lane-name-edit').click();
    const input = lane.getByTestId('lane-name-edit-input');
    await input.fill('Wasps, not bees');
    await input.press('Enter');
    await expect
      .poll(() => ui.row(branch).getByTestId('conversation-title').textContent())
      .toBe('Wasps, not bees');
    await page.reload();
    await ui.waitForReplies(2);
    await expect.poll(() => lane.textContent()).toBe('Wasps, not bees');
    // Escape leaves the name as it was
    await lane.getByTestId('lane-name-edit').click();
    await input.fill('Discarded name');
    await input.press('Escape');
    expect(await lane.textContent()).toBe('Wasps, not bees');
  });

  test('Ctrl+K searches every path; a hit names its step and path, and opens it without creating anything', async ({
    page,
    axe,
  }) => {
    const { ui, root, branch } = await family(page);
    const hits = await ui.search('swarming');
    await axe(page, '[data-testid="search-dialog"]');
    const labels = await ui.byTestId('search-hit-label').allTextContents();
    expect(labels).toContain('Step 2');
    const message = hits.filter({ hasText: 'Message' }).first();
    expect(await message.getAttribute('data-thread-id')).toBe(root);
    const before = (
      (await (await page.request.get('/api/conversations')).json()) as { conversations: unknown[] }
    ).conversations.length;
    // step 2 is the root's latest: the hit opens the path live, so the next message continues it
    expect(await message.getAttribute('data-latest')).toBe('true');
    expect(await message.getByTestId('search-hit-path').textContent()).toBe(
      'in Let us write a guide to bees',
    );
    await message.click();
    await page.waitForURL((url) => url.pathname === `/c/${root}` && !url.searchParams.has('step'));
    await ui.byTestId('search-dialog').waitFor({ state: 'detached' });
    const after = (
      (await (await page.request.get('/api/conversations')).json()) as { conversations: unknown[] }
    ).conversations.length;
    expect(after).toBe(before);

    // a word only the branch holds finds the branch's step, labelled as the graph labels it
    await ui.search('wasps');
    const branchHit = ui.byTestId('search-hit').first();
    expect(await branchHit.getAttribute('data-thread-id')).toBe(branch);
    const graph = (await (await page.request.get(`/api/conversations/${branch}/graph`)).json()) as {
      nodes: { thread_id: string; turn_index: number; label: string }[];
    };
    const node = graph.nodes.find((n) => n.thread_id === branch && n.turn_index === 2);
    expect(await branchHit.getByTestId('search-hit-label').textContent()).toBe(`Step ${node?.label}`);
    await page.keyboard.press('Escape');

    // Always runs: into docs/ when TRELLIS_SCREENSHOT_DIR names it, else into a temporary folder.
    const dir =
      SCREENSHOT_DIR === undefined
        ? await mkdtemp(path.join(tmpdir(), 'trellis-shots-'))
        : path.resolve(SCREENSHOT_DIR);
    await mkdir(dir, { recursive: true });
    // A named, starred family: both paths renamed, the root starred; each lane shows its name.
    await ui.rename(root, 'Bee guide');
    await ui.rename(branch, 'Wasps instead');
    await ui.row(root).hover();
    await ui.row(root).getByTestId('star-conversation').click();
    await ui.row(root).getByTestId('starred-mark').waitFor();
    await page.goto(`/c/${branch}`);
    await ui.waitForReplies(2);
    const panel = ui.byTestId('trajectory-panel');
    const laneName = (threadId: string) =>
      panel.locator(`[data-testid="lane-name"][data-thread-id="${threadId}"]`);
    await expect.poll(() => laneName(root).textContent()).toBe('★Starred: Bee guide');
    expect(await laneName(root).getAttribute('data-starred')).toBe('true');
    expect(await laneName(branch).textContent()).toBe('Wasps instead');
    const canvas = await panel.locator('.react-flow').boundingBox();
    for (const threadId of [root, branch]) {
      const box = await laneName(threadId).boundingBox();
      expect(
        box !== null &&
          canvas !== null &&
          box.y >= canvas.y &&
          box.x >= canvas.x &&
          box.x + box.width <= canvas.x + canvas.width,
        threadId,
      ).toBe(true);
    }
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(dir, 'studio-curate.png') });
    await ui.search('swarming');
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(dir, 'studio-search.png') });
    for (const file of ['studio-curate.png', 'studio-search.png']) {
      expect((await stat(path.join(dir, file))).size, file).toBeGreaterThan(10_000);
    }
  });

  test(
    'on a phone: the history tab stars and archives, the search button finds and opens a step',
    { tag: '@phone' },
    async ({ page, context, newPage }) => {
      // The family is built on a desktop page; the phone page signs in with its cookies.
      const desktop = await newPage({ viewport: { width: 1440, height: 900 } });
      const { root, branch } = await family(desktop.page);
      await context.addCookies(await desktop.context.cookies());
      await desktop.context.close();
      const ui = new CuratePage(page);
      await ui.open(root, 2);
      await ui.openTab('history');
      await ui.row(root).getByTestId('star-conversation').click();
      await ui.row(root).getByTestId('starred-mark').waitFor();
      await ui.row(branch).getByTestId('archive-conversation').click();
      await ui.byTestId('archived-group').waitFor();
      await ui.byTestId('search-open').click();
      await ui.byTestId('search-input').fill('swarming');
      const hit = ui.byTestId('search-hit').first();
      await hit.click();
      await page.waitForURL((url) => url.pathname === `/c/${root}` && !url.searchParams.has('step'));
    },
  );
});
