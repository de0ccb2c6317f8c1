/**
 * What a person sees when they choose a step, in Chromium against a production build: a replay
 * brings the chat to the replayed step and marks it there (its own mark on the map, "you are here"
 * left on the live step), with axe-core on the page.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { ApiClient } from './support/api-client';
import { uniqueEmail } from './support/browser';
import { sendAndWait } from './support/make-large-family';

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
  await userMessage(page, 1).getByTestId('replay-marker').waitFor({ timeout: 60_000 });

  const list = page.getByTestId('message-list');
  await expect.poll(() => isInside(userMessage(page, 1), list)).toBe(true);
  await expect(userMessage(page, 1).getByTestId('replay-marker')).toBeVisible();
  await expect(page.getByTestId('replay-marker')).toHaveCount(1);
  // The latest step is out of view: the chat moved, it did not just mark.
  expect(await isInside(userMessage(page, ROOT_STEPS), list)).toBe(false);

  const panel = panelOf(page);
  // The map draws after the chat (its family read and layout): on a loaded machine that is seconds more.
  await expect(panel.locator('[data-replayed="true"]')).toHaveAttribute('data-label', '1', { timeout: 30_000 });
  // "You are here" did not follow the replay (the live step, 8, is off screen and not drawn).
  await expect(panel.locator('[data-testid="trajectory-node"][data-label="1"]')).toHaveAttribute('data-current', 'false');
  await expect(panel.locator('[data-replayed="true"] [data-testid="replay-badge"]')).toBeVisible();
  await axe(page);

  // Zoomed out to the overview (each step a compact label on its path's colour), the replayed step
  // keeps its mark.
  const zoomOut = panel.getByRole('button', { name: 'Zoom Out' });
  const compact = panel.locator('[data-testid="trajectory-node"][data-compact="true"]');
  await expect(async () => {
    await zoomOut.click();
    await expect(compact.first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  const replayed = panel.locator('[data-replayed="true"]');
  await expect(replayed).toHaveAttribute('data-compact', 'true');
  await expect(replayed).toHaveAttribute('data-label', '1');
  await expect(replayed.getByTestId('replay-badge')).toBeVisible();

  // Moving the replay to a later step brings the chat along.
  await page.goto(`/c/${root}?replay=${firstOfStep(6)}`);
  await expect(userMessage(page, 6).getByTestId('replay-marker')).toBeVisible();
  await expect.poll(() => isInside(userMessage(page, 6), list)).toBe(true);
  await expect(panel.locator('[data-replayed="true"]')).toHaveAttribute('data-label', '6', { timeout: 30_000 });
  await expect(panel.locator('[data-testid="trajectory-node"][data-label="6"]')).toHaveAttribute('data-current', 'false');
});

test('Alt+↓ on the map opens the sibling path and frames its step at a readable zoom, with its text', async ({ page, baseURL, axe }) => {
  await signIn(page, baseURL!);
  await page.goto(`/c/${root}`);
  const panel = panelOf(page);
  const canvas = panel.locator('.react-flow');
  await panel.locator('[data-testid="trajectory-node"][data-current="true"]').waitFor({ timeout: 60_000 });
  await canvas.focus();
  // The first arrow focuses "you are here" (step 8); four more walk back to step 4, where the path
  // from step 3 is the sibling below.
  for (let press = 0; press < 5; press++) await page.keyboard.press('ArrowLeft');
  await expect(panel.locator('[data-testid="trajectory-node"][data-focused="true"]')).toHaveAttribute('data-label', '4');
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page).toHaveURL(new RegExp(`/c/${branch}(\\?|$)`));

  // The sibling's step: on screen, a full card (not the overview's label-only box), its message readable.
  const sibling = panel.locator(`[data-testid="trajectory-node"][data-node-id="${branch}:4"]`);
  await expect.poll(() => isInside(sibling, canvas), { timeout: 15_000 }).toBe(true);
  await expect(sibling).not.toHaveAttribute('data-compact', 'true');
  await expect(sibling).toContainText('Another take on section 4');
  await expect(panel.getByTestId('trajectory-canvas')).toHaveAttribute('data-overview', 'false');
  await axe(page);
});
