/**
 * Trajectory panel benchmark: in Chromium, the time from a graph response to a
 * ready panel — every card in view rendered — for a 100-step and a 500-step family, in one run.
 * Goal: the 500-step time is at most twice the 100-step time.
 *
 * The page is the real TrajectoryPanel (production React, React Flow, the studio's CSS) mounted by a
 * bench-only harness (panel-harness.tsx). Each sample starts from the loading state, parses the
 * response text, hands the graph to the panel and waits frame by frame until every card that overlaps
 * the panel's viewport is in the DOM. Sizes are interleaved so drift hits both alike.
 *
 * Run from the repo root: node --import tsx apps/studio/bench/panel.ts — prints one JSON object.
 */
import { layoutTrajectory, nodeRect } from '../src/components/trajectory/trajectory-layout';
import { initialViewport, visibleIds } from '../src/components/trajectory/viewport';
import { launchChromium, startHarnessServer } from './harness-server';
import type { Measurement } from './panel-harness';
import { syntheticScenario, type PanelScenario } from './synthetic-family';

const SIZES = [100, 500] as const;
const WARMUP = 3;
const RUNS = 21;
/** The harness's canvas: 720 px wide, the panel's default 260 px tall (see panel-harness.tsx). */
const CANVAS = { width: 720, height: 260 };

/**
 * The same family, displayed at the path whose first view holds the most cards: both sizes are
 * measured at their busiest "you are here", so the larger family cannot win by showing less.
 */
function busiestView(scenario: PanelScenario): PanelScenario & { cardsInView: number } {
  let best: (PanelScenario & { cardsInView: number }) | null = null;
  for (const thread of scenario.graph.threads) {
    const tip = scenario.graph.nodes.filter((node) => node.thread_id === thread.thread_id).at(-1);
    if (tip === undefined) continue;
    const layout = layoutTrajectory(scenario.graph, {
      displayedThreadId: thread.thread_id,
      currentNodeId: tip.id,
    });
    const current = layout.nodes.find((node) => node.id === tip.id)!;
    const viewport = initialViewport({
      bounds: layout.bounds,
      size: CANVAS,
      focus: nodeRect(current),
      padding: 24,
      minZoom: 0.7,
      maxZoom: 1,
    });
    const cardsInView = visibleIds(
      layout.nodes.map((node) => ({ id: node.id, rect: nodeRect(node) })),
      viewport,
      CANVAS,
    ).length;
    if (best === null || cardsInView > best.cardsInView) {
      best = {
        graph: scenario.graph,
        displayedThreadId: thread.thread_id,
        currentNodeId: tip.id,
        cardsInView,
      };
    }
  }
  return best!;
}

const scenarios = new Map<number, PanelScenario>(
  SIZES.map((size) => [size, busiestView(syntheticScenario(size))]),
);
const server = await startHarnessServer(
  Object.fromEntries(
    SIZES.map((size) => [`/graph-${size}.json`, JSON.stringify(scenarios.get(size)!.graph)]),
  ),
);
const browser = await launchChromium();

const stats = (samples: readonly number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const round = (n: number) => Math.round(n * 100) / 100;
  return { p50: round(at(0.5)), p95: round(at(0.95)), min: round(sorted[0]!), runs: sorted.length };
};

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(server.url);
  await page.waitForFunction(() => window.trajectoryHarness !== undefined);

  const sample = async (size: number): Promise<Measurement> => {
    const scenario = scenarios.get(size)!;
    return page.evaluate(
      async ([url, displayed, current]) => {
        const text = await (await fetch(url)).text();
        return window.trajectoryHarness.measure(text, displayed, current ?? null);
      },
      [`/graph-${size}.json`, scenario.displayedThreadId, scenario.currentNodeId] as const,
    );
  };

  for (let i = 0; i < WARMUP; i++) for (const size of SIZES) await sample(size);
  const samples = new Map<number, Measurement[]>(SIZES.map((size) => [size, []]));
  for (let i = 0; i < RUNS; i++) {
    // Alternate which size goes first, so neither always follows the other.
    for (const size of i % 2 === 0 ? SIZES : [...SIZES].reverse())
      samples.get(size)!.push(await sample(size));
  }
  if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);

  const result = (size: number) => {
    const runs = samples.get(size)!;
    const last = runs.at(-1)!;
    return {
      ...stats(runs.map((run) => run.ms)),
      painted: stats(runs.map((run) => run.frameMs)),
      steps: scenarios.get(size)!.graph.nodes.length,
      cards: last.nodes,
      cards_in_view: last.cardsInView,
      cards_rendered: last.cardsRendered,
    };
  };
  const n100 = result(100);
  const n500 = result(500);
  console.log(
    JSON.stringify({
      name: 'studio.trajectory_panel',
      unit: 'ms',
      browser: `chromium ${browser.version()}`,
      measure:
        'graph response text → JSON.parse → panel → every card in view in the DOM (p50…); painted: the next animation frame',
      nodes_100: n100,
      nodes_500: n500,
      ratio_500_over_100: Math.round((n500.p50 / n100.p50) * 100) / 100,
      painted_ratio_500_over_100: Math.round((n500.painted.p50 / n100.painted.p50) * 100) / 100,
      goal: '500-node time ≤ 2× the 100-node time',
      meets_goal: n500.p50 <= 2 * n100.p50 && n500.painted.p50 <= 2 * n100.painted.p50,
    }),
  );
  await context.close();
} finally {
  await browser.close();
  await server.close();
}
