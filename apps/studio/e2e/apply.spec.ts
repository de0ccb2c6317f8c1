/**
 * Applying items from one path onto another in Chromium against a production build. Two paths: the
 * root (a document with a Findings section, then a step that adds an Outlook section) and a branch at
 * step 1 that rewrites Findings and adds a preference; the branch locks its preferences. From the
 * compare view a section and a preference are ticked and applied onto the root: the dry run shows in
 * a dialog, the new step appears on the trajectory with a dashed provenance edge, the chat shows the
 * provenance line, and the step before it still restores the pre-apply workspace. Also: a lock on the
 * target refuses the apply and names the preference; the step detail's "Applied from" and "Bring into
 * the current path…"; no serious accessibility issue on the compare view with ticks nor in the dialog;
 * nothing overflows a phone.
 */
import { mkdir, mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect } from './support/test';
import { AuthPage } from './pages/auth-page';
import { TrajectoryPage } from './pages/trajectory-page';
import { uniqueEmail } from './support/browser';
import { DESKTOP_VIEWPORT, PHONE_VIEWPORT } from './support/viewports';

const SCREENSHOT_DIR = process.env.TRELLIS_SCREENSHOT_DIR;

const ROOT_DOC = ['doc: # Bees', '', '## Findings', 'Bees like gardens.', '', '## Methods', 'Counted hives.'];
const BRANCH_DOC = [
  'doc: # Bees',
  '',
  '## Findings',
  'Rooftop hives thrive in the shade.',
  '',
  '## Methods',
  'Counted hives.',
];

test.describe('applying items from one path onto another', () => {
  // The tests build on each other's steps, in this order, on one page.
  test.describe.configure({ mode: 'serial' });
  let context: BrowserContext;
  let page: Page;
  let ui: TrajectoryPage;
  let root = '';
  let branch = '';
  let shots = '';

  test.beforeAll(async ({ browser, studio }) => {
    context = await browser.newContext({ baseURL: studio.baseUrl, viewport: DESKTOP_VIEWPORT });
    page = await context.newPage();
    ui = new TrajectoryPage(page);
    await new AuthPage(page).signUp(uniqueEmail('apply'), 'correct horse battery');
    root = await ui.newConversation();
    await ui.send([...ROOT_DOC, 'prefer: Short paragraphs', 'todo: Research regulations'].join('\n'));
    await ui.waitForReplies(1);
    await ui.send(['append: ## Outlook', 'More hives.'].join('\n'));
    await ui.waitForReplies(2);
    branch = await ui.branch(root, 1);
    await page.goto(`/c/${branch}`);
    await ui.waitForReplies(1);
    await ui.send([...BRANCH_DOC, 'prefer: Cite sources'].join('\n'));
    await ui.waitForReplies(2);
    // Locked on the branch: "Cite sources" brings its lock along; "Short paragraphs" binds the branch.
    const workspace = await ui.liveWorkspace(branch);
    for (const preference of workspace.preferences) await ui.lockPreference(branch, preference.id);
    shots =
      SCREENSHOT_DIR === undefined
        ? await mkdtemp(path.join(tmpdir(), 'trellis-shots-'))
        : path.resolve(SCREENSHOT_DIR);
    await mkdir(shots, { recursive: true });
  });
  test.afterAll(async () => {
    await context?.close();
  });

  const deepLink = () => `/c/${root}/compare?a=${root}:2&b=${branch}:2`;
  const tick = (name: string) => page.getByRole('checkbox', { name, exact: true });
  const dialog = () => ui.byTestId('apply-dialog');

  async function openCompare(): Promise<void> {
    await page.goto(deepLink());
    await ui.byTestId('compare-document').locator('.cm-content').first().waitFor();
  }

  test('offers a checkbox per changed section and item, and "Apply to A" only once something is ticked', async ({
    axe,
  }) => {
    await openCompare();
    expect(await ui.byTestId('apply-to-a').isDisabled()).toBe(true);
    expect(await ui.byTestId('apply-to-b').isDisabled()).toBe(true);
    const sections = await ui.byTestId('apply-section').allTextContents();
    expect(sections.some((text) => text.includes('Findings'))).toBe(true);
    expect(sections.some((text) => text.includes('Outlook'))).toBe(true);
    // Equal on both sides: nothing to bring.
    expect(sections.some((text) => text.includes('Methods'))).toBe(false);
    // Keyboard operable: focus the checkbox, Space ticks it.
    await tick('Section Findings').focus();
    await page.keyboard.press('Space');
    expect(await tick('Section Findings').isChecked()).toBe(true);
    await tick('Preference Cite sources').check();
    expect(await ui.byTestId('apply-to-a').isDisabled()).toBe(false);
    // "Cite sources" is only on B: it cannot go onto B, so "Apply to B" brings one item.
    expect(await ui.byTestId('apply-to-a').textContent()).toContain('(2)');
    expect(await ui.byTestId('apply-to-b').textContent()).toContain('(1)');
    await axe(page);
    await page.screenshot({ path: path.join(shots, 'studio-apply-compare.png'), fullPage: true });
  });

  test('a lock on the target refuses the apply and names the preference', async () => {
    await openCompare();
    await tick('Preference Short paragraphs').check();
    await ui.byTestId('apply-to-b').click();
    const error = dialog().getByTestId('apply-error');
    await error.waitFor();
    expect(await error.getAttribute('data-code')).toBe('conflict');
    expect(await error.textContent()).toContain('Short paragraphs');
    expect(await dialog().getByTestId('apply-confirm').isDisabled()).toBe(true);
    await dialog().getByTestId('apply-cancel').click();
    await dialog().waitFor({ state: 'detached' });
  });

  test('applies a section and a preference onto A after the dry run: a new step, a dashed edge, a provenance line', async ({
    axe,
  }) => {
    await openCompare();
    await tick('Section Findings').check();
    await tick('Preference Cite sources').check();
    await ui.byTestId('apply-to-a').click();
    await dialog().getByTestId('apply-dry-run').waitFor();
    await dialog().getByTestId('apply-preview-document').locator('.cm-content').first().waitFor();
    const preview = await dialog().getByTestId('apply-preview-document').textContent();
    expect(preview).toContain('Rooftop hives thrive in the shade.');
    expect(preview).toContain('More hives.');
    expect(await dialog().getByTestId('apply-effects').locator('li').allTextContents()).toEqual([
      expect.stringContaining('section Findings'),
      expect.stringContaining("preference 'Cite sources' (locked)"),
    ]);
    // Nothing is written by the dry run.
    expect((await ui.graph(root)).nodes.filter((n) => n.thread_id === root)).toHaveLength(2);
    await axe(page, '[data-testid="apply-dialog"]');
    await page.screenshot({ path: path.join(shots, 'studio-apply-dry-run.png') });

    await dialog().getByTestId('apply-confirm').click();
    await page.waitForURL((url) => url.pathname === `/c/${root}`);
    const entry = ui.page.locator(`[data-testid="message-system"][data-kind="apply"]`);
    await entry.waitFor();
    expect(await entry.textContent()).toContain(
      "Applied from 2.1: section Findings, preference 'Cite sources' (locked)",
    );
    expect(await entry.getByTestId('apply-entry-source').textContent()).toBe('2.1');
    await ui.preference('Cite sources').waitFor();
    expect(await ui.documentText()).toContain('Rooftop hives thrive in the shade.');
    expect(await ui.documentText()).toContain('More hives.');

    await ui.showWholeGraph();
    await ui.card('3').waitFor();
    expect(await ui.currentLabel()).toBe('3');
    // An apply step asks the model nothing: its card says so, and there is no answer to regenerate.
    expect(await ui.card('3').getByTestId('reply-note').textContent()).toBe('applied, no model call');
    expect(await ui.byTestId('regenerate-last').count()).toBe(0);
    const edge = ui.panel.locator(
      `[data-testid="rf__edge-apply:${branch}:2->${root}:3"] path.react-flow__edge-path`,
    );
    await edge.waitFor();
    expect(await edge.evaluate((el) => getComputedStyle(el).strokeDasharray)).not.toBe('none');
    const turnEdge = ui.panel.locator(
      `[data-testid="rf__edge-${root}:2->${root}:3"] path.react-flow__edge-path`,
    );
    expect(await turnEdge.evaluate((el) => getComputedStyle(el).strokeDasharray)).toBe('none');
    for (const file of ['studio-apply-compare.png', 'studio-apply-dry-run.png']) {
      expect((await stat(path.join(shots, file))).size, file).toBeGreaterThan(10_000);
    }
  });

  test('the step detail says where an apply step came from and links there', async ({ axe }) => {
    await page.goto(`/c/${root}`);
    await ui.waitForReplies(2);
    await ui.showWholeGraph();
    await ui.card('3').click();
    const detail = ui.byTestId('trajectory-detail');
    expect(await detail.getByTestId('step-applied-from').textContent()).toBe(
      "Applied from 2.1: section Findings, preference 'Cite sources' (locked)",
    );
    await detail.getByTestId('step-applied-from-link').click();
    await expect.poll(() => detail.getAttribute('data-node-id')).toBe(`${branch}:2`);
    await axe(page, '[data-testid="trajectory-detail"]');
  });

  test('restores the step before the apply to the pre-apply workspace', async () => {
    await page.goto(`/c/${root}`);
    await ui.waitForReplies(2);
    await ui.restoreViaCard('2');
    await ui.page.locator('[data-testid="preview-banner"][data-step-label="2"]').waitFor();
    await ui.byTestId('workspace').waitFor();
    await expect.poll(() => ui.documentText()).toContain('Bees like gardens.');
    expect(await ui.documentText()).not.toContain('Rooftop hives');
    expect((await ui.preferences()).map((p) => p.text)).toEqual(['Short paragraphs']);
    const restored = await ui.restoreView(root, 2);
    expect(restored.workspace.document.content).toContain('Bees like gardens.');
  });

  test('"Bring into the current path…" opens the compare of the current step with that step, ready to apply onto A', async () => {
    await page.goto(`/c/${root}`);
    await ui.waitForReplies(2);
    await ui.showWholeGraph();
    await ui.card('2.1').click();
    await ui.byTestId('trajectory-detail').getByTestId('bring-into-current').click();
    await page.waitForURL((url) => url.pathname.endsWith('/compare'));
    const url = new URL(page.url());
    expect([url.searchParams.get('a'), url.searchParams.get('b'), url.searchParams.get('into')]).toEqual([
      `${root}:3`,
      `${branch}:2`,
      'a',
    ]);
    await ui.byTestId('apply-hint').waitFor();
    // Applied items are unchanged between the two now: only what was not brought over is offered.
    expect(await tick('Section Findings').count()).toBe(0);
    expect(await tick('Preference Cite sources').count()).toBe(0);
  });

  test('nothing overflows a 390 px phone, in the compare view or the dialog', async ({ newPage }) => {
    const phone = await newPage({ viewport: PHONE_VIEWPORT });
    try {
      await phone.context.addCookies(await context.cookies());
      await phone.page.goto(deepLink());
      await phone.page.getByTestId('compare-document').locator('.cm-content').first().waitFor();
      const overflow = () =>
        phone.page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
      expect(await overflow()).toBeLessThanOrEqual(0);
      await phone.page.getByRole('checkbox', { name: 'Preference Short paragraphs' }).check();
      await phone.page.getByTestId('apply-to-a').click();
      const phoneDialog = phone.page.getByTestId('apply-dialog');
      await phoneDialog.getByTestId('apply-dry-run').waitFor();
      const box = await phoneDialog.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      expect(await phoneDialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      expect(await overflow()).toBeLessThanOrEqual(0);
    } finally {
      await phone.context.close();
    }
  });
});
