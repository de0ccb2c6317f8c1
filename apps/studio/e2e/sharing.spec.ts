/**
 * Share links in Chromium against a production build: the owner shares a step, a reader with no
 * session opens the link, reads the path up to that step with the authorship colours and replays
 * it; signing in from the link comes back to it, "Continue in my account" makes the reader's own
 * family, where they write on; the original stays as it was. A revoked link says it no longer works.
 */
import path from 'node:path';
import { test, expect } from './support/test';
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';
import { uniqueEmail } from './support/browser';

const PASSWORD = 'correct horse battery';
const SCREENSHOT_DIR = process.env.TRELLIS_SCREENSHOT_DIR;

test.describe('sharing a path', () => {
  // Two accounts, three pages and a copy: more than the default budget on a busy machine.
  test.describe.configure({ timeout: 300_000 });

  test('a reader without an account reads a shared step with its authorship and replay, then continues it in their own account', async ({
    page,
    newPage,
    axe,
    studio,
  }) => {
    const ui = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('share-owner'), PASSWORD);
    const root = await ui.newConversation();
    await ui.send('doc: # Field notes\n\nThe agent wrote this opening.');
    await ui.waitForReplies(1);
    await ui.send('append: A second paragraph by the agent.');
    await ui.waitForReplies(2);

    await ui.byTestId('share-open').click();
    await ui.byTestId('share-create').click();
    const url = await ui.byTestId('share-url').inputValue();
    expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
    await expect(ui.byTestId('share-row')).toHaveCount(1);
    await axe(page, '[data-testid="share-dialog"]');
    await page.keyboard.press('Escape');
    await ui.send('append: Written after sharing.');
    await ui.waitForReplies(3);

    const { page: reader } = await newPage({ baseURL: studio.baseUrl });
    const response = await reader.goto(url);
    expect(response?.headers()['x-robots-tag']).toContain('noindex');
    expect(response?.headers()['referrer-policy']).toBe('no-referrer');
    await expect(reader.getByTestId('shared-newer-steps')).toContainText('1 newer step');
    const document = reader.getByTestId('authorship-preview');
    await expect(document).toContainText('A second paragraph by the agent.');
    await expect(document).not.toContainText('Written after sharing');
    await expect(document.locator('.authorship-agent').first()).toBeVisible();
    await expect(reader.getByTestId('message-user')).toHaveCount(2);
    await expect(reader.getByTestId('chat-input')).toHaveCount(0);
    await axe(reader);
    if (SCREENSHOT_DIR) await reader.screenshot({ path: path.join(SCREENSHOT_DIR, 'shared-path.png') });

    await reader.getByTestId('replay-open').click();
    await expect(reader.getByTestId('replay-change')).toHaveAttribute('data-seq', '1');
    await reader.getByTestId('replay-forward').click();
    await expect(reader.getByTestId('replay-change')).toHaveAttribute('data-seq', '2');
    const position = await reader.getByTestId('replay-position').textContent();
    expect(position).toMatch(/\b2 \/ \d+ · step 2/);
    await reader.getByTestId('replay-close').click();

    // Sign in from the link (here: create an account) and come back to it.
    await reader.getByTestId('shared-sign-in').click();
    await reader.getByRole('link', { name: 'Create an account' }).click();
    await reader.getByLabel('Name').fill('Reader');
    await reader.getByLabel('Email').fill(uniqueEmail('share-reader'));
    await reader.getByLabel('Password').fill(PASSWORD);
    await reader.getByRole('button', { name: 'Sign up' }).click();
    await reader.waitForURL((u) => u.pathname.startsWith('/s/'));
    await reader.getByTestId('shared-copy').click();
    await reader.waitForURL(/\/c\/th_[0-9a-f]{32}$/);
    const copy = new StudioPage(reader);
    expect(copy.threadId()).not.toBe(root);
    await expect(copy.userMessages).toHaveCount(2);
    await copy.send('append: The reader continues here.');
    await copy.waitForReplies(3);
    expect(await copy.documentText()).toContain('The reader continues here.');

    await page.reload();
    await ui.waitForReplies(3);
    expect(await ui.documentText()).not.toContain('The reader continues here.');
  });

  test('a revoked link answers 404 with a page that says it no longer works', async ({ page, newPage, axe, studio }) => {
    const ui = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('share-revoke'), PASSWORD);
    await ui.newConversation();
    await ui.send('doc: Something to share.');
    await ui.waitForReplies(1);
    await ui.byTestId('share-open').click();
    await ui.byTestId('share-scope-family').check();
    await ui.byTestId('share-create').click();
    const url = await ui.byTestId('share-url').inputValue();
    await ui.byTestId('share-revoke').click();
    await expect(ui.byTestId('share-list-empty')).toBeVisible();

    const { page: reader } = await newPage({ baseURL: studio.baseUrl });
    const response = await reader.goto(url);
    expect(response?.status()).toBe(404);
    await expect(reader.getByTestId('shared-gone')).toContainText('This link no longer works');
    await axe(reader);
  });
});
