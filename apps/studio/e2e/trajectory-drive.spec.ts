/**
 * Reading and driving the trajectory panel, in Chromium, on the bench harness (the real panel with a
 * five-path family, no server): the drag handle and its remembered height, the full-screen map, fork
 * keys, the step popover's actions in reach at every size, a phone viewport, and a screenshot of
 * the full-screen map for the docs.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { test, expect } from './support/test';
import { assembleFamilyGraph } from '@trellis/domain';
import { FamilyBuilder } from '@trellis/domain/graph/testing';
import { startHarnessServer, type HarnessServer } from '../bench/harness-server';
import type { HarnessEvent } from '../bench/panel-harness';
import { showcaseScenario } from '../bench/synthetic-family';

const SCREENSHOT_DIR = process.env.TRELLIS_SCREENSHOT_DIR;

/** A root of four steps and six two-step alternatives to its first or second message. */
function tallFamily() {
  const family = new FamilyBuilder();
  const root = family.root('Soil microbiome review');
  for (let i = 1; i <= 4; i++)
    family.turn(root, { user_message: `Draft part ${i}`, reply_preview: 'Drafted.' });
  for (let b = 0; b < 6; b++) {
    const alternative = family.branch(root, b % 2, null, `Alternative ${b + 1}`);
    family.turn(alternative, { user_message: `Alternative ${b + 1}`, reply_preview: 'Drafted.' });
    family.turn(alternative, { user_message: `Alternative ${b + 1}, expanded`, reply_preview: 'Expanded.' });
  }
  const graph = assembleFamilyGraph({ requestedThreadId: root, ...family.rows() });
  return { graph, displayedThreadId: root, currentNodeId: `${root}:2` };
}

test.describe('driving the trajectory panel', () => {
  const scenario = showcaseScenario();
  const { graph, threads } = scenario;
  let server: HarnessServer;
  let browser: Browser;

  test.beforeAll(async ({ browser: workerBrowser }) => {
    browser = workerBrowser;
    server = await startHarnessServer();
  });
  test.afterAll(async () => {
    await server?.close();
  });

  async function open(viewport = { width: 1000, height: 760 }, page?: Page) {
    const target = page ?? (await browser.newPage({ viewport }));
    await target.goto(server.url);
    await target.waitForFunction(() => window.trajectoryHarness !== undefined);
    await target.evaluate(
      ([g, displayed, current]) =>
        window.trajectoryHarness.setProps({ graph: g, displayedThreadId: displayed, currentNodeId: current }),
      [graph, scenario.displayedThreadId, scenario.currentNodeId] as const,
    );
    await target.evaluate(() => window.trajectoryHarness.settle());
    const panel = target.getByTestId('trajectory-panel');
    return {
      page: target,
      panel,
      canvas: panel.locator('.react-flow'),
      body: panel.locator('[data-testid="trajectory-splitter"]').locator('xpath=preceding-sibling::div[1]'),
      card: (label: string) => panel.locator(`[data-testid="trajectory-node"][data-label="${label}"]`),
      focusedLabel: () => panel.locator('[data-focused="true"]').getAttribute('data-label'),
      events: () => target.evaluate<HarnessEvent[]>(() => window.trajectoryHarness.events.splice(0)),
      settle: () => target.evaluate(() => window.trajectoryHarness.settle(20)),
    };
  }

  async function height(locator: Locator): Promise<number> {
    return Math.round((await locator.boundingBox())?.height ?? 0);
  }

  /** React Flow's viewport transform, as drawn. */
  async function transform(panel: Locator): Promise<string> {
    return panel.locator('.react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform);
  }

  /** The smallest on-screen size of a card's text: its font size times the zoom it is drawn at. */
  async function smallestCardText(panel: Locator): Promise<number> {
    return panel.locator('[data-testid="trajectory-node"] p').evaluateAll((texts) => {
      const viewport = texts[0]?.closest<HTMLElement>('.react-flow__viewport');
      const zoom = Number(/scale\(([-\d.e]+)\)/.exec(viewport?.style.transform ?? '')?.[1] ?? Number.NaN);
      if (texts.length === 0 || !(zoom > 0)) throw new Error('no card text drawn');
      return Math.min(...texts.map((text) => Number.parseFloat(getComputedStyle(text).fontSize) * zoom));
    });
  }

  /**
   * Labels of the cards the zoom controls overlap on screen: each card's box as far as the canvas
   * shows it (the canvas clips what lies beyond its edges) against the controls' box.
   */
  async function cardsUnderControls(panel: Locator): Promise<string[]> {
    return panel.evaluate((root) => {
      const controls = root.querySelector('.react-flow__controls')?.getBoundingClientRect();
      const canvas = root.querySelector('.react-flow')?.getBoundingClientRect();
      const cards = [...root.querySelectorAll<HTMLElement>('[data-testid="trajectory-node"]')];
      if (controls === undefined || canvas === undefined || cards.length === 0)
        throw new Error('no zoom controls or no cards');
      return cards
        .filter((card) => {
          const drawn = card.getBoundingClientRect();
          const box = {
            left: Math.max(drawn.left, canvas.left),
            right: Math.min(drawn.right, canvas.right),
            top: Math.max(drawn.top, canvas.top),
            bottom: Math.min(drawn.bottom, canvas.bottom),
          };
          return (
            box.left < box.right &&
            box.top < box.bottom &&
            box.left < controls.right &&
            box.right > controls.left &&
            box.top < controls.bottom &&
            box.bottom > controls.top
          );
        })
        .map((card) => card.dataset.label ?? '');
    });
  }

  test('resizes with the drag handle, and the height survives a reload', async () => {
    const ui = await open();
    const before = await height(ui.body);
    const handle = await ui.panel.getByTestId('trajectory-splitter').boundingBox();
    if (!handle) throw new Error('no splitter');
    const x = handle.x + handle.width / 2;
    const y = handle.y + handle.height / 2;
    await ui.page.mouse.move(x, y);
    await ui.page.mouse.down();
    await ui.page.mouse.move(x, y + 60, { steps: 5 });
    await ui.page.mouse.move(x, y + 120, { steps: 5 });
    await ui.page.mouse.up();
    const dragged = await height(ui.body);
    expect(dragged).toBe(before + 120);
    // No size button matches a dragged height.
    expect(await ui.panel.locator('[data-testid^="trajectory-size-"][aria-pressed="true"]').count()).toBe(0);

    await ui.page.reload();
    const again = await open(undefined, ui.page);
    expect(await height(again.body)).toBe(dragged);
    // The keyboard moves it too.
    await again.panel.getByTestId('trajectory-splitter').focus();
    await again.page.keyboard.press('ArrowUp');
    expect(await height(again.body)).toBe(dragged - 24);
    await again.panel.getByTestId('trajectory-size-M').click();
    expect(await again.panel.getByTestId('trajectory-size-M').getAttribute('aria-pressed')).toBe('true');
    await ui.page.close();
  });

  test('refits on a drag of the handle and on S/M/L, keeps card text readable, and the controls cover no card', async () => {
    const ui = await open();
    // Card text at 11 px stays readable down to the fitted zoom floor (0.7): never below 7.5 px.
    const FLOOR_PX = 7.5;
    expect(await smallestCardText(ui.panel)).toBeGreaterThanOrEqual(FLOOR_PX);
    expect(await cardsUnderControls(ui.panel)).toEqual([]);

    const handle = await ui.panel.getByTestId('trajectory-splitter').boundingBox();
    if (!handle) throw new Error('no splitter');
    let before = await transform(ui.panel);
    await ui.page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await ui.page.mouse.down();
    await ui.page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2 + 140, { steps: 6 });
    await ui.page.mouse.up();
    await ui.settle();
    expect(await transform(ui.panel), 'after a drag').not.toBe(before);
    expect(await smallestCardText(ui.panel), 'after a drag').toBeGreaterThanOrEqual(FLOOR_PX);
    expect(await cardsUnderControls(ui.panel), 'after a drag').toEqual([]);

    for (const size of ['S', 'M', 'L'] as const) {
      before = await transform(ui.panel);
      await ui.panel.getByTestId(`trajectory-size-${size}`).click();
      await ui.settle();
      expect(await transform(ui.panel), `size ${size}`).not.toBe(before);
      expect(await smallestCardText(ui.panel), `size ${size}`).toBeGreaterThanOrEqual(FLOOR_PX);
      expect(await cardsUnderControls(ui.panel), `size ${size}`).toEqual([]);
    }

    // The full-screen map and "fit view" keep the controls clear of the cards too.
    await ui.panel.getByTestId('trajectory-fullscreen').click();
    await ui.settle();
    expect(await cardsUnderControls(ui.panel), 'full screen').toEqual([]);
    await ui.panel.locator('.react-flow__controls-fitview').click();
    await ui.settle();
    expect(await cardsUnderControls(ui.panel), 'fit view').toEqual([]);

    // A family taller than the panel, its paths starting at the left edge (alternatives to the first
    // two messages): the framed view reaches the bottom-left corner, where the controls are.
    await ui.panel.getByTestId('trajectory-fullscreen').click();
    const tall = tallFamily();
    await ui.page.evaluate(
      ([g, displayed, current]) =>
        window.trajectoryHarness.setProps({ graph: g, displayedThreadId: displayed, currentNodeId: current }),
      [tall.graph, tall.displayedThreadId, tall.currentNodeId] as const,
    );
    for (const size of ['S', 'M', 'L'] as const) {
      await ui.panel.getByTestId(`trajectory-size-${size}`).click();
      await ui.settle();
      expect(await smallestCardText(ui.panel), `tall family, size ${size}`).toBeGreaterThanOrEqual(FLOOR_PX);
      expect(await cardsUnderControls(ui.panel), `tall family, size ${size}`).toEqual([]);
    }
    // "Fit view" frames the whole tall family: below the readable zoom the map turns into its
    // overview (compact nodes: label and path colour), and every step is inside the canvas.
    await ui.panel.locator('.react-flow__controls-fitview').click();
    await ui.settle();
    expect(
      await ui.panel.getByTestId('trajectory-canvas').getAttribute('data-overview'),
      'fit view is the overview',
    ).toBe('true');
    const pane = await ui.panel.locator('.react-flow').boundingBox();
    if (!pane) throw new Error('no canvas');
    const drawn = await ui.panel.getByTestId('trajectory-node').evaluateAll((nodes) =>
      nodes.map((node) => {
        const { x, y, width, height } = node.getBoundingClientRect();
        return { x, y, width, height };
      }),
    );
    expect(drawn.length, 'every step drawn').toBe(tall.graph.nodes.length);
    for (const box of drawn) {
      expect(box.x >= pane.x - 1 && box.y >= pane.y - 1, 'inside the canvas').toBe(true);
      expect(
        box.x + box.width <= pane.x + pane.width + 1 && box.y + box.height <= pane.y + pane.height + 1,
      ).toBe(true);
    }
    // Zooming out goes on down to the overview's floor (one step per ~24 px), and stops there.
    const zoomOut = ui.panel.locator('.react-flow__controls-zoomout');
    for (let i = 0; i < 20 && (await zoomOut.isEnabled()); i++) {
      await zoomOut.click();
      await ui.settle();
    }
    expect(await zoomOut.isEnabled(), 'zoom out stops at the overview floor').toBe(false);
    const floorZoom = Number(/scale\(([-\d.e]+)\)/.exec(await transform(ui.panel))?.[1]);
    expect(floorZoom * 228, 'one step per ~24 px').toBeGreaterThanOrEqual(23.5);
    await ui.page.close();
  });

  test('opens a full-screen map with the button and with F, and leaves it with Escape', async () => {
    const ui = await open();
    await ui.panel.getByTestId('trajectory-fullscreen').click();
    expect(await ui.panel.getAttribute('data-fullscreen')).toBe('true');
    const box = await ui.panel.boundingBox();
    expect([box?.width, box?.height]).toEqual([1000, 760]);
    await ui.settle();
    // The whole family fits on the big map at a readable zoom: every card is drawn.
    expect(await ui.panel.getByTestId('trajectory-node').count()).toBe(graph.nodes.length);
    // Into docs/ when TRELLIS_SCREENSHOT_DIR names it, else into a temporary folder.
    const dir = SCREENSHOT_DIR ?? (await mkdtemp(path.join(tmpdir(), 'trellis-shots-')));
    await ui.page.screenshot({ path: path.join(dir, 'trajectory-fullscreen.png') });

    await ui.canvas.focus();
    await ui.page.keyboard.press('Escape');
    expect(await ui.panel.getAttribute('data-fullscreen')).toBe('false');
    await ui.canvas.focus();
    await ui.page.keyboard.press('f');
    expect(await ui.panel.getAttribute('data-fullscreen')).toBe('true');
    await ui.page.keyboard.press('F');
    expect(await ui.panel.getAttribute('data-fullscreen')).toBe('false');
    await ui.page.close();
  });

  test('jumps between the forks of the displayed path with [ and ], and switches to a sibling path with Alt+↑/↓', async () => {
    const ui = await open();
    await ui.canvas.focus();
    await ui.page.keyboard.press('ArrowLeft');
    expect(await ui.focusedLabel()).toBe('5.1.1');
    const visited: (string | null)[] = [];
    for (const key of ['[', '[', '[', ']', ']']) {
      await ui.page.keyboard.press(key);
      visited.push(await ui.focusedLabel());
    }
    // The displayed path forks after step 2 (policy's and bacteria's parents) and after 3.1.
    expect(visited).toEqual(['3.1', '2', '2', '3.1', '3.1']);
    await ui.events();

    // At 3.1 the siblings are the bacteria path (4.1) and the displayed fungi path (4.1.1).
    await ui.page.keyboard.press('Alt+ArrowUp');
    await ui.page.keyboard.press('Alt+ArrowDown');
    expect(await ui.events()).toEqual([{ kind: 'open', id: threads.bacteria }]);

    // The path's other fork, after step 2: the siblings are the root path (3) and the displayed
    // path's 3.1; Alt+↑/↓ there switches to the root path, not to a sibling of 3.1.
    await ui.page.keyboard.press('[');
    expect(await ui.focusedLabel()).toBe('2');
    await ui.page.keyboard.press('Alt+ArrowUp');
    await ui.page.keyboard.press('Alt+ArrowDown');
    expect(await ui.events()).toEqual([{ kind: 'open', id: threads.root }]);
    await ui.page.close();
  });

  test('opens the step popover with its actions at the top, focused, and in reach at every panel size', async () => {
    const ui = await open({ width: 1000, height: 760 });
    for (const size of ['S', 'M', 'L', 'full'] as const) {
      if (size === 'full') await ui.panel.getByTestId('trajectory-fullscreen').click();
      else await ui.panel.getByTestId(`trajectory-size-${size}`).click();
      await ui.panel.locator('.react-flow__controls-fitview').click();
      await ui.settle();
      await ui.card('4.2').click();
      const detail = ui.page.getByTestId('trajectory-detail');
      const action = detail.getByTestId('continue-from-here');
      const [outer, inner] = [await detail.boundingBox(), await action.boundingBox()];
      if (!outer || !inner) throw new Error(`no popover at size ${size}`);
      expect(inner.y + inner.height, `size ${size}`).toBeLessThanOrEqual(outer.y + outer.height);
      expect(await detail.evaluate((el) => el.scrollTop)).toBe(0);
      expect(await action.evaluate((el) => el === document.activeElement)).toBe(true);
      await ui.page.keyboard.press('Escape');
      expect(await detail.count()).toBe(0);
    }
    await ui.page.close();
  });

  test('works on a phone: the popover and its actions fit the screen and are in view without scrolling, at every panel size', async () => {
    const PHONE = { width: 390, height: 844 };
    const ui = await open(PHONE);
    // The harness column is as wide as the phone.
    await ui.page.evaluate(() => document.documentElement.style.setProperty('--harness-width', '100vw'));
    await ui.settle();
    for (const size of ['S', 'M', 'L', 'full'] as const) {
      if (size === 'full') await ui.panel.getByTestId('trajectory-fullscreen').click();
      else await ui.panel.getByTestId(`trajectory-size-${size}`).click();
      await ui.panel.locator('.react-flow__controls-fitview').click();
      await ui.settle();
      // A step off "you are here", so every action applies to it.
      await ui.card('4.1.1').click();
      const detail = ui.page.getByTestId('trajectory-detail');
      const outer = await detail.boundingBox();
      if (!outer) throw new Error(`no popover at size ${size}`);
      for (const name of ['Close step details', 'Continue from here', 'Compare with…']) {
        const action = detail.getByRole('button', { name });
        const box = await action.boundingBox();
        if (!box) throw new Error(`no ${name} at size ${size}`);
        // On the screen, and inside the popover's visible part.
        expect(box.x, `${name} at ${size}`).toBeGreaterThanOrEqual(0);
        expect(box.y, `${name} at ${size}`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${name} at ${size}`).toBeLessThanOrEqual(PHONE.width);
        expect(box.y + box.height, `${name} at ${size}`).toBeLessThanOrEqual(PHONE.height);
        expect(box.y + box.height, `${name} at ${size}`).toBeLessThanOrEqual(outer.y + outer.height);
        expect(box.x + box.width, `${name} at ${size}`).toBeLessThanOrEqual(outer.x + outer.width);
      }
      // Nothing had to scroll to get there: not the popover, not the page.
      expect(await detail.evaluate((el) => el.scrollTop), `size ${size}`).toBe(0);
      expect(await ui.page.evaluate(() => [window.scrollX, window.scrollY]), `size ${size}`).toEqual([0, 0]);
      const overflow = await ui.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `size ${size}`).toBeLessThanOrEqual(0);
      // The actions work from there: Compare with… starts picking the second step.
      await detail.getByRole('button', { name: 'Compare with…' }).click();
      await ui.panel.getByTestId('compare-picking').waitFor();
      expect(await detail.count(), `size ${size}`).toBe(0);
      await ui.panel.getByTestId('compare-picking').getByRole('button', { name: 'Cancel' }).click();
      await ui.panel.getByTestId('compare-picking').waitFor({ state: 'detached' });
    }
    await ui.page.close();
  });
  test("draws each lane's name at its start, with a star on a starred path", async () => {
    const ui = await open();
    const starred = {
      ...graph,
      threads: graph.threads.map((thread) =>
        thread.thread_id === threads.policy ? { ...thread, starred: true } : thread,
      ),
    };
    await ui.page.evaluate((g) => window.trajectoryHarness.setProps({ graph: g }), starred);
    await ui.panel.getByTestId('trajectory-size-L').click();
    await ui.panel.locator('.react-flow__controls-fitview').click();
    await ui.settle();
    const names = ui.panel.getByTestId('lane-name');
    expect((await names.allTextContents()).sort()).toEqual(
      ['Bacteria only', 'Fungal networks', 'Soil microbiome review', '★Starred: Policy brief'].sort(),
    );
    expect(await names.and(ui.page.locator('[data-starred="true"]')).textContent()).toBe(
      '★Starred: Policy brief',
    );
    await ui.page.close();
  });
});
