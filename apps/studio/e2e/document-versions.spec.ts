/**
 * In Chromium: the live document's edits carry the version they were made on, so no edit is lost.
 * Two tabs on one path edit the document: a stale push of a different line is rebased (both edits
 * kept, in both tabs); two tabs rewriting the same words both keep their text, with no dialog — the
 * merge view and its 409 are for a REST client saving a whole text on a stale base. The person
 * types while the agent appends: both are kept.
 *
 * "Stale" is made certain, not left to timing: the second tab's updates are held in the browser (a
 * route) until the first tab's have landed, so they reach the server on the older version.
 */
import type { BrowserContextOptions, Page, Route } from '@playwright/test';
import { test, expect } from './support/test';
import { AuthPage } from './pages/auth-page';
import { TrajectoryPage } from './pages/trajectory-page';
import { uniqueEmail } from './support/browser';
import { writeFromPage } from './support/same-origin';

const DOC = ['doc: # Bees', '', 'Bees like gardens.', '', 'Hives need shade.'].join('\n');

/** Holds the page's live document updates (POST …/document/updates) until `release` is called. */
async function holdDocumentSaves(page: Page): Promise<{ held: Promise<void>; release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let heldOne!: () => void;
  const held = new Promise<void>((resolve) => (heldOne = resolve));
  await page.route(
    (url) => /^\/api\/conversations\/[^/]+\/document\/updates$/.test(url.pathname),
    async (route: Route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      heldOne();
      await released;
      await route.continue();
    },
  );
  return { held, release };
}

/** Puts the caret at the end of the document's line holding `text` and types `typed` there. */
async function typeAfter(ui: TrajectoryPage, text: string, typed: string): Promise<void> {
  await ui.page.locator('[data-testid="document-editor"] .cm-line', { hasText: text }).click();
  await ui.page.keyboard.press('End');
  await ui.page.keyboard.type(typed);
}

/** Replaces the last word of the document's line holding `text` ("gardens." in "Bees like gardens."). */
async function replaceLastWord(ui: TrajectoryPage, text: string, last: string, typed: string): Promise<void> {
  await ui.page.locator('[data-testid="document-editor"] .cm-line', { hasText: text }).click();
  await ui.page.keyboard.press('End');
  for (let i = 0; i < last.length; i++) await ui.page.keyboard.press('Backspace');
  await ui.page.keyboard.type(typed);
}

/** A text's lines, blank ones dropped: the editor's rendered text shows an empty line as one more break. */
const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '').join('\n');

async function documentOnServer(ui: TrajectoryPage, threadId: string): Promise<string> {
  return (await ui.liveWorkspace(threadId)).document.content;
}

test.describe('versioned document saves', () => {
  async function twoTabs(
    page: Page,
    newPage: (options?: BrowserContextOptions) => Promise<{ page: Page }>,
    name: string,
  ): Promise<{ a: TrajectoryPage; b: TrajectoryPage; threadId: string }> {
    const a = new TrajectoryPage(page);
    await new AuthPage(page).signUp(uniqueEmail(name), 'correct horse battery');
    const threadId = await a.newConversation();
    await a.send(DOC);
    await a.waitForReplies(1);
    await expect.poll(() => a.documentText()).toContain('Hives need shade.');
    // The second tab: the same person (the same session cookie), the same path.
    const second = await newPage({ storageState: await page.context().storageState() });
    const b = new TrajectoryPage(second.page);
    await b.page.goto(`/c/${threadId}`);
    await b.waitForReplies(1);
    await expect.poll(() => b.documentText()).toContain('Hives need shade.');
    return { a, b, threadId };
  }

  test('two tabs edit different lines of the same document: both edits are kept', async ({
    page,
    newPage,
  }) => {
    const { a, b, threadId } = await twoTabs(page, newPage, 'versions-merge');
    const hold = await holdDocumentSaves(b.page);
    await typeAfter(b, 'Hives need shade.', ' Tab B was here.');
    await hold.held; // B's save left the editor and waits, on the version both tabs loaded.

    await typeAfter(a, 'Bees like gardens.', ' Tab A was here.');
    await expect.poll(() => documentOnServer(a, threadId)).toContain('Tab A was here.');

    hold.release();
    await expect.poll(() => documentOnServer(a, threadId)).toContain('Tab B was here.');
    const stored = await documentOnServer(a, threadId);
    expect(stored).toContain('Bees like gardens. Tab A was here.');
    expect(stored).toContain('Hives need shade. Tab B was here.');
    // B's editor took the merged text (A's edit arrived with B's save); no merge view was needed.
    await expect.poll(() => b.documentText()).toContain('Tab A was here.');
    expect(await b.byTestId('document-conflict').count()).toBe(0);
    // A reload of A shows both as well.
    await a.page.reload();
    await a.waitForReplies(1);
    await expect.poll(() => a.documentText()).toContain('Tab B was here.');
    expect(await a.documentText()).toContain('Tab A was here.');
  });

  test('two tabs rewrite the same word: both texts are kept in both tabs, no dialog; a stale REST save of those words is a 409', async ({
    page,
    newPage,
  }) => {
    const { a, b, threadId } = await twoTabs(page, newPage, 'versions-conflict');
    const before = await a.liveWorkspace(threadId);
    const hold = await holdDocumentSaves(b.page);
    await replaceLastWord(b, 'Bees like gardens.', 'gardens.', 'meadows.');
    await hold.held;

    await replaceLastWord(a, 'Bees like gardens.', 'gardens.', 'orchards.');
    await expect.poll(() => documentOnServer(a, threadId)).toContain('Bees like orchards.');

    hold.release();
    await expect.poll(() => documentOnServer(a, threadId)).toContain('meadows.');
    const stored = await documentOnServer(a, threadId);
    expect(stored).toContain('orchards.');
    expect(stored).not.toContain('gardens.');
    // Both tabs end on the server's text; neither shows a merge view.
    await expect.poll(async () => lines(await a.documentText())).toBe(lines(stored));
    await expect.poll(async () => lines(await b.documentText())).toBe(lines(stored));
    expect(await a.byTestId('document-conflict').count()).toBe(0);
    expect(await b.byTestId('document-conflict').count()).toBe(0);

    // A REST client that saves a whole text on the version both tabs loaded gets the 409 and the current text.
    const stale = await writeFromPage(page, 'PATCH', `/api/conversations/${threadId}/workspace`, {
      document: {
        content: before.document.content.replace('gardens.', 'fields.'),
        base_version: before.document.version,
      },
    });
    expect(stale.status()).toBe(409);
    expect(((await stale.json()) as { error: { code: string } }).error.code).toBe('conflict');
    expect(await documentOnServer(a, threadId)).toBe(stored);
  });

  test('two tabs conflicting in two sections: both texts are kept in both tabs, and the sentence only one tab changed stays as it wrote it', async ({
    page,
    newPage,
  }) => {
    const { a, b, threadId } = await twoTabs(page, newPage, 'versions-hunks');
    const hold = await holdDocumentSaves(b.page);
    await replaceLastWord(b, 'Bees like gardens.', 'gardens.', 'meadows.');
    await hold.held;
    // A rewrites the same words and, in another section, a sentence B left alone.
    await replaceLastWord(a, 'Bees like gardens.', 'gardens.', 'orchards.');
    await replaceLastWord(a, 'Hives need shade.', 'shade.', 'sun.');
    await expect.poll(() => documentOnServer(a, threadId)).toContain('Hives need sun.');
    expect(await documentOnServer(a, threadId)).toContain('Bees like orchards.');

    hold.release();
    // B's stale push is rebased over A's two edits: B's word joins A's, A's other sentence is not reverted.
    await expect.poll(() => documentOnServer(a, threadId)).toContain('meadows.');
    const stored = await documentOnServer(a, threadId);
    expect(stored).toContain('orchards.');
    expect(stored).toContain('Hives need sun.');
    expect(stored).not.toContain('shade.');
    expect(stored).not.toContain('gardens.');
    await expect.poll(async () => lines(await a.documentText())).toBe(lines(stored));
    await expect.poll(async () => lines(await b.documentText())).toBe(lines(stored));
    expect(await a.byTestId('document-conflict').count()).toBe(0);
    expect(await b.byTestId('document-conflict').count()).toBe(0);
  });

  test('the person types while the agent appends: both are kept', async ({ page }) => {
    const ui = new TrajectoryPage(page);
    await new AuthPage(page).signUp(uniqueEmail('versions-append'), 'correct horse battery');
    const threadId = await ui.newConversation();
    await ui.send(DOC);
    await ui.waitForReplies(1);
    await expect.poll(() => ui.documentText()).toContain('Hives need shade.');

    // The person's save is under way (held) while the agent's turn appends a section.
    const hold = await holdDocumentSaves(page);
    await typeAfter(ui, 'Bees like gardens.', ' Typed by the person.');
    await hold.held;
    const turn = await writeFromPage(page, 'POST', `/api/conversations/${threadId}/messages`, {
      content: ['append: ## Outlook', 'Appended by the agent.'].join('\n'),
    });
    expect(turn.status()).toBe(200);
    await turn.body(); // the whole turn streamed: the append is stored
    expect(await documentOnServer(ui, threadId)).toContain('Appended by the agent.');

    hold.release();
    await expect.poll(() => documentOnServer(ui, threadId)).toContain('Typed by the person.');
    const stored = await documentOnServer(ui, threadId);
    expect(stored).toContain('Bees like gardens. Typed by the person.');
    expect(stored).toContain('## Outlook\nAppended by the agent.');
    await expect.poll(() => ui.documentText()).toContain('Appended by the agent.');
    expect(await ui.documentText()).toContain('Typed by the person.');
    expect(await ui.byTestId('document-conflict').count()).toBe(0);
  });
});
