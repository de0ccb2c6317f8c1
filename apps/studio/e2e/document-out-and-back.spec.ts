/**
 * In Chromium: the document itself out and back. Export → "Document (.docx)" downloads a
 * Word file a DOCX reader (mammoth) parses, with the document's headings; in the compare view's
 * apply dialog a section is placed after a chosen heading, then the apply is undone from the chat;
 * the compare of two versions that differ in one word marks only that word.
 */
import mammoth from 'mammoth';
import type { Page } from '@playwright/test';
import { test, expect } from './support/test';
import { AuthPage } from './pages/auth-page';
import { TrajectoryPage } from './pages/trajectory-page';
import { uniqueEmail } from './support/browser';
import { writeFromPage } from './support/same-origin';

const ROOT_DOC = [
  'doc: # Bees',
  '',
  '## Findings',
  'Bees like gardens.',
  '',
  '## Methods',
  'Counted hives.',
].join('\n');

async function signedIn(page: Page, name: string): Promise<TrajectoryPage> {
  const ui = new TrajectoryPage(page);
  await new AuthPage(page).signUp(uniqueEmail(name), 'correct horse battery');
  return ui;
}

async function liveDocument(ui: TrajectoryPage, threadId: string): Promise<string> {
  return (await ui.liveWorkspace(threadId)).document.content;
}

/** Every one of `parts` is in `text`, each after the one before. */
function inOrder(text: string, parts: readonly string[]): boolean {
  let at = -1;
  for (const part of parts) {
    const next = text.indexOf(part, at + 1);
    if (next < 0) return false;
    at = next;
  }
  return true;
}

test.describe('the document out and back', () => {
  test('Export → Document (.docx) downloads a Word file whose headings a DOCX reader finds', async ({
    page,
  }) => {
    const ui = await signedIn(page, 'docx');
    const threadId = await ui.newConversation();
    await ui.send([ROOT_DOC, '', 'A list:', '- *Rooftop* hives', '  - shaded ones'].join('\n'));
    await ui.waitForReplies(1);

    await ui.byTestId('export-toggle').click();
    const item = ui.byTestId('export-document-docx');
    expect(await item.textContent()).toBe('Document (.docx)');
    expect(await item.getAttribute('href')).toBe(
      `/api/conversations/${threadId}/export?format=docx&part=document`,
    );
    const [download] = await Promise.all([page.waitForEvent('download'), item.click()]);
    expect(download.suggestedFilename()).toMatch(/\.docx$/);
    const { value: html } = await mammoth.convertToHtml({ path: await download.path() });
    expect(html).toContain('<h1>Bees</h1>');
    expect(html).toContain('<h2>Findings</h2>');
    expect(html).toContain('<h2>Methods</h2>');
    expect(html).toContain('Bees like gardens.');
    expect(html).toContain('<em>Rooftop</em> hives');
    // The document only: no chat, no directive.
    expect(html).not.toContain('doc:');
  });

  test('a section applied after a chosen heading lands there, and Undo in the chat puts the document back', async ({
    page,
  }) => {
    const ui = await signedIn(page, 'place-undo');
    const root = await ui.newConversation();
    await ui.send(ROOT_DOC);
    await ui.waitForReplies(1);
    const before = await liveDocument(ui, root);
    // A branch at step 1 adds an Outlook section at its end (after Methods).
    const branch = await ui.branch(root, 1);
    const turn = await writeFromPage(page, 'POST', `/api/conversations/${branch}/messages`, {
      content: ['append: ## Outlook', 'More hives.'].join('\n'),
    });
    expect(turn.status()).toBe(200);
    await turn.body();
    expect(await liveDocument(ui, branch)).toMatch(/## Methods[\s\S]*## Outlook/);

    await page.goto(`/c/${root}/compare?a=${root}:1&b=${branch}:2`);
    await ui.byTestId('compare-document').locator('.cm-content').first().waitFor();
    await page.getByRole('checkbox', { name: 'Section Outlook', exact: true }).check();
    await ui.byTestId('apply-to-a').click();
    const dialog = ui.byTestId('apply-dialog');
    const place = dialog.locator('[data-testid="apply-place"][data-heading="Outlook"]');
    await place.selectOption({ label: 'After “Findings”' });
    // The dry run follows the choice: Outlook between Findings and Methods.
    await expect
      .poll(async () => {
        const preview = (await dialog.getByTestId('apply-preview-document').textContent()) ?? '';
        return inOrder(preview, ['## Findings', '## Outlook', '## Methods']);
      })
      .toBe(true);
    await dialog.getByTestId('apply-confirm').click();
    await page.waitForURL((url) => url.pathname === `/c/${root}`);

    const applied = await liveDocument(ui, root);
    expect(inOrder(applied, ['## Findings', '## Outlook', '## Methods'])).toBe(true);
    expect(applied).toContain('More hives.');
    await expect.poll(() => ui.documentText()).toContain('More hives.');

    // Undo, from the apply's line in the chat: a new step that puts the document back.
    const entry = page.locator('[data-testid="message-system"][data-kind="apply"]');
    await entry.getByTestId('apply-undo').click();
    await expect.poll(() => liveDocument(ui, root)).toBe(before);
    await expect.poll(() => ui.documentText()).not.toContain('More hives.');
    // The apply stays in history: step 2 is the apply, step 3 its undo.
    const graph = await ui.graph(root);
    expect(graph.nodes.filter((n) => n.thread_id === root)).toHaveLength(3);
  });

  test('the compare of two versions that differ in one word marks only that word', async ({ page }) => {
    const ui = await signedIn(page, 'one-word');
    const threadId = await ui.newConversation();
    const text = (word: string) =>
      [
        'doc: # Hives',
        '',
        `Bees like ${word} gardens near water.`,
        '',
        'Hives need shade.',
        '',
        'Count them weekly.',
      ].join('\n');
    await ui.send(text('sunny'));
    await ui.waitForReplies(1);
    await ui.send(text('quiet'));
    await ui.waitForReplies(2);

    await page.goto(`/c/${threadId}/compare?a=${threadId}:1&b=${threadId}:2`);
    const diff = ui.byTestId('compare-document');
    await diff.locator('.cm-content').first().waitFor();
    await diff.locator('.cm-changedText').first().waitFor();
    // At 1440 px the compare is side by side: A marks only "sunny", B only "quiet"; one changed line
    // a side, and the unchanged lines are not marked at all.
    const marks = (side: 'a' | 'b') =>
      diff
        .locator(`.cm-merge-${side} .cm-changedText`)
        .allTextContents()
        .then((texts) => texts.map((t) => t.trim()));
    expect(await marks('a')).toEqual(['sunny']);
    expect(await marks('b')).toEqual(['quiet']);
    for (const side of ['a', 'b']) {
      const changed = diff.locator(`.cm-merge-${side} .cm-changedLine`);
      expect(await changed.count()).toBe(1);
      expect(await changed.textContent()).toMatch(/^Bees like (sunny|quiet) gardens near water\.$/);
    }
  });
});
