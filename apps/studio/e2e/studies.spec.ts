/**
 * A study end to end, in Chromium against a production build (docs/studies.md): a researcher
 * creates a study with two conditions through the editor and opens it; two participants, each in a
 * fresh browser context (one on a phone), consent, write with the offline model and finish; the
 * dashboard shows both without a reload; the researcher reads one participant's family and
 * downloads the dataset. axe-core on the editor, the consent page, the participant's studio and the
 * dashboard.
 */
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect } from './support/test';
import { AuthPage } from './pages/auth-page';
import { ParticipantPage, StudiesPage } from './pages/studies-page';
import { uniqueEmail } from './support/browser';
import { DESKTOP_VIEWPORT, PHONE_VIEWPORT } from './support/viewports';

const SCREENSHOT_DIR = process.env.TRELLIS_SCREENSHOT_DIR;

test.describe('running a study', () => {
  test.describe.configure({ mode: 'serial' });
  let researcher: BrowserContext;
  let page: Page;
  let ui: StudiesPage;
  let studyId = '';
  let joinUrl = '';
  const families: string[] = [];
  let shots = '';

  test.beforeAll(async ({ browser, studio }) => {
    researcher = await browser.newContext({ baseURL: studio.baseUrl, viewport: DESKTOP_VIEWPORT });
    page = await researcher.newPage();
    ui = new StudiesPage(page);
    await new AuthPage(page).signUp(uniqueEmail('study'), 'correct horse battery', 'Dr Researcher');
    // Always written: into docs/ when TRELLIS_SCREENSHOT_DIR names it, else into a temporary folder.
    shots = SCREENSHOT_DIR === undefined ? await mkdtemp(path.join(tmpdir(), 'trellis-shots-')) : path.resolve(SCREENSHOT_DIR);
    await mkdir(shots, { recursive: true });
  });
  test.afterAll(async () => {
    await researcher?.close();
  });

  test('creates a study with two conditions in the editor, opens it, and shows the link', async ({ axe }) => {
    await page.goto('/');
    await page.getByTestId('studio').waitFor();
    await page.getByTestId('studies-link').click();
    await page.getByTestId('studies-empty').waitFor();
    await page.goto('/studies/new');
    await page.getByTestId('study-editor').waitFor();
    await axe(page);
    // A refused form says why, next to the button.
    await page.getByTestId('study-save').click();
    await expect(page.getByTestId('study-editor-error')).toContainText('title');
    await page.goto('/');
    studyId = await ui.create({
      title: 'Essays with an assistant',
      consent: '## About this study\n\nYou will write a short essay with an AI assistant. **Your writing is recorded.**',
      instructions: 'Write a **short essay** about city bees with the assistant, then press *Finish*.',
      objective: 'A short essay about city bees',
      documentTitle: 'City bees',
      document: '# City bees\n',
      conditions: [
        { name: 'with branching', branching: true },
        { name: 'linear control', branching: false, systemPrompt: 'Answer briefly.' },
      ],
      timeLimitMinutes: 60,
      completionCode: 'BEES-2026',
    });
    await expect(page.getByTestId('study-status')).toHaveText('draft');
    await expect(page.getByTestId('participants-empty')).toBeVisible();
    await ui.open();
    joinUrl = await ui.joinUrl();
    expect(await ui.count('with branching')).toBe(0);
    await axe(page);
    // The researcher's own browser is signed in: the link says an account, not a participant, would act.
    await page.goto(joinUrl);
    await expect(page.getByTestId('consent-signed-in')).toBeVisible();
    await page.goto(`/studies/${studyId}`);
    await page.getByTestId('study-title-heading').waitFor();
  });

  test('two participants consent, write with the offline model and finish; the dashboard follows live', async ({
    browser,
    studio,
    axe,
  }) => {
    // The researcher watches; nothing reloads this page from here on.
    await expect(ui.rows).toHaveCount(0);
    const people = [
      { pid: 'e2e-first', viewport: DESKTOP_VIEWPORT, branching: true },
      { pid: 'e2e-second', viewport: PHONE_VIEWPORT, branching: false },
    ];
    for (const [i, person] of people.entries()) {
      const context = await browser.newContext({ baseURL: studio.baseUrl, viewport: person.viewport });
      try {
        const tab = await context.newPage();
        const participant = new ParticipantPage(tab);
        await tab.goto(`${joinUrl}?pid=${person.pid}`);
        await participant.byTestId('consent-page').waitFor();
        await expect(participant.byTestId('consent-signed-in')).toHaveCount(0);
        await expect(tab.getByRole('heading', { name: 'About this study', level: 2 })).toBeVisible();
        await expect(tab.locator('strong', { hasText: 'Your writing is recorded.' })).toBeVisible();
        if (i === 0) await axe(tab);
        const threadId = await participant.agree();
        families.push(threadId);
        // The row appears on the dashboard without a reload.
        await expect(ui.rows).toHaveCount(i + 1);
        // The condition is never named to the participant.
        await expect(tab.locator('body')).not.toContainText(/with branching|linear control/);
        await expect(participant.byTestId('participant-study-title')).toHaveText('Essays with an assistant');
        await expect(participant.byTestId('time-left')).toContainText('min left');
        // No conversation list, no tokens, studies, share or people.
        for (const id of ['conversation-list', 'new-conversation', 'tokens-link', 'studies-link', 'import-link', 'sign-out']) {
          await expect(participant.byTestId(id)).toHaveCount(0);
        }
        if (person.viewport === PHONE_VIEWPORT) {
          await participant.byTestId('tab-history').click();
          await expect(participant.byTestId('tab-history')).toHaveText('Instructions');
        }
        await expect(participant.byTestId('study-instructions').locator('strong')).toHaveText('short essay');
        if (person.viewport === PHONE_VIEWPORT) await participant.byTestId('tab-chat').click();
        await participant.send('objective: A short essay about bees in cities\nappend: Bees thrive on city rooftops.');
        await participant.waitForReplies(1);
        // A linear condition offers no branch: no map, no edit, no regenerate.
        if (person.branching) {
          await expect(participant.byTestId('trajectory-panel')).toBeVisible();
        } else {
          await expect(participant.byTestId('trajectory-panel')).toHaveCount(0);
          await participant.page.getByTestId('message-user').first().hover();
          await expect(participant.byTestId('edit-message')).toHaveCount(0);
          await expect(participant.byTestId('regenerate')).toHaveCount(0);
          await expect(participant.byTestId('regenerate-last')).toHaveCount(0);
          await expect(participant.byTestId('replay-open')).toHaveCount(0);
        }
        await axe(tab);
        if (i === 0) {
          await tab.mouse.move(0, 0);
          await tab.screenshot({ path: path.join(shots, 'studies-participant.png') });
        }
        expect(await participant.finish()).toBe('BEES-2026');
        await tab.keyboard.press('Escape');
        // Finished: the studio only reads now.
        await expect(participant.byTestId('read-only-note')).toContainText('finished');
        await expect(participant.byTestId('chat-input')).toHaveCount(0);
        await expect(participant.byTestId('finish')).toBeDisabled();
      } finally {
        await context.close();
      }
    }
    // Both rows, finished, one per condition; counted per condition.
    await expect(page.locator('[data-testid="participant-row"][data-status="finished"]')).toHaveCount(2);
    await expect(ui.rows.getByTestId('participant-condition')).toHaveText(['with branching', 'linear control']);
    expect(await ui.count('with branching')).toBe(1);
    expect(await ui.count('linear control')).toBe(1);
    for (const steps of await ui.rows.getByTestId('participant-steps').allInnerTexts()) expect(Number(steps)).toBeGreaterThanOrEqual(1);
    await expect(ui.rows.first().getByTestId('participant-words')).not.toHaveText('0 / 0 / 0');
    await axe(page);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: path.join(shots, 'studies-dashboard.png') });
  });

  test("opens a participant's family read-only, downloads the dataset, withdraws one", async ({ axe }) => {
    await ui.rows.first().getByTestId('participant-open').click();
    await page.waitForURL(new RegExp(`/studies/${studyId}/c/${families[0]}$`));
    await page.getByTestId('message-user').first().waitFor();
    await expect(page.getByTestId('read-only-note')).toContainText("reading a participant's family");
    await expect(page.getByTestId('chat-input')).toHaveCount(0);
    await expect(page.getByTestId('trajectory-panel')).toBeVisible();
    await axe(page);
    await page.getByTestId('back-to-studio').click();
    await page.getByTestId('study-dashboard').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('study-download').click()]);
    const zip = await readFile(await download.path());
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    // A zip names its entries in the clear: the participants and conditions tables are in it.
    expect(zip.includes(Buffer.from('participants.csv'))).toBe(true);
    expect(zip.includes(Buffer.from('conditions.csv'))).toBe(true);

    const second = ui.rows.nth(1);
    const withdrawn = await second.getAttribute('data-participant-id');
    await second.getByTestId('participant-withdraw').click();
    await expect(page.getByTestId('confirm-dialog')).toContainText('cannot be undone');
    await page.getByTestId('confirm-accept').click();
    await expect(ui.row(withdrawn!)).toHaveAttribute('data-status', 'withdrawn');
    await expect(ui.row(withdrawn!).getByTestId('participant-open')).toHaveCount(0);
  });

  test('a closed study says so on its link, and Decline stores nothing', async ({ browser, studio, axe }) => {
    const context = await browser.newContext({ baseURL: studio.baseUrl, viewport: DESKTOP_VIEWPORT });
    try {
      const tab = await context.newPage();
      await tab.goto(joinUrl);
      await tab.getByTestId('consent-decline').click();
      await expect(tab.getByTestId('consent-declined')).toContainText('Nothing about you was stored');
      await expect(ui.rows).toHaveCount(2);
      await page.getByTestId('study-close').click();
      await page.getByTestId('confirm-accept').click();
      await expect(page.getByTestId('study-status')).toHaveText('closed');
      await tab.goto(joinUrl);
      await expect(tab.getByTestId('study-closed')).toContainText('no longer taking participants');
      await axe(tab);
      await tab.goto('/join/s/no-such-study');
      await expect(tab.getByTestId('study-link-gone')).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test('Finish waits for the minimum minutes, and says how long', async ({ browser, studio }) => {
    const created = await page.request.post('/api/studies', {
      data: { title: 'Slow study', conditions: [{ name: 'only', model: 'offline', branching: true }], min_minutes: 5 },
      headers: { origin: studio.baseUrl },
    });
    expect(created.status()).toBe(201);
    const { study_id, join_url } = (await created.json()) as { study_id: string; join_url: string };
    const opened = await page.request.patch(`/api/studies/${study_id}`, { data: { status: 'open' }, headers: { origin: studio.baseUrl } });
    expect(opened.status()).toBe(200);
    const context = await browser.newContext({ baseURL: studio.baseUrl, viewport: DESKTOP_VIEWPORT });
    try {
      const tab = await context.newPage();
      await tab.goto(join_url);
      await new ParticipantPage(tab).agree();
      await expect(tab.getByTestId('finish')).toBeDisabled();
      await expect(tab.getByTestId('finish-reason')).toHaveText('Finish opens in 5 minutes');
      await expect(tab.getByTestId('time-left')).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
});
