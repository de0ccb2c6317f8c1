/**
 * The authorship overlay in Chromium against a production build: a document written by
 * both sides — the person types a sentence, the offline model appends two, the person edits the
 * agent's last sentence and adds a paragraph of their own — shows three colours with a legend in the
 * editor and in Preview; hovering a span names its step (and, for the agent, the tool call); the
 * authorship report counts what the legend counts; the step's detail says what each side wrote there;
 * a restored step shows its own authors; axe-core finds no serious violation with the overlay on.
 */
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect } from './support/test';
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';
import { uniqueEmail } from './support/browser';
import { DESKTOP_VIEWPORT } from './support/viewports';

/** Where screenshots for the docs go when asked (TRELLIS_SCREENSHOT_DIR), as in import.spec.ts. */
const SCREENSHOTS = process.env.TRELLIS_SCREENSHOT_DIR;

test.describe('the authorship overlay', () => {
  test.describe.configure({ mode: 'serial' });
  let context: BrowserContext;
  let page: Page;
  let ui: StudioPage;
  let thread = '';

  const editor = () => page.locator('[data-testid="document-editor"] .cm-content');
  const marks = (author: string) => editor().locator(`[data-author="${author}"]`);

  /** Types at the end of the document and waits until the text is saved. */
  async function typeAtEnd(keys: { backspace?: number; text: string }): Promise<void> {
    await editor().click();
    await page.keyboard.press('Control+End');
    for (let i = 0; i < (keys.backspace ?? 0); i++) await page.keyboard.press('Backspace');
    await page.keyboard.type(keys.text);
    await page.locator('[data-testid="document-save-state"][data-state="saved"]').waitFor();
    await ui.waitForSaved();
  }

  test.beforeAll(async ({ browser, studio }) => {
    context = await browser.newContext({ baseURL: studio.baseUrl, viewport: DESKTOP_VIEWPORT });
    page = await context.newPage();
    ui = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('authorship'), 'correct horse battery');
    thread = await ui.newConversation();
    // Step 0: the person's sentence. Step 1: the agent appends two sentences (write_document), then
    // the person edits the agent's last sentence and, in a second save, adds a paragraph.
    await typeAtEnd({ text: 'I wrote this opening.' });
    await ui.send('append: The agent wrote this part. And this too.');
    await ui.waitForReplies(1);
    await expect.poll(() => ui.documentText()).toContain('And this too.');
    await typeAtEnd({ backspace: 1, text: ' indeed.' });
    await typeAtEnd({ text: '\n\nMy closing line.' });
    const text = await ui.documentText();
    expect(text).toMatch(
      /^I wrote this opening\.\s+The agent wrote this part\. And this too indeed\.\s+My closing line\.$/,
    );
  });

  test.afterAll(async () => {
    await context.close();
  });

  test('colours the text of both sides in three shades with a legend, and the hover names the step', async ({
    axe,
  }) => {
    await ui.byTestId('document-authorship-toggle').click();
    await page.locator('[data-testid="authorship-overlay"][data-state="ready"]').waitFor();
    // The overlay refetches after the last save; wait for the edited unit's shade.
    await marks('agent_edited').first().waitFor();
    // (A span may render as several marks: one per line, or per save while typing.)
    const textOf = async (author: string) => (await marks(author).allTextContents()).join('|');
    // The person's marks hold their two passages and nothing else (the live editor may save one sentence in two pushes).
    expect((await textOf('person')).replaceAll('|', '')).toMatch(/^I wrote this opening\.\s*My closing line\.$/);
    expect((await textOf('agent')).replaceAll('|', '')).toBe('The agent wrote this part. ');
    expect((await textOf('agent_edited')).replaceAll('|', '')).toBe('And this too indeed.');

    // Three distinct fills, each shown in the legend.
    const fill = (author: string) =>
      marks(author)
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor);
    const fills = new Set([await fill('person'), await fill('agent'), await fill('agent_edited')]);
    expect(fills.size).toBe(3);
    const legend = ui.byTestId('authorship-legend');
    for (const kind of ['person', 'agent', 'agent_edited'])
      await expect(legend.getByTestId(`authorship-legend-${kind}`)).toBeVisible();

    // Hovering the agent's sentence names its step, when, and the tool call; the person's, its step.
    await marks('agent').filter({ hasText: 'The agent wrote' }).hover();
    const tooltip = ui.byTestId('authorship-tooltip');
    await expect(tooltip).toHaveText(/^Agent · step 1 · .+ · tool call write_document$/);
    if (SCREENSHOTS) {
      const box = (await ui.byTestId('document-section').boundingBox())!;
      await page.screenshot({
        path: path.join(SCREENSHOTS, 'studio-authorship-overlay.png'),
        clip: { x: box.x - 8, y: box.y - 8, width: box.width + 16, height: Math.min(box.height, 420) + 16 },
      });
    }
    await axe(page, '[data-testid="document-section"]');
    await marks('person').first().hover();
    await expect(tooltip).toHaveText(/^You · step 0 · /);
    await marks('agent_edited').first().hover();
    await expect(tooltip).toHaveText(/^Agent, edited by you · step 1 · /);
  });

  test('the authorship report counts what the legend counts', async () => {
    const words = async (kind: string) => {
      const text = (await ui.byTestId(`authorship-legend-${kind}`).textContent()) ?? '';
      return Number(/· (\d+) words/.exec(text)?.[1]);
    };
    // Hand-computed: person "I wrote this opening" + "My closing line" (7), agent "The agent wrote this
    // part" (5), agent_edited "And this too indeed" (4).
    expect([await words('person'), await words('agent'), await words('agent_edited')]).toEqual([7, 5, 4]);
    const response = await page.request.get(`/api/conversations/${thread}/export?format=authorship`);
    expect(response.status()).toBe(200);
    const report = await response.text();
    const row = (label: string) => Number(new RegExp(`^\\| ${label} \\| (\\d+)`, 'm').exec(report)?.[1]);
    expect([row('Person'), row('Agent'), row('Agent, edited by the person')]).toEqual([7, 5, 4]);
  });

  test('Preview shows the same shades, each span titled with its step; axe-clean with the overlay on', async ({
    axe,
  }) => {
    await ui.byTestId('document-preview-toggle').click();
    const preview = ui.byTestId('authorship-preview');
    await preview.waitFor();
    const person = preview.locator('[data-author="person"]').first();
    expect(await person.textContent()).toContain('I wrote');
    expect(await person.getAttribute('title')).toMatch(/^You · step 0 · /);
    const agent = preview.locator('[data-author="agent"]').filter({ hasText: 'The agent wrote' });
    expect(await agent.getAttribute('title')).toMatch(/^Agent · step 1 · .+ · tool call write_document$/);
    expect(await preview.locator('[data-author="agent_edited"]').count()).toBeGreaterThan(0);
    await axe(page, '[data-testid="document-section"]');
    await ui.byTestId('document-preview-toggle').click();
  });

  test('the step’s detail says what each side wrote there and changed', async () => {
    await ui
      .byTestId('trajectory-panel')
      .locator(`[data-testid="trajectory-node"][data-node-id="${thread}:1"]`)
      .click();
    const detail = ui.byTestId('trajectory-detail');
    // Step 1: the person's closing line (3), the agent's first sentence (5), the agent's unit the person edited (4).
    await expect(detail.getByTestId('step-authors')).toHaveText(
      'you +3 words · agent +5 words · agent’s, edited by you: 4 words',
    );
  });

  test('on a restored step the overlay shows that step’s authors, and the hover names the step', async () => {
    await ui.send('append: A later paragraph.');
    await ui.waitForReplies(2);
    await page.goto(`/c/${thread}?step=1`);
    await page.locator('[data-testid="preview-banner"][data-step-label="1"]').waitFor();
    const toggle = ui.byTestId('document-authorship-toggle');
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
    await page.locator('[data-testid="authorship-overlay"][data-state="ready"]').waitFor();
    await marks('agent_edited').first().waitFor();
    // The document after step 1: step 2's paragraph is not there.
    const agentText = (await marks('agent').allTextContents()).join('');
    expect(agentText).toBe('The agent wrote this part. ');
    await marks('agent').first().hover();
    await expect(ui.byTestId('authorship-tooltip')).toHaveText(
      /^Agent · step 1 · .+ · tool call write_document$/,
    );
  });
});
