/**
 * What a person sees when they choose a step, in Chromium against a production build: a replay
 * brings the chat to the replayed step and marks it there (its own mark on the map, "you are here"
 * left on the live step); Alt+↓ frames the sibling path's step at a readable zoom with its text; an
 * unsent draft survives a reload; "Continue from here" by keyboard leaves the cursor in the composer;
 * the compare page sits under the app's header with a way back. axe-core on each.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { ApiClient } from './support/api-client';
import { uniqueEmail } from './support/browser';
import { makeLargeFamily, sendAndWait } from './support/make-large-family';

const PASSWORD = 'correct horse battery';
const ROOT_STEPS = 8;

test.describe.configure({ mode: 'serial', timeout: 180_000 });

let email = '';
let root = '';
let branch = '';

test.beforeAll(async ({ baseURL }) => {
  const api = new ApiClient(baseURL!);
  email = uniqueEmail('chosen-step');
  await api.signUp(email, PASSWORD);
  root = (await api.json<{ thread_id: string }>('POST', '/api/conversations', {}, 201)).thread_id;
  for (let step = 1; step <= ROOT_STEPS; step++) {
    await sendAndWait(api, root, `Section ${step}: a longer note so the chat scrolls.\nappend: Paragraph ${step} of the draft.\ntodo: Check section ${step}`);
  }
  // A path from step 3, two steps long: the sibling of the root's steps 4 and 5.
  branch = (await api.json<{ thread_id: string }>('POST', `/api/conversations/${root}/branch`, { from_turn: 3 }, 201)).thread_id;
  await sendAndWait(api, branch, 'Another take on section 4\nappend: The other paragraph 4.');
  await sendAndWait(api, branch, 'Another take on section 5\nappend: The other paragraph 5.');
});

async function signIn(page: Page, baseURL: string): Promise<void> {
  const response = await page.request.post('/api/auth/sign-in/email', { data: { email, password: PASSWORD }, headers: { origin: baseURL } });
  expect(response.ok()).toBe(true);
}

const panelOf = (page: Page) => page.getByTestId('trajectory-panel');
const userMessage = (page: Page, turn: number) => page.locator(`[data-testid="message-list"] [data-testid="message-user"][data-turn="${turn}"]`);

/** Whether `inner` lies wholly inside `outer` on screen. */
async function isInside(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  if (a === null || b === null) return false;
  return a.x >= b.x - 1 && a.y >= b.y - 1 && a.x + a.width <= b.x + b.width + 1 && a.y + a.height <= b.y + b.height + 1;
}

test('a replay scrolls the chat to its step and marks it there; "you are here" stays on the live step', async ({ page, baseURL, axe }) => {
  await signIn(page, baseURL!);
  const changes = (await (await page.request.get(`/api/conversations/${root}/changes?limit=500`)).json()) as {
    changes: { seq: number; turn: number }[];
  };
  const firstOfStep = (turn: number) => changes.changes.find((c) => c.turn === turn)!.seq;
  await page.goto(`/c/${root}?replay=${firstOfStep(1)}`);
  await page.getByTestId('replay-bar').waitFor();

  const list = page.getByTestId('message-list');
  await expect.poll(() => isInside(userMessage(page, 1), list)).toBe(true);
  await expect(userMessage(page, 1).getByTestId('replay-marker')).toBeVisible();
  await expect(page.getByTestId('replay-marker')).toHaveCount(1);
  // The latest step is out of view: the chat moved, it did not just mark.
  expect(await isInside(userMessage(page, ROOT_STEPS), list)).toBe(false);

  const panel = panelOf(page);
  await expect(panel.locator('[data-replayed="true"]')).toHaveAttribute('data-label', '1');
  await expect(panel.locator('[data-current="true"]')).toHaveAttribute('data-label', String(ROOT_STEPS));
  await expect(panel.locator('[data-replayed="true"] [data-testid="replay-badge"]')).toBeVisible();
  await axe(page);

  // Moving the replay to a later step brings the chat along.
  await page.goto(`/c/${root}?replay=${firstOfStep(6)}`);
  await expect(userMessage(page, 6).getByTestId('replay-marker')).toBeVisible();
  await expect.poll(() => isInside(userMessage(page, 6), list)).toBe(true);
  await expect(panel.locator('[data-replayed="true"]')).toHaveAttribute('data-label', '6');
  await expect(panel.locator('[data-current="true"]')).toHaveAttribute('data-label', String(ROOT_STEPS));
});

test('Alt+↓ from a zoomed-out map frames the sibling path’s step at a readable zoom, its text on screen', async ({ page, baseURL, axe }) => {
  await signIn(page, baseURL!);
  await page.goto(`/c/${root}`);
  const panel = panelOf(page);
  const canvas = panel.getByTestId('trajectory-canvas');
  await panel.locator('[data-current="true"]').waitFor();
  // Zoom out to the overview: compact nodes, no card text.
  while ((await canvas.getAttribute('data-overview')) !== 'true') {
    await panel.locator('.react-flow__controls-zoomout').click();
  }
  await panel.getByRole('application').or(panel.locator('.react-flow[tabindex="0"]')).first().focus();
  // From "you are here" (step 8) back to step 5, where the path from step 3 is a sibling.
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Alt+ArrowDown');
  await page.waitForURL((url) => url.pathname === `/c/${branch}`);

  await expect(canvas).toHaveAttribute('data-overview', 'false');
  const current = panel.locator('[data-testid="trajectory-node"][data-current="true"]');
  await expect(current).toHaveAttribute('data-label', '5.1');
  await expect(current).toContainText('Another take on section 5');
  await expect.poll(() => isInside(current, panel.locator('.react-flow'))).toBe(true);
  await expect(current.getByTestId('here-badge')).toBeVisible();
  await axe(page);
});

test('an unsent draft survives a reload, per path, and a send clears it', async ({ page, baseURL, axe }) => {
  await signIn(page, baseURL!);
  await page.goto(`/c/${branch}`);
  const input = page.getByTestId('chat-input');
  await input.fill('todo: A thought I have not finished');
  await page.goto(`/c/${root}`);
  await expect(input).toHaveValue('');
  await input.fill('A draft for the root path');
  await page.reload();
  await expect(input).toHaveValue('A draft for the root path');
  await page.goto(`/c/${branch}`);
  await expect(input).toHaveValue('todo: A thought I have not finished');
  await axe(page);

  await input.press('Enter');
  await page.locator('[data-testid="message-assistant"][data-turn="6"]').waitFor();
  await page.reload();
  await page.locator('[data-testid="message-assistant"][data-turn="6"]').waitFor();
  await expect(input).toHaveValue('');
});

test('"Continue from here" by keyboard leaves the cursor in the composer', async ({ page, baseURL, axe }) => {
  await signIn(page, baseURL!);
  await page.goto(`/c/${root}`);
  const panel = panelOf(page);
  await panel.locator('[data-current="true"]').waitFor();
  await panel.locator('.react-flow[tabindex="0"]').focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  const button = page.getByTestId('trajectory-detail').getByTestId('continue-from-here');
  await button.waitFor();
  await button.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.searchParams.get('step') === '6');
  await expect(page.getByTestId('chat-input')).toBeFocused();
  await axe(page);
});

test('the compare page has the app’s header and a way back to the conversation', async ({ page, baseURL, axe }) => {
  await signIn(page, baseURL!);
  await page.goto(`/c/${root}/compare?a=${root}:5&b=${branch}:5`);
  await page.getByTestId('compare-view').waitFor();
  const header = page.getByRole('banner').first();
  await expect(header).toContainText('Trellis');
  await expect(header).toContainText('Compare');
  await expect(header).toContainText(email);
  const back = header.getByTestId('back-to-studio');
  await expect(back).toHaveAttribute('href', `/c/${root}`);
  await axe(page);
  await back.click();
  await page.waitForURL((url) => url.pathname === `/c/${root}`);
  await page.getByTestId('chat-panel').waitFor();
});

test.describe('on a phone', { tag: '@phone' }, () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the full-screen map of a 64-step family fills the screen, its controls in reach, its lane names apart', async ({ page, baseURL, axe }) => {
    const api = new ApiClient(baseURL!);
    const phoneEmail = uniqueEmail('phone-map');
    await api.signUp(phoneEmail, PASSWORD);
    const family = await makeLargeFamily(api);
    const signIn = await page.request.post('/api/auth/sign-in/email', { data: { email: phoneEmail, password: PASSWORD }, headers: { origin: baseURL! } });
    expect(signIn.ok()).toBe(true);
    await page.goto(`/c/${family.rootThreadId}`);
    const panel = panelOf(page);
    await panel.getByTestId('trajectory-node').first().waitFor();
    await page.getByTestId('trajectory-expand').click();
    await panel.getByTestId('trajectory-fullscreen').click();
    await expect(panel).toHaveAttribute('data-fullscreen', 'true');
    await page.waitForTimeout(400);

    const screen = page.viewportSize()!;
    const pane = (await panel.locator('.react-flow').boundingBox())!;
    expect(pane.x).toBeGreaterThanOrEqual(0);
    expect(pane.x + pane.width).toBeLessThanOrEqual(screen.width + 0.5);
    expect(pane.height).toBeGreaterThan(screen.height / 2);
    const names = await panel.getByTestId('lane-name').evaluateAll((spans) =>
      spans.map((span) => {
        const { x, y, width, height } = span.getBoundingClientRect();
        return { name: span.textContent ?? '', x, y, width, height };
      }),
    );
    expect(names.length).toBeGreaterThan(3);
    const overlapping: string[] = [];
    for (const [i, a] of names.entries()) {
      for (const b of names.slice(i + 1)) {
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        if (!apart) overlapping.push(`${a.name} / ${b.name}`);
      }
    }
    expect(overlapping).toEqual([]);
    // Nothing of the map's own frame is cut off: its header and zoom controls are on screen.
    for (const part of [panel.getByTestId('trajectory-fullscreen'), panel.locator('.react-flow__controls-fitview')]) {
      const box = (await part.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(screen.width + 0.5);
      expect(box.y + box.height).toBeLessThanOrEqual(screen.height + 0.5);
    }
    await page.screenshot({ path: test.info().outputPath('phone-full-screen-map.png') });
    await axe(page);
  });
});
