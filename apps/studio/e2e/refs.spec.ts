/**
 * Another path in the conversation, in Chromium against a production build: a root path and a
 * sibling from its step 1 whose step 2 (labelled 2.1) wrote a Methods section. On the root, typing
 * `@` opens the picker of the family's other paths and steps (axe-clean while open); the sibling is
 * picked with the keyboard and becomes a chip; the message `append from 2.1: Methods` is sent. The
 * reply shows its read_path call and a citation link that opens step 2.1; the message keeps its
 * chip after a reload; the authorship overlay colours the copied section as the agent's, from 2.1.
 */
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect } from './support/test';
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';
import { uniqueEmail } from './support/browser';
import { DESKTOP_VIEWPORT } from './support/viewports';

const SCREENSHOTS = process.env.TRELLIS_SCREENSHOT_DIR;
const METHODS = 'Counted hives by drone at dawn.';

test.describe('bringing another path into the conversation', () => {
  test.describe.configure({ mode: 'serial' });
  let context: BrowserContext;
  let page: Page;
  let ui: StudioPage;
  let root = '';
  let sibling = '';

  test.beforeAll(async ({ browser, studio }) => {
    context = await browser.newContext({ baseURL: studio.baseUrl, viewport: DESKTOP_VIEWPORT });
    page = await context.newPage();
    ui = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('refs'), 'correct horse battery');
    root = await ui.newConversation();
    await ui.send(['doc: # Bees', '', '## Findings', 'Bees like gardens.'].join('\n'));
    await ui.waitForReplies(1);
    await ui.send('append: More gardens.');
    await ui.waitForReplies(2);
    sibling = await ui.branch(root, 1);
    await page.goto(`/c/${sibling}`);
    await ui.waitForReplies(1);
    await ui.send(['doc: # Bees', '', '## Findings', 'Bees like rooftops.', '', '## Methods', METHODS].join('\n'));
    await ui.waitForReplies(2);
    await page.goto(`/c/${root}`);
    await ui.waitForReplies(2);
  });

  test.afterAll(async () => {
    await context.close();
  });

  test('`@` opens the picker; the sibling is picked by keyboard and sent as a ref; the reply reads it and cites it', async ({ axe }) => {
    const input = ui.byTestId('chat-input');
    await input.click();
    await page.keyboard.type('@');
    const picker = ui.byTestId('path-picker');
    await picker.waitFor();
    const options = picker.getByTestId('path-picker-option');
    await expect(options).toHaveCount(1);
    await expect(options.first()).toHaveAttribute('data-node', `${sibling}:2`);
    await expect(options.first()).toContainText('2.1');
    await expect(input).toHaveAttribute('aria-activedescendant', 'path-picker-option-0');
    await axe(page);
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, 'studio-refs-picker.png') });

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(picker).toHaveCount(0);
    await expect(ui.byTestId('composer-ref')).toHaveAttribute('data-node', `${sibling}:2`);
    expect(await input.inputValue()).toBe('');
    await page.keyboard.type('append from 2.1: Methods');
    await page.keyboard.press('Enter');
    await ui.waitForReplies(3);

    const reply = page.locator('[data-testid="message-assistant"][data-turn="3"]');
    await expect(reply.locator('[data-testid="tool-chip"][data-tool="read_path"]')).toHaveCount(1);
    await expect(reply.locator('[data-testid="tool-chip"][data-tool="write_document"]')).toHaveCount(1);
    await expect(reply.getByTestId('message-content')).toContainText('I read 2.1');
    const citation = reply.getByTestId('citation-link');
    await expect(citation).toHaveText('2.1');
    const question = page.locator('[data-testid="message-user"][data-turn="3"]');
    await expect(question.getByTestId('message-ref')).toHaveText('2.1');
    await expect.poll(() => ui.documentText()).toContain(METHODS);
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, 'studio-refs-cited.png') });

    // The chip is part of the message: it is there after a reload.
    await page.reload();
    await ui.waitForReplies(3);
    await expect(page.locator('[data-testid="message-user"][data-turn="3"]').getByTestId('message-ref')).toHaveText('2.1');
    // The read's details name the step by its label, never by the other path's thread id.
    const readChip = page.locator('[data-testid="message-assistant"][data-turn="3"] [data-testid="tool-chip"][data-tool="read_path"]');
    await readChip.click();
    // (The result below them is what the model read, as it read it.)
    const args = page.locator('[data-testid="message-assistant"][data-turn="3"]').getByTestId('tool-args').first();
    await expect(args).toContainText('"step": "2.1"');
    await expect(args).not.toContainText(sibling);
  });

  test('the authorship overlay colours the copied section as the agent’s, from 2.1', async () => {
    await ui.byTestId('document-authorship-toggle').click();
    await page.locator('[data-testid="authorship-overlay"][data-state="ready"]').waitFor();
    await ui.byTestId('document-preview-toggle').click();
    const preview = ui.byTestId('authorship-preview');
    await preview.waitFor();
    const cited = preview.locator('[data-author="cited"]');
    await expect(cited.filter({ hasText: METHODS })).toHaveCount(1);
    expect(await cited.filter({ hasText: METHODS }).getAttribute('title')).toMatch(/^Agent, from 2\.1 · step 3/);
    await expect(ui.byTestId('authorship-legend-cited')).toBeVisible();
    await ui.byTestId('document-preview-toggle').click();
    await ui.byTestId('document-authorship-toggle').click();
  });

  test('the citation link opens step 2.1', async () => {
    await page.locator('[data-testid="message-assistant"][data-turn="3"]').getByTestId('citation-link').click();
    await page.locator('[data-testid="preview-banner"][data-step-label="2.1"]').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/c/${sibling}`);
  });
});
