/**
 * Trajectory overview benchmark : the pure work behind
 * "Fit view" — the layout (domain flow with stacked alternatives and folds, pixel geometry) and the
 * overview's framing — for a 5,000-step family and a 500-step one, timed side by side in alternating
 * rounds. Each family is the graph the studio receives for it: the graph endpoint's answer
 * (assembleFamilyGraph with its default node cap, outside the timing; the endpoint's own cost is
 * `graph.p95_ratio_5000_over_500`). Goal: `trajectory.overview_ms_ratio_5000_over_500` ≤ 2.
 *
 * Run from the repo root: node --import tsx apps/studio/bench/overview.ts — prints one JSON object.
 */
import { assembleFamilyGraph, DEFAULT_MAX_GRAPH_NODES, type FamilyGraph } from '@trellis/domain';
import { fitOverview, framesEveryStep } from '../src/components/trajectory/overview';
import { displayedTip, layoutTrajectory, nodeRect } from '../src/components/trajectory/trajectory-layout';
import { syntheticScenario, type PanelScenario } from './synthetic-family';

const quick = process.env.BENCH_QUICK === '1';
const ROUNDS = quick ? 15 : 61;
const REPEAT = 5;
/** Full screen at 1440 × 900, less the header and the controls bar. */
const SIZE = { width: 1440, height: 900 - 36 - 36 };

/** The graph the endpoint answers for a family of `steps` (the same synthetic families as the panel bench). */
function received(steps: number): PanelScenario {
  const scenario = syntheticScenario(steps);
  return scenario.graph.nodes.length <= DEFAULT_MAX_GRAPH_NODES ? scenario : { ...scenario, graph: capped(scenario.graph) };
}

function capped(graph: FamilyGraph): FamilyGraph {
  // Rebuild rows from the full graph and assemble again with the endpoint's default cap.
  const threads = graph.threads.map((t) => ({
    thread_id: t.thread_id,
    parent_thread_id: t.parent_thread_id,
    branch_point_turn: t.branch_point_turn,
    reason: t.reason,
    title: t.title,
    created_at: t.created_at,
    deleted_at: null,
  }));
  const turns = graph.nodes.map((n) => ({
    thread_id: n.thread_id,
    turn_index: n.turn_index,
    user_message: n.user_message,
    reply_preview: n.reply_preview,
    tool_count: n.tool_count,
    captured_at: n.captured_at,
    artifact_count: n.artifact_count,
  }));
  return assembleFamilyGraph({ requestedThreadId: graph.thread_id, threads, turns });
}

function overview(scenario: PanelScenario): boolean {
  const layout = layoutTrajectory(scenario.graph, {
    displayedThreadId: scenario.displayedThreadId,
    currentNodeId: scenario.currentNodeId,
  });
  const tip = displayedTip(layout);
  const focus = tip === null ? null : nodeRect(layout.nodeById.get(tip)!);
  return framesEveryStep(layout, fitOverview(layout, SIZE, focus), SIZE);
}

function timeOnce(scenario: PanelScenario): number {
  const start = performance.now();
  for (let i = 0; i < REPEAT; i++) overview(scenario);
  return (performance.now() - start) / REPEAT;
}

const families = { 500: received(500), 5000: received(5000) } as const;
for (let i = 0; i < 5; i++) for (const f of Object.values(families)) timeOnce(f);
const samples: Record<'500' | '5000', number[]> = { 500: [], 5000: [] };
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? (['500', '5000'] as const) : (['5000', '500'] as const);
  for (const size of order) samples[size].push(timeOnce(families[size]));
}
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round2 = (n: number) => Math.round(n * 100) / 100;
const ratio = round2(p50(samples[5000]) / p50(samples[500]));
console.log(
  JSON.stringify({
    name: 'studio.trajectory_overview',
    unit: 'ms',
    measure: 'layoutTrajectory + fitOverview on the graph the endpoint answers (p50 of alternating rounds)',
    steps_500: { p50: round2(p50(samples[500])), nodes: families[500].graph.nodes.length, truncated: families[500].graph.truncated, frames_every_step: overview(families[500]) },
    steps_5000: { p50: round2(p50(samples[5000])), nodes: families[5000].graph.nodes.length, truncated: families[5000].graph.truncated, frames_every_step: overview(families[5000]) },
    'trajectory.overview_ms_ratio_5000_over_500': { value: ratio, goal: '≤ 2', meets_goal: ratio <= 2 },
  }),
);
