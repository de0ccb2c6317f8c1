/**
 * What a person sees, in Chromium: a reload keeps the draft typed in the composer; after "Continue
 * from here" the caret is in the composer; the compare page has the app's header with the way back.
 * axe on each page.
 */
import { AuthPage } from './pages/auth-page';
import { TrajectoryPage } from './pages/trajectory-page';
import { uniqueEmail } from './support/browser';
import { expect, test } from './support/test';

const PASSWORD = 'correct horse battery';

test.describe('what a person sees', () => {
  test('a reload keeps the draft; Continue from here puts the caret in the composer; the compare page has the header', async ({
    page,
    axe,
  }) => {
    const ui = new TrajectoryPage(page);
    await new AuthPage(page).signUp(uniqueEmail('sees'), PASSWORD);
    const threadId = await ui.newConversation();
    await ui.send('todo: Sow basil');
    await ui.waitForReplies(1);
    await ui.send('todo: Water the basil');
    await ui.waitForReplies(2);

    // A draft survives a reload of its path.
    const composer = ui.byTestId('chat-input');
    await composer.fill('A thought I have not sent yet');
    await expect.poll(async () => page.evaluate(() => Object.keys(localStorage).some((k) => (localStorage.getItem(k) ?? '').includes('A thought I have not sent yet')))).toBe(true);
    await page.reload();
    await ui.waitForReplies(2);
    await expect(composer).toHaveValue('A thought I have not sent yet');
    await axe(page);
    await composer.fill('');

    // Continue from here (step 1's card): the step is restored and the caret is in the composer.
    await ui.restoreViaCard('1');
    await ui.waitForPreview('1', 1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('chat-input');
    await axe(page);

    // The compare page keeps the app's header, with the way back to the conversation.
    await page.goto(`/c/${threadId}/compare?a=${threadId}:1&b=${threadId}:2`);
    await expect(page.getByTestId('back-to-studio')).toBeVisible();
    await expect(page.getByRole('banner')).toContainText('Trellis');
    await axe(page);
  });
});
