/**
 * Replaying a path, in Chromium against a production build: the replay bar on the
 * displayed path walks every change of the path in order with the keyboard, the URL keeps the
 * position (a link opens the same change), replay never writes, "Continue from here" on a replayed
 * step makes a branch, and axe-core finds no serious violation.
 */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import type { Change } from '@trellis/domain';
import { test, expect } from './support/test';
import { AuthPage } from './pages/auth-page';
import { ReplayPage } from './pages/replay-page';
import { uniqueEmail } from './support/browser';
import { DESKTOP_VIEWPORT, PHONE_VIEWPORT } from './support/viewports';

const SCREENSHOT_DIR = process.env.TRELLIS_SCREENSHOT_DIR;

test.describe('replaying a path', () => {
  test.describe.configure({ mode: 'serial' });
  let context: BrowserContext;
  let page: Page;
  let ui: ReplayPage;
  let root = '';
  let log: Change[] = [];

  test.beforeAll(async ({ browser, studio }) => {
    context = await browser.newContext({ baseURL: studio.baseUrl, viewport: DESKTOP_VIEWPORT });
    page = await context.newPage();
    ui = new ReplayPage(page);
    await new AuthPage(page).signUp(uniqueEmail('replay'), 'correct horse battery');
    root = await ui.newConversation();
    await ui.send(
      [
        'objective: A field guide to urban beekeeping',
        'doc: # Urban beekeeping',
        'Bees thrive in city gardens.',
        'todo: Research local regulations',
      ].join('\n'),
    );
    await ui.waitForReplies(1);
    // A person's edit between the turns: step 1's last change, by a person.
    await ui.editObjective('A practical field guide to urban beekeeping');
    await ui.waitForSaved();
    await ui.send(
      [
        'prefer: British spelling',
        'append: Hives need shade in summer.',
        'done: Research local regulations',
      ].join('\n'),
    );
    await ui.waitForReplies(2);
    log = await ui.changeLog(root);
    expect(new Set(log.map((c) => c.actor))).toEqual(new Set(['agent', 'person']));
  });
  test.afterAll(async () => {
    await context?.close();
  });

  test('walks every change of the path from the first to the last with the keyboard, in order, and back with Home', async ({
    axe,
  }) => {
    await ui.open();
    await ui.focusBar();
    for (const [i, expected] of log.entries()) {
      if (i > 0) await ui.press('ArrowRight');
      await ui.waitForChange(i + 1);
      const shown = await ui.shown();
      expect(shown, `change ${i + 1}`).toMatchObject({
        seq: expected.seq,
        actor: expected.actor,
        target: expected.kind,
      });
      // The change's step carries the replay's mark on the trajectory and in the chat; "you are
      // here" stays on the live step (the path's latest, step 2).
      await expect(ui.panel.locator('[data-replayed="true"]')).toHaveAttribute(
        'data-label',
        String(expected.turn),
      );
      await expect(ui.panel.locator('[data-current="true"]')).toHaveAttribute('data-label', '2');
      await expect(
        page.locator(`[data-testid="message-user"][data-turn="${expected.turn}"] [data-testid="replay-marker"]`),
      ).toBeVisible();
    }
    // Past the last change nothing moves; Home goes back to the first, End to the last.
    await ui.press('ArrowRight');
    await ui.waitForChange(log.length);
    await ui.press('Home');
    await ui.waitForChange(1);
    await ui.press('End');
    await ui.waitForChange(log.length);
    // At the last change "Next change" keeps the focus (it is never `disabled`), so the keys still work.
    await ui.byTestId('replay-forward').press('Enter');
    await ui.waitForChange(log.length);
    await expect(ui.byTestId('replay-forward')).toBeFocused();
    await ui.press('ArrowLeft');
    await ui.waitForChange(log.length - 1);
    // The agent's append is shown as an insertion, with its actor.
    const append = log.findIndex((c) => c.actor === 'agent' && c.kind === 'document' && c.turn === 2);
    await page.goto(`/c/${root}?replay=${append + 1}`);
    await ui.waitForChange(append + 1);
    await expect(ui.byTestId('replay-actor')).toHaveText('The agent');
    await expect(ui.byTestId('replay-insert')).toContainText('Hives need shade in summer.');
    await expect(ui.byTestId('replay-document')).toContainText('Hives need shade in summer.');
    await axe(page);
    // Replay only reads: the path's log is what it was.
    expect(await ui.changeLog(root)).toEqual(log);
  });

  test('a link keeps the replayed change; "Continue from here" on it restores its step and a message sent there makes a branch', async () => {
    const personEdit = log.findIndex((c) => c.actor === 'person');
    expect(log[personEdit]!.turn).toBe(1);
    await page.goto(`/c/${root}?replay=${personEdit + 1}`);
    await ui.waitForChange(personEdit + 1);
    expect(await ui.shown()).toMatchObject({ actor: 'person', target: 'objective' });
    await ui.continueFromHere();
    await ui.waitForPreview('1', 1);
    expect(await ui.objective()).toBe('A practical field guide to urban beekeeping');
    await ui.send('todo: Visit a city apiary');
    const branch = await ui.waitForThreadOtherThan(root);
    await ui.waitForReplies(2);
    expect((await ui.conversation(branch)).parent_thread_id).toBe(root);
    // The branch's replay starts with its parent's changes up to step 1.
    await ui.open();
    const branchLog = await ui.changeLog(branch);
    expect(branchLog.slice(0, personEdit + 1)).toEqual(log.slice(0, personEdit + 1));
  });

  test('a replay link opened on a phone shows the replayed change, in the workspace tab', async ({ axe }) => {
    const phone = await context.newPage();
    await phone.setViewportSize(PHONE_VIEWPORT);
    const onPhone = new ReplayPage(phone);
    const last = log.length;
    await phone.goto(`/c/${root}?replay=${last}`);
    await onPhone.waitForChange(last);
    await expect(onPhone.bar).toBeInViewport();
    await axe(phone);
    await phone.close();
  });

  // Always runs: into docs/ when TRELLIS_SCREENSHOT_DIR names it, else into a temporary folder.
  test('screenshot of the replay bar', async () => {
    const dir =
      SCREENSHOT_DIR === undefined
        ? await mkdtemp(path.join(tmpdir(), 'trellis-shots-'))
        : path.resolve(SCREENSHOT_DIR);
    await mkdir(dir, { recursive: true });
    const append = log.findIndex((c) => c.actor === 'agent' && c.kind === 'document' && c.turn === 2);
    await page.goto(`/c/${root}?replay=${append + 1}`);
    await ui.waitForChange(append + 1);
    await ui.waitForReplies(2);
    await page.mouse.move(0, 0);
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(dir, 'studio-replay.png') });
  });
});
