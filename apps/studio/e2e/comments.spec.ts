/**
 * Comments in Chromium, two accounts in two browser contexts: the owner selects a sentence and
 * comments on it (the passage is highlighted in the editor); a commenter replies from their own tab
 * and the owner sees the reply without a reload; the agent rewrites the paragraph around the
 * sentence and the highlight follows the sentence; resolving takes it out of "Open". axe with the
 * list open.
 */
import type { Page } from '@playwright/test';
import { AuthPage } from './pages/auth-page';
import { MembersPage } from './pages/members-page';
import { StudioPage } from './pages/studio-page';
import { uniqueEmail } from './support/browser';
import { expect, test } from './support/test';

const PASSWORD = 'correct horse battery';
const SENTENCE = 'Bees dance to tell where food is.';

test.describe('comments', () => {
  // Two accounts, two contexts and a turn of the agent: more than the default budget on a busy machine.
  test.describe.configure({ timeout: 300_000 });

  test('comment on a sentence, a commenter replies live, the highlight follows an agent rewrite, resolve hides it', async ({
    page,
    newPage,
    axe,
  }) => {
    const owner = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('cora'), PASSWORD, 'Cora');
    const threadId = await owner.newConversation();
    await owner.send(['doc: # Field notes', '', `Hives hum in June. ${SENTENCE} Nobody taught them.`].join('\n'));
    await owner.waitForReplies(1);

    // Select the sentence in the editor and comment on it with the keyboard.
    const line = page.locator('[data-testid="document-editor"] .cm-line', { hasText: SENTENCE });
    await line.waitFor();
    await selectText(page, SENTENCE);
    await page.keyboard.press('Control+Alt+m');
    const composer = page.getByTestId('comment-composer');
    await expect(composer.getByTestId('comment-quote')).toHaveText(SENTENCE);
    await composer.getByTestId('comment-body').fill('Which study says so?');
    await composer.getByTestId('comment-submit').click();
    const thread = page.getByTestId('comment').filter({ hasText: 'Which study says so?' });
    await expect(thread.getByTestId('comment-anchor')).toHaveText(`“${SENTENCE}”`);
    const highlight = page.locator('[data-testid="document-editor"] [data-testid="comment-highlight"]');
    await expect(highlight).toHaveText(SENTENCE);

    // A commenter joins from an invitation and replies in their own tab.
    const members = new MembersPage(page);
    await members.open();
    const link = await members.invite('commenter');
    await members.close();
    const { page: second } = await newPage();
    await new MembersPage(second).signUpAndJoin(link, uniqueEmail('dev'), PASSWORD, 'Dev');
    await expect(second).toHaveURL(new RegExp(`/c/${threadId}$`));
    const theirThread = second.getByTestId('comment').filter({ hasText: 'Which study says so?' });
    await theirThread.getByTestId('comment-reply-input').fill('The waggle dance papers, @Cora');
    await theirThread.getByTestId('comment-reply-input').press('Enter');
    await expect(theirThread.getByTestId('comment-reply')).toContainText('The waggle dance papers');

    // The owner's open tab shows the reply without a reload (the family's comment event).
    await expect(thread.getByTestId('comment-reply')).toContainText('The waggle dance papers', { timeout: 15_000 });
    await expect(thread.getByTestId('comment-reply')).toContainText('Dev');
    await axe(page, '[data-testid="comments-section"]');

    // The agent rewrites the paragraph around the sentence: the highlight stays on the sentence.
    await owner.send(['doc: # Field notes', '', `In early June the hives hum loudly. ${SENTENCE} Nobody taught them this.`].join('\n'));
    await owner.waitForReplies(2);
    await expect(page.locator('[data-testid="document-editor"] .cm-line', { hasText: 'In early June' })).toBeVisible();
    await expect(highlight).toHaveText(SENTENCE);
    await expect(thread.getByTestId('comment-anchor')).toHaveText(`“${SENTENCE}”`);

    // Resolving takes it out of "Open" (and the highlight with it); "Resolved" lists it.
    await thread.getByTestId('comment-resolve').click();
    await expect(page.getByTestId('comment')).toHaveCount(0);
    await expect(page.getByTestId('comments-empty')).toBeVisible();
    await expect(highlight).toHaveCount(0);
    await page.getByTestId('comments-filter-resolved').click();
    await expect(page.getByTestId('comment').filter({ hasText: 'Which study says so?' })).toHaveAttribute('data-resolved', 'true');
  });
});

/** Selects `text` inside the document editor (CodeMirror's own selection, as a drag would). */
async function selectText(page: Page, text: string): Promise<void> {
  const content = page.locator('[data-testid="document-editor"] .cm-content');
  await content.click();
  await content.evaluate((element, wanted) => {
    // CodeMirror keeps its view on the content element's tile (what EditorView.findFromDOM reads).
    type View = { state: { doc: { toString(): string } }; dispatch(spec: unknown): void; focus(): void };
    const tile = (element as unknown as { cmTile?: { root?: { view?: View } } }).cmTile;
    const view = tile?.root?.view;
    if (!view) throw new Error('no editor view on .cm-content');
    const at = view.state.doc.toString().indexOf(wanted);
    if (at < 0) throw new Error(`"${wanted}" is not in the document`);
    view.dispatch({ selection: { anchor: at, head: at + wanted.length } });
    view.focus();
  }, text);
}
