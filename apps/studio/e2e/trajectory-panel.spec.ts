/**
 * The trajectory panel on its own, in Chromium: the real component mounted by the bench harness
 * (bench/panel-harness.tsx) with a five-path family, no server or database. The studio's own e2e
 * covers the panel wired to the page; this pins the panel's contract — what it draws, what each
 * gesture calls back, keyboard use and the first view.
 */
import type { FamilyGraph } from '@trellis/domain';
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './support/test';
import { startHarnessServer, type HarnessServer } from '../bench/harness-server';
import type { HarnessEvent } from '../bench/panel-harness';
import { showcaseScenario } from '../bench/synthetic-family';

class TrajectoryPanelHarness {
  constructor(readonly page: Page) {}

  get panel(): Locator {
    return this.page.getByTestId('trajectory-panel');
  }

  get canvas(): Locator {
    return this.panel.locator('.react-flow');
  }

  get detail(): Locator {
    return this.page.getByTestId('trajectory-detail');
  }

  card(label: string): Locator {
    return this.panel.locator(`[data-testid="trajectory-node"][data-label="${label}"]`);
  }

  async show(
    graph: FamilyGraph | undefined,
    displayedThreadId: string,
    currentNodeId: string | null,
    extra: { isLoading?: boolean; error?: string } = {},
  ): Promise<void> {
    await this.page.evaluate(
      ([g, displayed, current, isLoading, error]) =>
        window.trajectoryHarness.setProps({
          graph: g ?? undefined,
          displayedThreadId: displayed,
          currentNodeId: current,
          isLoading,
          error: error === null ? undefined : new Error(error),
        }),
      [
        graph ?? null,
        displayedThreadId,
        currentNodeId,
        extra.isLoading ?? false,
        extra.error ?? null,
      ] as const,
    );
    await this.page.evaluate(() => window.trajectoryHarness.settle());
  }

  /** Shows every card: React Flow renders only the cards in view. */
  async fitAll(): Promise<void> {
    await this.panel.getByTestId('trajectory-size-L').click();
    await this.panel.locator('.react-flow__controls-fitview').click();
    await this.page.evaluate(() => window.trajectoryHarness.settle(20));
  }

  async events(): Promise<HarnessEvent[]> {
    return this.page.evaluate(() => window.trajectoryHarness.events.splice(0));
  }

  async attribute(locator: Locator, name: string): Promise<string[]> {
    return locator.evaluateAll((elements, attr) => elements.map((el) => el.getAttribute(attr) ?? ''), name);
  }

  async transform(): Promise<string> {
    return this.panel.locator('.react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform);
  }

  async focusedLabel(): Promise<string | null> {
    return this.panel.locator('[data-focused="true"]').getAttribute('data-label');
  }
}

test.describe('the trajectory panel', () => {
  const scenario = showcaseScenario();
  const { graph, threads } = scenario;
  const idOf = (label: string) => {
    const node = graph.nodes.find((candidate) => candidate.label === label);
    if (node === undefined) throw new Error(`no step ${label}`);
    return node.id;
  };
  let server: HarnessServer;
  let ui: TrajectoryPanelHarness;

  test.beforeAll(async () => {
    server = await startHarnessServer();
  });
  test.afterAll(async () => {
    await server?.close();
  });
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 760, height: 700 });
    await page.goto(server.url);
    await page.waitForFunction(() => window.trajectoryHarness !== undefined);
    ui = new TrajectoryPanelHarness(page);
    await ui.show(graph, scenario.displayedThreadId, scenario.currentNodeId);
  });

  test('draws every step with its path-wide label, the displayed path marked and "you are here" on the current step', async () => {
    await ui.fitAll();
    const cards = ui.panel.getByTestId('trajectory-node');
    expect((await ui.attribute(cards, 'data-label')).sort()).toEqual(
      graph.nodes.map((node) => node.label).sort(),
    );
    expect(await ui.attribute(cards.and(ui.panel.locator('[data-on-path="true"]')), 'data-label')).toEqual([
      '1',
      '2',
      '3.1',
      '4.1.1',
      '5.1.1',
    ]);
    expect(await ui.attribute(ui.panel.locator('[data-current="true"]'), 'data-node-id')).toEqual([
      scenario.currentNodeId,
    ]);
    expect(await ui.attribute(ui.panel.getByTestId('trajectory-stub'), 'data-label')).toEqual(['5.3']);
    await expect
      .poll(() => ui.panel.getByTestId('trajectory-summary').textContent())
      .toBe('12 steps · 5 paths');
    // Fit view at L frames the 12 steps in the overview: compact cards with their step label.
    await expect(ui.panel.getByTestId('trajectory-canvas')).toHaveAttribute('data-overview', 'true');
    expect(await ui.card('3.1').textContent()).toBe('Step 3.1');
    // Zoomed in past the readable floor, the cards read again: off-path cards carry the question
    // only; displayed ones the reply too.
    const zoomIn = ui.panel.locator('.react-flow__controls-zoomin');
    for (
      let i = 0;
      i < 12 && (await ui.panel.getByTestId('trajectory-canvas').getAttribute('data-overview')) === 'true';
      i++
    ) {
      await zoomIn.click();
      await ui.page.evaluate(() => window.trajectoryHarness.settle(20));
    }
    await expect(ui.panel.getByTestId('trajectory-canvas')).toHaveAttribute('data-overview', 'false');
    expect(await ui.card('3.1').textContent()).toContain('Refocused sections');
    expect(await ui.card('4.2').textContent()).not.toContain('four-page brief');
    // Arrows of the displayed path in the brand colour, the others grey.
    const brandEdges = await ui.panel
      .locator('.react-flow__edge-path')
      .evaluateAll(
        (paths) => paths.filter((path) => (path as SVGPathElement).style.stroke === 'var(--brand)').length,
      );
    expect(brandEdges).toBe(4);
  });

  test('selects a displayed-path step on click, and only opens the detail card for a step of another path', async () => {
    await ui.fitAll();
    await ui.card('3.1').click();
    expect(await ui.events()).toEqual([{ kind: 'select', id: idOf('3.1') }]);
    expect(await ui.detail.getAttribute('data-node-id')).toBe(idOf('3.1'));
    expect(await ui.detail.getByTestId('open-path').count()).toBe(0);

    await ui.detail.getByRole('button', { name: 'Close step details' }).click();
    await ui.card('4.2').click();
    expect(await ui.events()).toEqual([]);
    expect(await ui.detail.textContent()).toContain('Rewrite for a policy audience');
    await ui.detail.getByTestId('open-path').click();
    await ui.detail.getByTestId('continue-from-here').click();
    expect(await ui.events()).toEqual([
      { kind: 'open', id: threads.policy },
      { kind: 'continue', id: idOf('4.2') },
    ]);
  });

  test('continues from a step on double-click, but not from "you are here"', async () => {
    await ui.fitAll();
    await ui.card('2').dblclick();
    expect((await ui.events()).filter((event) => event.kind === 'continue')).toEqual([
      { kind: 'continue', id: idOf('2') },
    ]);
    await ui.page.keyboard.press('Escape');
    await ui.card('5.1.1').dblclick();
    expect((await ui.events()).filter((event) => event.kind === 'continue')).toEqual([]);
    expect(await ui.detail.getByTestId('continue-from-here').isDisabled()).toBe(true);
  });

  test('moves between steps with the arrow keys, selects with Enter and closes with Escape', async () => {
    await ui.canvas.focus();
    await ui.page.keyboard.press('ArrowLeft');
    expect(await ui.focusedLabel()).toBe('5.1.1');
    const path: string[] = [];
    for (const key of [
      'ArrowLeft',
      'ArrowLeft',
      'ArrowLeft',
      'ArrowUp',
      'ArrowRight',
      'ArrowDown',
      'ArrowDown',
    ]) {
      await ui.page.keyboard.press(key);
      path.push((await ui.focusedLabel()) ?? '');
    }
    // ← along the branch and across to its parent; ↑/↓ between lanes at the nearest step.
    expect(path).toEqual(['4.1.1', '3.1', '2', '2', '3', '3.1', '4.1.1']);
    expect(await ui.canvas.getAttribute('aria-activedescendant')).toBe(`trajectory-step-${idOf('4.1.1')}`);

    await ui.page.keyboard.press('Enter');
    expect(await ui.detail.getAttribute('data-node-id')).toBe(idOf('4.1.1'));
    expect(await ui.events()).toEqual([{ kind: 'select', id: idOf('4.1.1') }]);
    await ui.page.keyboard.press('ArrowRight');
    expect(await ui.detail.getAttribute('data-node-id')).toBe(idOf('5.1.1'));
    await ui.page.keyboard.press('Escape');
    expect(await ui.detail.count()).toBe(0);
  });

  test('collapses to its header and opens again', async () => {
    const toggle = ui.panel.getByTestId('trajectory-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await ui.panel.locator('.react-flow').count()).toBe(0);
    await toggle.click();
    await ui.card('5.1.1').waitFor();
  });

  test('shows the loading, empty and error states', async ({ axe }) => {
    await ui.show(undefined, '', null, { isLoading: true });
    await ui.panel.getByTestId('trajectory-loading').waitFor();
    await axe(ui.page, '[data-testid="trajectory-panel"]');
    await ui.show({ ...graph, nodes: [], edges: [], threads: graph.threads.slice(0, 1) }, threads.root, null);
    expect(await ui.panel.getByTestId('trajectory-empty').textContent()).toContain(
      'Send a message to start the trajectory',
    );
    await ui.show(undefined, '', null, { error: 'offline' });
    await ui.panel.getByTestId('trajectory-error').waitFor();
    await axe(ui.page, '[data-testid="trajectory-panel"]');
  });

  test('frames the first view once per family: a refetch keeps the view, another family is framed anew', async () => {
    await ui.panel.locator('.react-flow__controls-zoomin').click();
    await ui.page.evaluate(() => window.trajectoryHarness.settle(20));
    const zoomedIn = await ui.transform();
    await ui.show(
      JSON.parse(JSON.stringify(graph)) as FamilyGraph,
      scenario.displayedThreadId,
      scenario.currentNodeId,
    );
    expect(await ui.transform()).toBe(zoomedIn);

    const other = showcaseScenario();
    const renamed = JSON.parse(JSON.stringify(other.graph).replaceAll('th_', 'tx_')) as FamilyGraph;
    await ui.show(
      renamed,
      other.displayedThreadId.replace('th_', 'tx_'),
      other.currentNodeId?.replace('th_', 'tx_') ?? null,
    );
    await ui.page.evaluate(() => window.trajectoryHarness.settle(5));
    expect(await ui.transform()).not.toBe(zoomedIn);
  });
});
