/**
 * "Continue from here" and the chat ↔ trajectory links, in Chromium against a production build
 * (docs/branching.md, "The restore rule"; docs/branching.md, "The family graph"). One
 * family is built through the UI and grows to five paths as the flows run, in this order:
 *
 *   1 ─ 2 ─ 3                 the root (three directive turns)
 *       ├─ 3.1 ─ 4.1          step 2 restored and sent without edits; later continued
 *       │        └─ 4.1.1     step 3.1 restored on that branch and sent
 *       ├─ 3.2                step 2 restored, edited, sent
 *   └─ 2.3                    a deep link to step 1, sent
 */
import { mkdir, mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect } from './support/test';
import { AuthPage } from './pages/auth-page';
import { seededState, TrajectoryPage } from './pages/trajectory-page';
import { uniqueEmail } from './support/browser';
import { writeFromPage } from './support/same-origin';
import { DESKTOP_VIEWPORT, PHONE_VIEWPORT } from './support/viewports';

const SCREENSHOT_DIR = process.env.TRELLIS_SCREENSHOT_DIR;

test.describe('continuing from a step of the trajectory', () => {
  // The tests build on each other's steps, in this order, on one page.
  test.describe.configure({ mode: 'serial' });
  let context: BrowserContext;
  let page: Page;
  let ui: TrajectoryPage;
  let root = '';
  const branches: Record<'b31' | 'b32' | 'b23' | 'b411', string> = { b31: '', b32: '', b23: '', b411: '' };

  const count = async () => (await ui.conversations()).length;
  const openLive = async (threadId: string, replies: number) => {
    await page.goto(`/c/${threadId}`);
    await ui.waitForReplies(replies);
  };

  test.beforeAll(async ({ browser, studio }) => {
    context = await browser.newContext({ baseURL: studio.baseUrl, viewport: DESKTOP_VIEWPORT });
    page = await context.newPage();
    ui = new TrajectoryPage(page);
    await new AuthPage(page).signUp(uniqueEmail('trajectory'), 'correct horse battery');
    root = await ui.newConversation();
    await ui.send(
      [
        'objective: A field guide to urban beekeeping',
        'doc: # Urban beekeeping',
        'Bees thrive in city gardens.',
        'prefer: Short paragraphs',
        'todo: Research local regulations',
      ].join('\n'),
    );
    await ui.waitForReplies(1);
    await ui.send(['prefer: British spelling', 'todo: Order a starter hive'].join('\n'));
    await ui.waitForReplies(2);
    await ui.send(['todo: Buy protective gloves', 'done: Research local regulations'].join('\n'));
    await ui.waitForReplies(3);
  });
  test.afterAll(async () => {
    await context?.close();
  });

  test('restores step 2 at once — transcript cut at the step, its workspace, "you are here" on it — and creates nothing; an unedited preview is left without a question', async () => {
    const before = await count();
    await ui.restoreViaCheckpoint(2);
    await ui.waitForPreview('2', 2);
    expect(ui.step()).toBe(2);
    expect(ui.threadId()).toBe(root);
    expect(await ui.userMessages.count()).toBe(2);
    const restored = seededState((await ui.restoreView(root, 2)).workspace);
    expect(await ui.preferences()).toEqual(restored.preferences);
    expect(await ui.todos()).toEqual(restored.todos);
    expect(restored.todos).toEqual([
      { text: 'Research local regulations', done: false, depth: 0 },
      { text: 'Order a starter hive', done: false, depth: 0 },
    ]);
    await expect.poll(() => ui.currentLabel()).toBe('2');
    expect(await ui.isPreviewEdited()).toBe(false);

    await ui.byTestId('preview-back').click();
    await page.waitForURL((url) => !url.search.includes('step='));
    expect(await ui.confirmDialog.count()).toBe(0);
    await ui.waitForReplies(3);
    await expect.poll(() => ui.currentLabel()).toBe('3');
    expect(await count()).toBe(before);
  });

  test('sends from step 2 without edits: a new branch seeded with the step-2 workspace, the original untouched', async () => {
    const before = await count();
    await ui.restoreViaCard('2');
    await ui.waitForPreview('2', 2);
    expect(await count()).toBe(before);

    await ui.send('Take it in another direction.');
    branches.b31 = await ui.waitForThreadOtherThan(root);
    await ui.waitForReplies(3);
    expect(ui.step()).toBeNull();
    expect(await ui.banner.count()).toBe(0);

    const branch = await ui.conversation(branches.b31);
    expect({ parent: branch.parent_thread_id, at: branch.branch_point_turn }).toEqual({
      parent: root,
      at: 2,
    });
    const stepTwo = seededState((await ui.restoreView(root, 2)).workspace);
    // The branch's state before its first turn (snapshot 3), and its live rows after a reply without tools.
    expect(seededState((await ui.restoreView(branches.b31, 2)).workspace)).toEqual(stepTwo);
    expect(seededState(await ui.liveWorkspace(branches.b31))).toEqual(stepTwo);
    expect(await ui.todos()).toEqual(stepTwo.todos);
    // The original path keeps its three turns and its gloves.
    expect((await ui.conversation(root)).turn_index).toBe(3);
    expect((await ui.liveWorkspace(root)).todos.map((t) => t.text)).toContain('Buy protective gloves');
    expect(await count()).toBe(before + 1);
    await expect.poll(() => ui.messageLabels()).toEqual(['1', '2', '3.1']);
  });

  test('sends from an edited step 2: the branch holds the edited preference and todo; leaving the edited preview asks first', async () => {
    await openLive(root, 3);
    await ui.restoreViaCard('2');
    await ui.waitForPreview('2', 2);
    await ui.preference('Short paragraphs').getByTestId('preference-lock').click();
    await ui.editTodo('Order a starter hive', 'Order two starter hives');
    await ui.todo('Research local regulations').getByTestId('todo-checkbox').check();
    await expect.poll(() => ui.isPreviewEdited()).toBe(true);

    // Every way out asks while the preview holds edits; "Cancel" keeps them.
    await ui.openFromHistory(root);
    await ui.confirmDialog.waitFor();
    await ui.byTestId('confirm-cancel').click();
    await ui.byTestId('preview-back').click();
    await ui.confirmDialog.waitFor();
    await ui.byTestId('confirm-cancel').click();
    await ui.confirmDialog.waitFor({ state: 'detached' });
    await page.goBack();
    await ui.confirmDialog.waitFor();
    await ui.byTestId('confirm-cancel').click();
    await ui.confirmDialog.waitFor({ state: 'detached' });
    await expect.poll(() => ui.step()).toBe(2);
    expect(await ui.isPreviewEdited()).toBe(true);
    expect(await ui.preferences()).toContainEqual({ text: 'Short paragraphs', locked: true });

    const before = await count();
    await ui.send('Two hives, then.');
    branches.b32 = await ui.waitForThreadOtherThan(root);
    await ui.waitForReplies(3);
    const edited = {
      preferences: [
        { text: 'Short paragraphs', locked: true },
        { text: 'British spelling', locked: false },
      ],
      todos: [
        { text: 'Research local regulations', done: true, depth: 0 },
        { text: 'Order two starter hives', done: false, depth: 0 },
      ],
    };
    const seeded = seededState((await ui.restoreView(branches.b32, 2)).workspace);
    expect({ preferences: seeded.preferences, todos: seeded.todos }).toEqual(edited);
    expect(await ui.todos()).toEqual(edited.todos);
    // The step itself is unchanged: editing a preview never writes to the path it came from.
    const original = seededState((await ui.restoreView(root, 2)).workspace);
    expect(original.preferences[0]).toEqual({ text: 'Short paragraphs', locked: false });
    expect(original.todos.map((t) => t.text)).toContain('Order a starter hive');
    expect(await count()).toBe(before + 1);
    expect((await ui.conversation(branches.b32)).branch_point_turn).toBe(2);
  });

  test('discards an edited preview only after confirmation, creating nothing; "New conversation" is guarded too', async () => {
    await openLive(root, 3);
    const before = await count();
    await ui.restoreViaCheckpoint(1);
    await ui.waitForPreview('1', 1);
    await ui.editObjective('A different guide');
    await expect.poll(() => ui.isPreviewEdited()).toBe(true);

    await ui.byTestId('new-conversation').click();
    await ui.confirmDialog.waitFor();
    await ui.byTestId('confirm-cancel').click();
    expect(ui.step()).toBe(1);

    await ui.openFromHistory(branches.b31);
    await ui.confirmDialog.waitFor();
    await ui.byTestId('confirm-accept').click();
    await page.waitForURL((url) => !url.search.includes('step='));
    await ui.byTestId('workspace').waitFor();
    expect(await ui.banner.count()).toBe(0);
    expect(await count()).toBe(before);
    expect((await ui.liveWorkspace(root)).objective).toBe('A field guide to urban beekeeping');

    // Unedited, "New conversation" simply opens a new one.
    await openLive(root, 3);
    await ui.restoreViaCheckpoint(1);
    await ui.waitForPreview('1', 1);
    await ui.byTestId('new-conversation').click();
    await ui.byTestId('chat-empty').waitFor();
    expect(await ui.confirmDialog.count()).toBe(0);
    expect(await count()).toBe(before + 1);
  });

  test('labels every message with its step as the panel does; offshoot chips and card clicks navigate', async () => {
    await openLive(root, 3);
    await ui.showWholeGraph();
    await expect.poll(() => ui.messageLabels()).toEqual(['1', '2', '3']);
    expect(await ui.displayedPathLabels()).toEqual(['1', '2', '3']);
    expect(await ui.userMessage(2).getByTestId('step-label').textContent()).toBe('Step 2');
    const chips = ui.offshootChips(2);
    expect(await chips.evaluateAll((els) => els.map((el) => el.getAttribute('data-label')))).toEqual([
      '3.1',
      '3.2',
    ]);

    await chips.and(page.locator('[data-label="3.2"]')).click();
    await page.waitForURL((url) => url.pathname.endsWith(branches.b32));
    await ui.waitForReplies(3);
    await ui.showWholeGraph();
    await expect.poll(() => ui.messageLabels()).toEqual(['1', '2', '3.2']);
    expect(await ui.displayedPathLabels()).toEqual(['1', '2', '3.2']);
    // From the branch, the original line and the other branch are the alternatives at step 2.
    expect(
      await ui.offshootChips(2).evaluateAll((els) => els.map((el) => el.getAttribute('data-label'))),
    ).toEqual(['3', '3.1']);

    // A card of the displayed path scrolls the chat to its message and flashes it.
    await ui.card('1').click();
    await expect.poll(() => ui.userMessage(1).getAttribute('data-flash')).toBe('on');
    await expect.poll(() => ui.userMessage(1).isVisible()).toBe(true);

    await ui.offshootChips(2).and(page.locator('[data-label="3"]')).click();
    await page.waitForURL((url) => url.pathname.endsWith(root));
    await expect.poll(() => ui.messageLabels()).toEqual(['1', '2', '3']);
  });

  test('opens a deep link with ?step=k as the restored step, also after a reload, and branches from it on send', async () => {
    const before = await count();
    await page.goto(`/c/${root}?step=1`);
    await ui.waitForPreview('1', 1);
    expect(await ui.userMessages.count()).toBe(1);
    const stepOne = seededState((await ui.restoreView(root, 1)).workspace);
    expect(await ui.preferences()).toEqual(stepOne.preferences);
    expect(await ui.todos()).toEqual(stepOne.todos);
    await page.reload();
    await ui.waitForPreview('1', 1);
    await expect.poll(() => ui.currentLabel()).toBe('1');
    expect(await count()).toBe(before);

    await ui.send('Start over from the objective.');
    branches.b23 = await ui.waitForThreadOtherThan(root);
    await ui.waitForReplies(2);
    await expect.poll(() => ui.messageLabels()).toEqual(['1', '2.3']);
    expect((await ui.conversation(branches.b23)).branch_point_turn).toBe(1);
  });

  test('nests branches one level under their parent in the history menu, "branched at step N"', async () => {
    // A branch of a branch: continue 3.1, then restore 3.1 and send.
    await openLive(branches.b31, 3);
    await ui.send('Keep going.');
    await ui.waitForReplies(4);
    await ui.restoreViaCheckpoint(3);
    await ui.waitForPreview('3.1', 3);
    await ui.send('A branch of the branch.');
    branches.b411 = await ui.waitForThreadOtherThan(branches.b31);
    await ui.waitForReplies(4);
    await expect.poll(() => ui.messageLabels()).toEqual(['1', '2', '3.1', '4.1.1']);

    const item = (id: string) => ui.historyItem(id);
    const depthOf = async (id: string) => Number(await item(id).getAttribute('data-depth'));
    await item(branches.b411).waitFor();
    expect(await depthOf(root)).toBe(0);
    for (const id of [branches.b31, branches.b32, branches.b23]) {
      expect(await depthOf(id)).toBe(1);
      expect(await item(id).getAttribute('data-parent-thread-id')).toBe(root);
    }
    expect(await depthOf(branches.b411)).toBe(2);
    expect(await item(branches.b411).getAttribute('data-parent-thread-id')).toBe(branches.b31);
    expect(await item(branches.b31).getByTestId('branched-at').textContent()).toBe('branched at step 2');
    expect(await item(branches.b23).getByTestId('branched-at').textContent()).toBe('branched at step 1');
    expect(await item(root).getByTestId('branched-at').count()).toBe(0);
    // Each branch comes after its parent, before the next family.
    const order = await ui.conversationItems.evaluateAll((items) =>
      items.map((i) => i.getAttribute('data-thread-id')),
    );
    const at = (id: string) => order.indexOf(id);
    expect(at(root)).toBeLessThan(at(branches.b31));
    expect(at(branches.b31)).toBeLessThan(at(branches.b411));
    const family = [root, ...Object.values(branches)].map(at).sort((a, b) => a - b);
    expect(family.at(-1)! - family[0]!).toBe(family.length - 1);

    const graph = await ui.graph(root);
    expect(graph.threads.length).toBeGreaterThanOrEqual(5);
  });

  // Always runs: into docs/ when TRELLIS_SCREENSHOT_DIR names it, else into a temporary folder.
  test('screenshots of the studio with a five-path family', async ({ newPage }) => {
    const dir =
      SCREENSHOT_DIR === undefined
        ? await mkdtemp(path.join(tmpdir(), 'trellis-shots-'))
        : path.resolve(SCREENSHOT_DIR);
    await mkdir(dir, { recursive: true });
    // Only the family in the history menu: the conversation "New" opened earlier goes.
    for (const conversation of await ui.conversations()) {
      if (conversation.turn_index === 0)
        await writeFromPage(page, 'DELETE', `/api/conversations/${conversation.thread_id}`);
    }
    await openLive(branches.b411, 4);
    await ui.panel.locator('.react-flow__controls-fitview').click();
    await page.mouse.move(0, 0);
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(dir, 'studio-trajectory.png') });

    await ui.restoreViaCard('2');
    await ui.waitForPreview('2', 2);
    await ui.byTestId('trajectory-detail').getByRole('button', { name: 'Close step details' }).click();
    await ui.byTestId('trajectory-detail').waitFor({ state: 'detached' });
    await ui.panel.getByTestId('trajectory-size-M').click();
    await ui.panel.locator('.react-flow__controls-fitview').click();
    await ui.preference('British spelling').getByTestId('preference-lock').click();
    await ui.editTodo('Order a starter hive', 'Order two starter hives');
    await page.mouse.move(0, 0);
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(dir, 'studio-preview.png') });

    const phone = await newPage({ viewport: PHONE_VIEWPORT });
    await phone.context.addCookies(await context.cookies());
    const phoneUi = new TrajectoryPage(phone.page);
    await phone.page.goto(`/c/${root}`);
    await phoneUi.waitForReplies(3);
    await phoneUi.panel.locator('.react-flow__controls-fitview').click();
    // The step with two alternatives, its label and chips in view.
    await phoneUi.userMessage(2).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await phone.page.waitForTimeout(400);
    await phone.page.screenshot({ path: path.join(dir, 'studio-phone.png') });
    await phone.context.close();
    for (const file of ['studio-trajectory.png', 'studio-preview.png', 'studio-phone.png']) {
      expect((await stat(path.join(dir, file))).size, file).toBeGreaterThan(10_000);
    }
  });
});
