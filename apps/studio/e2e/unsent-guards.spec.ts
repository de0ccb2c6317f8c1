/**
 * Unsent text is never lost without asking (lib/unsent-text.ts): an edited message and a draft in a
 * restored view, like a restored step's edited workspace (trajectory.spec.ts), hold every way out
 * until the user answers "Keep editing" or "Discard"; a reload gets the browser's own prompt.
 * Chromium against a production build; the steps build on each other on one page.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { ConversationSchema } from '@trellis/domain';
import { test, expect } from './support/test';
import { AuthPage } from './pages/auth-page';
import { SiblingsPage } from './pages/siblings-page';
import { uniqueEmail } from './support/browser';
import { DESKTOP_VIEWPORT } from './support/viewports';

test.describe('unsent text asks before it is lost', () => {
  test.describe.configure({ mode: 'serial' });
  let context: BrowserContext;
  let page: Page;
  let chat: SiblingsPage;
  let threadId = '';

  const dialog = () => chat.byTestId('confirm-dialog');
  const step = () => new URL(page.url()).searchParams.get('step');
  const checkpoint = (turn: number) =>
    page.locator(`[data-testid="checkpoint-divider"][data-turn="${turn}"]`);

  test.beforeAll(async ({ browser, studio }) => {
    context = await browser.newContext({ baseURL: studio.baseUrl, viewport: DESKTOP_VIEWPORT });
    page = await context.newPage();
    chat = new SiblingsPage(page);
    await new AuthPage(page).signUp(uniqueEmail('unsent'), 'correct horse battery');
    threadId = await chat.newConversation();
    for (const [turn, text] of ['todo: Plan the garden', 'todo: Buy tomato seeds'].entries()) {
      await chat.send(text);
      await chat.waitForStep(turn + 1, text);
    }
  });

  test.afterAll(async () => {
    await context.close();
  });

  test('an edited message: a checkpoint asks first; "Keep editing" keeps the text and the cursor, "Discard" restores the step', async ({
    axe,
  }) => {
    const box = await chat.openEditor(2);
    await box.fill('todo: Buy basil seeds');

    await checkpoint(1).click();
    await dialog().waitFor();
    await expect(dialog()).toContainText('your edit of a message');
    await expect(dialog().getByTestId('confirm-cancel')).toHaveText('Keep editing');
    await expect(dialog().getByTestId('confirm-accept')).toHaveText('Discard');
    await axe(page, '[data-testid="confirm-dialog"]');

    // Keep editing: nothing moved, the text and the cursor are back in the editor.
    await dialog().getByTestId('confirm-cancel').click();
    await dialog().waitFor({ state: 'detached' });
    expect(step()).toBeNull();
    expect(await box.inputValue()).toBe('todo: Buy basil seeds');
    await expect.poll(() => chat.hasFocus(box)).toBe(true);

    // Escape is "Keep editing" too; the dialog is answered from the keyboard alone.
    await checkpoint(1).click();
    await dialog().waitFor();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(await box.inputValue()).toBe('todo: Buy basil seeds');

    await checkpoint(1).click();
    await dialog().waitFor();
    await expect.poll(() => chat.hasFocus(dialog().getByTestId('confirm-cancel'))).toBe(true);
    await page.keyboard.press('Tab');
    await expect.poll(() => chat.hasFocus(dialog().getByTestId('confirm-accept'))).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('step') === '1');
    await chat.byTestId('preview-banner').waitFor();
    expect(await chat.byTestId('edit-box').count()).toBe(0);
    // Nothing was sent: the path still has its two turns, unedited.
    const path = ConversationSchema.parse(
      await (await page.request.get(`/api/conversations/${threadId}`)).json(),
    );
    expect(path.turn_index).toBe(2);
  });

  test('a draft in a restored view: leaving it asks; "Discard" empties it; a reload gets the browser’s prompt', async () => {
    const input = chat.byTestId('chat-input');
    await input.fill('Start again from here');

    await chat.byTestId('preview-back').click();
    await dialog().waitFor();
    await expect(dialog()).toContainText('your message to the restored step');
    await dialog().getByTestId('confirm-cancel').click();
    await dialog().waitFor({ state: 'detached' });
    expect(step()).toBe('1');
    expect(await input.inputValue()).toBe('Start again from here');
    await expect.poll(() => chat.hasFocus(input)).toBe(true);

    // A reload or a closed tab: the browser asks (dismissed here, so the page stays).
    const prompts: string[] = [];
    page.once('dialog', (prompt) => {
      prompts.push(prompt.type());
      void prompt.dismiss();
    });
    await page.reload({ timeout: 3_000 }).catch(() => undefined);
    expect(prompts).toEqual(['beforeunload']);
    expect(await input.inputValue()).toBe('Start again from here');

    await chat.byTestId('preview-back').click();
    await dialog().waitFor();
    await dialog().getByTestId('confirm-accept').click();
    await page.waitForURL((url) => !url.searchParams.has('step'));
    await chat.waitForReplies(2);
    expect(await input.inputValue()).toBe('');

    // The same step restored again starts with an empty draft, and an unedited view leaves silently.
    await checkpoint(1).click();
    await page.waitForURL((url) => url.searchParams.get('step') === '1');
    await chat.byTestId('preview-banner').waitFor();
    expect(await input.inputValue()).toBe('');
    await chat.byTestId('preview-back').click();
    await page.waitForURL((url) => !url.searchParams.has('step'));
    expect(await dialog().count()).toBe(0);
  });

  test('a live draft is kept per thread and leaves without asking', async () => {
    const input = chat.byTestId('chat-input');
    await input.fill('A question for later');
    await checkpoint(1).click();
    await page.waitForURL((url) => url.searchParams.get('step') === '1');
    expect(await dialog().count()).toBe(0);
    await chat.byTestId('preview-back').click();
    await page.waitForURL((url) => !url.searchParams.has('step'));
    expect(await input.inputValue()).toBe('A question for later');
  });

  test('an edited message: switching to another version of a step asks first', async () => {
    // Step 2 gets a sibling (an edit sent), so its message shows ‹ 2/2 ›.
    await chat.byTestId('chat-input').fill('');
    const sibling = await chat.edit(2, 'todo: Buy basil seeds');
    await chat.waitForStep(2, 'todo: Buy basil seeds');
    await chat.waitForPosition(2, '2/2', 'message');

    const box = await chat.openEditor(1);
    await box.fill('todo: Plan the balcony');
    await chat.prev(2, 'message').click();
    await dialog().waitFor();
    await expect(dialog()).toContainText('your edit of a message');
    await dialog().getByTestId('confirm-cancel').click();
    await dialog().waitFor({ state: 'detached' });
    expect(chat.threadId()).toBe(sibling);
    expect(await box.inputValue()).toBe('todo: Plan the balcony');

    await chat.prev(2, 'message').click();
    await dialog().getByTestId('confirm-accept').click();
    await chat.waitForThread(threadId);
    await chat.waitForPosition(2, '1/2', 'message');
    expect(await chat.byTestId('edit-box').count()).toBe(0);
  });
});
