/**
 * Comparing two paths in Chromium against a production build: two paths are built (two turns on the
 * root, a branch at step 1 that locks a preference, ticks a todo and rewrites the document), their tips
 * are compared through the deep link, the document diff and the item badges show, each side opens from
 * the compare view, the deep link survives a reload, and the view has no serious accessibility issue.
 * Then the ways in from the trajectory: shift-click a second card, and "Compare with…" then a card; and
 * the step detail's "What changed" and "Discarded here" after a preference is deleted by hand, and
 * the compare view naming the step that removed it.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect } from './support/test';
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';
import { uniqueEmail } from './support/browser';
import { DESKTOP_VIEWPORT } from './support/viewports';

test.describe('comparing two paths', () => {
  // The tests build on each other's steps, in this order, on one page.
  test.describe.configure({ mode: 'serial' });
  let context: BrowserContext;
  let page: Page;
  let ui: StudioPage;
  let root = '';
  let branch = '';

  test.beforeAll(async ({ browser, studio }) => {
    context = await browser.newContext({ baseURL: studio.baseUrl, viewport: DESKTOP_VIEWPORT });
    page = await context.newPage();
    ui = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('compare'), 'correct horse battery');
    root = await ui.newConversation();
    await ui.send(
      [
        'doc: # Bees',
        'Bees thrive in city gardens.',
        'prefer: Short paragraphs',
        'todo: Research regulations',
      ].join('\n'),
    );
    await ui.waitForReplies(1);
    await ui.send('append: Hives need shade.');
    await ui.waitForReplies(2);
    branch = await ui.branch(root, 1);
    const workspace = (await (await page.request.get(`/api/conversations/${branch}/workspace`)).json()) as {
      preferences: { id: string }[];
    };
    await ui.lockPreference(branch, workspace.preferences[0]!.id);
    await page.goto(`/c/${branch}`);
    await ui.waitForReplies(1);
    await ui.send(['done: Research regulations', 'append: Rooftops work well.'].join('\n'));
    await ui.waitForReplies(2);
  });
  test.afterAll(async () => {
    await context?.close();
  });

  const card = (nodeId: string) =>
    ui.byTestId('trajectory-panel').locator(`[data-testid="trajectory-node"][data-node-id="${nodeId}"]`);
  const comparedSides = () => {
    const url = new URL(page.url());
    return { path: url.pathname, a: url.searchParams.get('a'), b: url.searchParams.get('b') };
  };
  const deepLink = () => `/c/${root}/compare?a=${root}:2&b=${branch}:2`;

  test('shows the fork, the document diff and the item badges for the two tips', async () => {
    await page.goto(deepLink());
    await ui.byTestId('compare-view').waitFor();
    expect(await ui.byTestId('compare-fork').textContent()).toContain('step 1');
    expect(await ui.byTestId('compare-label-a').textContent()).toBe('2');
    expect(await ui.byTestId('compare-label-b').textContent()).toMatch(/^2\.\d+$/);
    const documentDiff = ui.byTestId('compare-document');
    await documentDiff.locator('.cm-content').first().waitFor();
    expect(await documentDiff.textContent()).toContain('Rooftops work well.');
    expect(await documentDiff.textContent()).toContain('Hives need shade.');
    const preference = ui.byTestId('compare-preferences').locator('li').first();
    expect(await preference.getAttribute('data-status')).toBe('edited');
    expect(await preference.getByTestId('compare-badge').allTextContents()).toEqual([
      'edited',
      'lock changed',
    ]);
    const todo = ui.byTestId('compare-todos').locator('li').first();
    expect(await todo.getAttribute('data-status')).toBe('edited');
    expect(await ui.byTestId('compare-words').textContent()).toMatch(/\+\d+ −\d+ words/);
  });

  test('has no serious or critical accessibility violations', async ({ axe }) => {
    await page.goto(deepLink());
    await ui.byTestId('compare-document').locator('.cm-content').first().waitFor();
    await axe(page);
  });

  test('opens each side from the compare view, and the deep link survives a reload', async () => {
    await page.goto(deepLink());
    await ui.byTestId('compare-open-a').click();
    await page.waitForURL((url) => url.pathname === `/c/${root}`);
    await ui.waitForReplies(2);
    await page.goBack();
    await ui.byTestId('compare-open-b').click();
    await page.waitForURL((url) => url.pathname === `/c/${branch}`);
    await ui.waitForReplies(2);
    // The trajectory cards carry the stored word counts of their steps.
    await expect.poll(() => ui.byTestId('step-change-badge').count()).toBeGreaterThan(0);
    await page.goto(deepLink());
    await page.reload();
    await ui.byTestId('compare-view').waitFor();
    expect(await ui.byTestId('compare-label-a').textContent()).toBe('2');
  });

  test('shift-click on a second card compares the displayed step with it', async () => {
    await page.goto(`/c/${root}`);
    await ui.waitForReplies(2);
    await card(`${root}:1`).click({ modifiers: ['Shift'] });
    await page.waitForURL((url) => url.pathname.endsWith('/compare'));
    expect(comparedSides()).toEqual({ path: `/c/${root}/compare`, a: `${root}:2`, b: `${root}:1` });
    await ui.byTestId('compare-view').waitFor();
    expect(await ui.byTestId('compare-label-b').textContent()).toBe('1');
  });

  test('"Compare with…" on the step detail, then a card, compares the two steps', async () => {
    await page.goto(`/c/${branch}`);
    await ui.waitForReplies(2);
    await card(`${branch}:2`).click();
    await ui.byTestId('trajectory-detail').getByTestId('compare-with').click();
    await ui.byTestId('compare-picking').waitFor();
    expect(await ui.byTestId('trajectory-detail').count()).toBe(0);
    await card(`${root}:2`).click();
    await page.waitForURL((url) => url.pathname.endsWith('/compare'));
    expect(comparedSides()).toEqual({ path: `/c/${branch}/compare`, a: `${branch}:2`, b: `${root}:2` });
    await ui.byTestId('compare-view').waitFor();
    expect(await ui.byTestId('compare-fork').textContent()).toContain('step 1');
  });

  test('the step detail shows what changed and what was discarded at a step that deleted a preference', async ({
    axe,
  }) => {
    await page.goto(`/c/${root}`);
    await ui.waitForReplies(2);
    // Deleted by hand after step 2, then a turn: the deletion belongs to step 2.
    await ui.preference('Short paragraphs').getByTestId('preference-delete').click();
    await expect.poll(() => ui.preference('Short paragraphs').count()).toBe(0);
    await ui.send('append: Bees dance.');
    await ui.waitForReplies(3);
    await card(`${root}:2`).click();
    const detail = ui.byTestId('trajectory-detail');
    const changed = detail.getByTestId('step-what-changed');
    await changed.getByTestId('step-changes-words').waitFor();
    expect(await changed.getByTestId('step-changes-words').textContent()).toMatch(/^\+[1-9]\d* −\d+ words$/);
    const removed = changed.locator('[data-testid="step-change-item"][data-status="removed"]');
    expect(await removed.textContent()).toContain('Short paragraphs');
    expect(await removed.getByTestId('compare-badge').allTextContents()).toEqual(['removed']);
    expect(await removed.getByTestId('step-change-by').textContent()).toBe('by hand');
    const discarded = detail.getByTestId('step-discarded').getByTestId('step-discarded-item');
    expect(await discarded.count()).toBe(1);
    expect(await discarded.getAttribute('data-kind')).toBe('preference');
    expect(await discarded.textContent()).toContain('Short paragraphs');
    expect(await discarded.textContent()).toContain('by hand');
    // Step 1 discarded nothing: its detail has no "Discarded here" (the detail is closed first: it may cover the card).
    await detail.getByRole('button', { name: 'Close step details' }).click();
    await card(`${root}:1`).click();
    await detail.getByTestId('step-changes-words').waitFor();
    expect(await detail.getByTestId('step-discarded').count()).toBe(0);
    await detail.getByRole('button', { name: 'Close step details' }).click();
    await card(`${root}:2`).click();
    await detail.getByTestId('step-discarded').waitFor();
    await axe(page, '[data-testid="trajectory-detail"]');
  });

  test('shows a removed item with the step of the other path that removed it, and opens that step', async () => {
    // The branch still holds "Short paragraphs"; the root deleted it at step 2 (the test above).
    await page.goto(`/c/${root}/compare?a=${branch}:2&b=${root}:3`);
    await ui.byTestId('compare-view').waitFor();
    const removed = ui.byTestId('compare-preferences').locator('li[data-status="removed"]');
    expect(await removed.textContent()).toContain('Short paragraphs');
    const removedAt = removed.getByTestId('compare-removed-at');
    expect(await removedAt.textContent()).toBe('removed at step 2');
    expect(await removedAt.getAttribute('data-node-id')).toBe(`${root}:2`);
    expect(await removed.getByTestId('compare-removed-by').textContent()).toBe('by hand');
    // Items the other path never held, or still holds, name no step.
    expect(await ui.byTestId('compare-todos').getByTestId('compare-removed-at').count()).toBe(0);
    await removedAt.click();
    await page.waitForURL((url) => url.pathname === `/c/${root}` && url.searchParams.get('step') === '2');
    await page.locator('[data-testid="preview-banner"][data-step-label="2"]').waitFor();
  });

  test('"Continue from A" and "Continue from B" restore each compared step', async () => {
    for (const [side, turn] of [
      ['a', 1],
      ['b', 2],
    ] as const) {
      await page.goto(`/c/${root}/compare?a=${root}:1&b=${root}:2`);
      await ui.byTestId(`compare-continue-${side}`).click();
      await page.waitForURL(
        (url) => url.pathname === `/c/${root}` && url.searchParams.get('step') === String(turn),
      );
      await page.locator(`[data-testid="preview-banner"][data-step-label="${turn}"]`).waitFor();
      await expect.poll(() => ui.userMessages.count()).toBe(turn);
    }
  });

  test('cards carry the stored word counts as "+N −M", and a struck-through count where items were discarded', async () => {
    const graph = (await (await page.request.get(`/api/conversations/${root}/graph`)).json()) as {
      nodes: {
        id: string;
        change_summary: { words_added: number; words_removed: number } | null;
        discarded_count: number;
      }[];
    };
    const stored = (nodeId: string) => graph.nodes.find((n) => n.id === nodeId)!;
    await page.goto(`/c/${root}`);
    await ui.waitForReplies(3);
    // Step 2 deleted "Short paragraphs" (above); step 3 only appended.
    expect(stored(`${root}:2`).discarded_count).toBe(1);
    for (const turn of [2, 3]) {
      const summary = stored(`${root}:${turn}`).change_summary!;
      const badge = card(`${root}:${turn}`).getByTestId('step-change-badge');
      const words = (await badge.textContent())!.match(/\+(\d+) −(\d+)/);
      expect(words?.slice(1).map(Number), `step ${turn}`).toEqual([
        summary.words_added,
        summary.words_removed,
      ]);
      expect(summary.words_added, `step ${turn}`).toBeGreaterThan(0);
    }
    const marker = card(`${root}:2`).getByTestId('step-discard-marker');
    expect(await marker.textContent()).toContain('×1');
    expect(await marker.getAttribute('title')).toBe('1 discarded here');
    expect(await card(`${root}:3`).getByTestId('step-discard-marker').count()).toBe(0);
    expect(await card(`${root}:1`).getByTestId('step-discard-marker').count()).toBe(0);
  });
});
