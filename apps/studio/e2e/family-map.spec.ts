// "A map that shows the whole family" and "Regenerations and edits stay with their step",
// on the family the issue was written about (64 steps, 13 paths, three regenerations of one reply),
// made through the REST API by support/make-large-family.ts (the family history-and-search.spec.ts
// uses), on the worker's studio (the production build with the offline model).
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { ApiClient } from './support/api-client';
import { uniqueEmail } from './support/browser';
import { makeLargeFamily, type LargeFamily } from './support/make-large-family';

const PASSWORD = 'correct horse battery';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

let family: LargeFamily;
let email: string;

test.beforeAll(async ({ baseURL }) => {
  if (!baseURL) throw new Error('the runner gives no baseURL');
  const api = new ApiClient(baseURL);
  email = uniqueEmail('family-map');
  await api.signUp(email, PASSWORD);
  family = await makeLargeFamily(api);
  expect([family.stepCount, family.threadIds.length]).toEqual([64, 13]);
});

async function openRoot(page: Page, baseURL: string): Promise<Locator> {
  const signIn = await page.request.post('/api/auth/sign-in/email', {
    data: { email, password: PASSWORD },
    headers: { origin: baseURL },
  });
  expect(signIn.ok()).toBe(true);
  await page.goto(`/c/${family.rootThreadId}`);
  const panel = page.getByTestId('trajectory-panel');
  await panel.getByTestId('trajectory-node').first().waitFor();
  return panel;
}

/** Every drawn map node lies inside the canvas. */
async function nodesInside(panel: Locator): Promise<{ drawn: number; outside: string[] }> {
  const pane = await panel.locator('.react-flow').boundingBox();
  if (!pane) throw new Error('no canvas');
  const boxes = await panel.getByTestId('trajectory-node').evaluateAll((nodes) =>
    nodes.map((node) => {
      const { x, y, width, height } = node.getBoundingClientRect();
      return { label: node.getAttribute('data-label') ?? '', x, y, width, height };
    }),
  );
  const outside = boxes.filter(
    (b) =>
      b.x < pane.x - 1 ||
      b.y < pane.y - 1 ||
      b.x + b.width > pane.x + pane.width + 1 ||
      b.y + b.height > pane.y + pane.height + 1,
  );
  return { drawn: boxes.length, outside: outside.map((b) => b.label) };
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  const isPhone = viewport.width < 768;
  // The phone's variant runs in the `phone` project (tagged), the desktop's in `desktop`.
  test.describe(`${viewport.width}×${viewport.height}`, { tag: isPhone ? '@phone' : [] }, () => {
    test.use({ viewport, ...(isPhone ? { hasTouch: true, isMobile: true } : {}) });

    test('three regenerations are one card with a stack of 3; Fit view frames every step', async ({
      page,
      baseURL,
      axe,
    }) => {
      const panel = await openRoot(page, baseURL!);
      if (isPhone) {
        // a phone starts with a compact strip, expanded on demand
        await expect(panel).toHaveAttribute('data-strip', 'true');
        await page.getByTestId('trajectory-expand').click();
        await expect(panel).toHaveAttribute('data-strip', 'false');
      }
      const regenerationNodes = panel.locator(
        family.regenerationIds.map((id) => `[data-node-id^="${id}:"]`).join(', '),
      );
      await expect(regenerationNodes).toHaveCount(0);

      await panel.locator('.react-flow__controls-fitview').click();
      await expect(panel.getByTestId('trajectory-canvas')).toHaveAttribute('data-overview', 'true');
      // the three regenerations of step 3's reply: one node, a stack of 3
      await expect(panel.locator('[data-stacked="3"]')).toHaveCount(1);
      await expect(panel.locator('[data-stacked]')).toHaveCount(1);
      // 64 steps, three of them stacked on one card
      await expect.poll(async () => (await nodesInside(panel)).drawn).toBe(family.stepCount - 3);
      expect((await nodesInside(panel)).outside).toEqual([]);
      // The overview is as readable to assistive technology as the cards: no serious or critical violation.
      await axe(page);

      await panel.getByTestId('trajectory-fullscreen').click();
      await expect.poll(async () => (await nodesInside(panel)).drawn).toBe(family.stepCount - 3);
      expect((await nodesInside(panel)).outside).toEqual([]);
      await expect(panel.locator('.react-flow__minimap')).toHaveCount(1);
      // The full-screen map's lane names: each path named, no two overlapping (by their boxes).
      const names = await panel.getByTestId('lane-name').evaluateAll((nodes) =>
        nodes.map((node) => {
          const { x, y, width, height } = node.getBoundingClientRect();
          return { name: node.textContent ?? '', x, y, width, height };
        }),
      );
      expect(names.length).toBeGreaterThan(1);
      const overlapping = names.flatMap((a, i) =>
        names
          .slice(i + 1)
          .filter((b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
          .map((b) => `${a.name} × ${b.name}`),
      );
      expect(overlapping).toEqual([]);
      // Nothing cut off: every lane name drawn lies inside the map, its left edge included.
      const pane = (await panel.locator('.react-flow').boundingBox())!;
      const cut = names
        .filter((n) => n.width > 0 && (n.x < pane.x - 0.5 || n.x + n.width > pane.x + pane.width + 0.5))
        .map((n) => `${n.name} at x=${Math.round(n.x)}…${Math.round(n.x + n.width)}`);
      expect(cut).toEqual([]);
      // The first lanes' names are whole on the first frame: the root's name is drawn, and not as an ellipsis alone.
      expect(names.some((n) => n.width >= 40)).toBe(true);
      await page.screenshot({ path: test.info().outputPath(`full-screen-map-${viewport.width}.png`) });
      await axe(page);
    });

    test("the reply's pager pages the regenerations and never lands on another path; the chat at step 3 brings step 3 into the map", async ({
      page,
      baseURL,
    }) => {
      const panel = await openRoot(page, baseURL!);
      if (isPhone) await page.getByTestId('trajectory-expand').click();
      const userAt3 = page.locator('[data-testid="message-user"][data-turn="3"]');
      await userAt3.waitFor();
      // Move nothing on the map, so it follows the chat.
      await userAt3.evaluate((row) => row.scrollIntoView({ block: 'start' }));
      const step3 = panel.locator(`[data-node-id="${family.rootThreadId}:3"]`);
      // The map pans to it (animated, and cards outside the view are not rendered): poll until it rests inside.
      await expect
        .poll(async () => {
          const pane = await panel.locator('.react-flow').boundingBox();
          const box = await step3.boundingBox();
          return pane !== null && box !== null && box.x >= pane.x && box.x + box.width <= pane.x + pane.width;
        })
        .toBe(true);

      const reply = page.locator('[data-testid="message-assistant"][data-turn="3"]');
      const position = reply.locator(
        '[data-testid="sibling-switcher"][data-place="reply"] [data-testid="sibling-position"]',
      );
      await expect(position).toHaveText('1/4');
      // the message's pager holds the path continued from step 2 (not the regenerations)
      await expect(userAt3.getByTestId('sibling-position')).toHaveText('1/2');
      const pages = [family.rootThreadId, ...family.regenerationIds];
      const walk: [direction: 'next' | 'prev', page: number][] = [
        ['next', 1],
        ['next', 2],
        ['next', 3],
        ['prev', 2],
        ['prev', 1],
        ['prev', 0],
      ];
      for (const [direction, to] of walk) {
        await reply.getByTestId(`sibling-${direction}`).click();
        await page.waitForURL((url) => url.pathname === `/c/${pages[to]}`);
        await expect(position).toHaveText(`${to + 1}/4`);
        // the same step, answered again: the question at step 3 is the root's, the message pager stays put
        await expect(userAt3.getByTestId('message-content')).toHaveText(/^Section 3\./);
        await expect(userAt3.getByTestId('sibling-position')).toHaveText('1/2');
      }
    });
  });
}
