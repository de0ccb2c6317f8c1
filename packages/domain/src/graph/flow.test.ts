import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleFamilyGraph } from './assemble';
import type { FamilyGraph } from './contracts';
import { buildFlowGraph, type FlowGraph } from './flow';
import { regeneratedTitle } from '../siblings/reply-alternatives';
import { buildFamily, familyOpsArbitrary, FamilyBuilder, shuffled, withExtraEdge } from './testing';

function graphOf(family: FamilyBuilder, requestedThreadId: string, maxNodes?: number): FamilyGraph {
  return assembleFamilyGraph({ requestedThreadId, ...family.rows(), maxNodes });
}

/** root(1..4) ─ a@2(3..4) ─ b@3(4) ; root ─ c@4 (stub) ; root ─ d@0(1) */
function sampleFamily() {
  const family = new FamilyBuilder();
  const root = family.root();
  family.turns(root, 4);
  const a = family.branch(root, 2, 'why not');
  family.turns(a, 2);
  const b = family.branch(a, 3);
  family.turn(b);
  const c = family.branch(root, 4, 'fresh');
  const d = family.branch(root, 0);
  family.turn(d);
  return { family, root, a, b, c, d };
}

/** Each node's grid cell: [id, type, step, lane]. */
const summary = (flow: FlowGraph) =>
  flow.nodes.map((node) => [node.id, node.type, node.data.turn_index, node.data.lane]);

describe('buildFlowGraph', () => {
  it('places commits at (step = turn, lane) with lanes in depth-first creation order', () => {
    const { family, root, a, b, c, d } = sampleFamily();
    const flow = buildFlowGraph(graphOf(family, b));
    expect(flow.lanes).toEqual({ [root]: 0, [a]: 1, [b]: 2, [c]: 3, [d]: 4 });
    expect(summary(flow)).toEqual([
      [`${root}:1`, 'commit', 1, 0],
      [`${root}:2`, 'commit', 2, 0],
      [`${root}:3`, 'commit', 3, 0],
      [`${root}:4`, 'commit', 4, 0],
      [`${a}:3`, 'commit', 3, 1],
      [`${a}:4`, 'commit', 4, 1],
      [`${b}:4`, 'commit', 4, 2],
      [`${c}:stub`, 'stub', 5, 3],
      [`${d}:1`, 'commit', 1, 4],
    ]);
  });

  it('emits structure only: no pixel position on any node', () => {
    const { family, b } = sampleFamily();
    const flow = buildFlowGraph(graphOf(family, b));
    for (const node of flow.nodes) expect(Object.keys(node).sort()).toEqual(['data', 'id', 'type']);
  });

  it('draws a stub head for a path with no turns, linked from its branch point', () => {
    const { family, root, c } = sampleFamily();
    const flow = buildFlowGraph(graphOf(family, c));
    const stub = flow.nodes.find((node) => node.type === 'stub');
    expect(stub).toEqual({
      id: `${c}:stub`,
      type: 'stub',
      data: {
        thread_id: c,
        parent_thread_id: root,
        reason: 'fresh',
        title: expect.any(String),
        turn_index: 5,
        label: '5',
        lane: 3,
        isDisplayed: true,
        isCurrent: false,
      },
    });
    expect(flow.edges.find((edge) => edge.target === `${c}:stub`)).toEqual({
      id: `${root}:4->${c}:stub`,
      source: `${root}:4`,
      target: `${c}:stub`,
      data: { kind: 'branch', reason: 'fresh', isDisplayed: true },
    });
  });

  it('draws no stub edge from the empty start', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turn(root);
    const retry = family.branch(root, 0);
    const flow = buildFlowGraph(graphOf(family, retry));
    expect(summary(flow)).toEqual([
      [`${root}:1`, 'commit', 1, 0],
      [`${retry}:stub`, 'stub', 1, 1],
    ]);
    expect(flow.edges).toEqual([]);
  });

  it('highlights the displayed path and marks the current node', () => {
    const { family, root, a, b } = sampleFamily();
    const graph = graphOf(family, b);
    const flow = buildFlowGraph(graph, { displayedThreadId: a, currentNodeId: `${root}:2` });
    const displayed = flow.nodes.filter((node) => node.data.isDisplayed).map((node) => node.id);
    expect(displayed).toEqual([`${root}:1`, `${root}:2`, `${a}:3`, `${a}:4`]);
    expect(flow.nodes.filter((node) => node.data.isCurrent).map((node) => node.id)).toEqual([`${root}:2`]);
    expect(flow.edges.filter((edge) => edge.data.isDisplayed).map((edge) => edge.id)).toEqual([
      `${root}:1->${root}:2`,
      `${root}:2->${a}:3`,
      `${a}:3->${a}:4`,
    ]);
    // By default the requested thread is the displayed one.
    const byDefault = buildFlowGraph(graph).nodes.filter((node) => node.data.isDisplayed);
    expect(byDefault.every((node) => node.type === 'commit' && node.data.is_on_active_path)).toBe(true);
    expect(byDefault).toHaveLength(graph.nodes.filter((node) => node.is_on_active_path).length);
  });

  it('gives no lane to a thread whose nodes were all dropped by the cap', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 2);
    const old = family.branch(root, 1);
    family.turn(old);
    const recent = family.branch(root, 2);
    family.turns(recent, 2);
    const flow = buildFlowGraph(graphOf(family, recent, 2));
    expect(flow.lanes).toEqual({ [recent]: 0 });
    expect(flow.nodes.some((node) => node.type === 'stub')).toBe(false);
  });

  it('keeps a second incoming edge on a node, in canonical order, without moving any node', () => {
    const { family, root, a, b } = sampleFamily();
    const graph = graphOf(family, b);
    const extra = withExtraEdge(graph, `${root}:1`, `${a}:4`);
    const flow = buildFlowGraph(extra.graph);
    expect(flow.nodes).toEqual(buildFlowGraph(graph).nodes);
    const into = flow.edges.filter((edge) => edge.target === `${a}:4`).map((edge) => edge.id);
    expect(into).toEqual([extra.edge.id, `${a}:3->${a}:4`]);
  });

  describe('properties', () => {
    const scenario = fc
      .record({
        ops: familyOpsArbitrary({ withDeletes: true, maxOps: 50 }),
        pick: fc.nat(),
        cap: fc.option(fc.nat({ max: 40 }), { nil: undefined }),
      })
      .map(({ ops, pick, cap }) => {
        const { builder } = buildFamily(ops);
        const requested = builder.threadIds[pick % builder.threadIds.length]!;
        return graphOf(builder, requested, cap);
      });

    it('is deterministic whatever the order of the arrays, and no two nodes share a cell', () => {
      fc.assert(
        fc.property(scenario, fc.integer(), (graph, seed) => {
          const flow = buildFlowGraph(graph);
          const reordered = {
            ...graph,
            nodes: shuffled(graph.nodes, seed),
            edges: shuffled(graph.edges, seed + 1),
            threads: shuffled(graph.threads, seed + 2),
          };
          expect(buildFlowGraph(reordered)).toEqual(flow);
          const positions = flow.nodes.map((node) => `${node.data.turn_index},${node.data.lane}`);
          expect(new Set(positions).size).toBe(positions.length);
          const ids = new Set(flow.nodes.map((node) => node.id));
          for (const edge of flow.edges) expect(ids.has(edge.source) && ids.has(edge.target)).toBe(true);
        }),
      );
    });

    it('keeps every subtree in a contiguous band of lanes below its root, with lanes 0..n-1', () => {
      fc.assert(
        fc.property(scenario, (graph) => {
          const { lanes } = buildFlowGraph(graph);
          const laneValues = Object.values(lanes).sort((x, y) => x - y);
          expect(laneValues).toEqual(laneValues.map((_, index) => index));
          const parentOf = new Map(
            graph.threads.map((thread) => [thread.thread_id, thread.parent_thread_id]),
          );
          const isUnder = (threadId: string, ancestorId: string): boolean => {
            for (let id: string | null | undefined = threadId; id != null; id = parentOf.get(id)) {
              if (id === ancestorId) return true;
            }
            return false;
          };
          for (const [ancestorId, ancestorLane] of Object.entries(lanes)) {
            const band = Object.entries(lanes)
              .filter(([id]) => isUnder(id, ancestorId))
              .map(([, lane]) => lane)
              .sort((x, y) => x - y);
            expect(band[0]).toBe(ancestorLane);
            expect(band).toEqual(band.map((_, index) => ancestorLane + index));
          }
        }),
      );
    });
  });
});

describe('buildFlowGraph: stacked regenerations and collapsed forks', () => {
  /** root(1..4); three regenerations of step 3 (r1..r3); a path from step 2 (p, 3..4); one regeneration that went on (g). */
  function regenerated() {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 4);
    const again = { user_message: `message 3 of ${root}` };
    const alts = [1, 2, 3].map(() => {
      const id = family.branch(root, 2, 'regenerate', regeneratedTitle(3));
      family.turn(id, again);
      return id;
    });
    const p = family.branch(root, 2, 'edit');
    family.turns(p, 2);
    const g = family.branch(root, 2, 'regenerate', regeneratedTitle(3));
    family.turn(g, again);
    family.turn(g);
    return { family, root, alts, p, g };
  }

  it('stacks the alternatives on the reply they answer again: one card, a count, no lanes', () => {
    const { family, root, alts, p, g } = regenerated();
    const flow = buildFlowGraph(graphOf(family, root));
    expect(flow.lanes).toEqual({ [root]: 0, [p]: 1, [g]: 2 });
    expect(flow.nodes.some((node) => alts.includes(node.data.thread_id))).toBe(false);
    expect(flow.edges.some((edge) => alts.some((id) => edge.target.startsWith(id)))).toBe(false);
    const card = flow.nodes.find((node) => node.id === `${root}:3`);
    expect(card?.type === 'commit' && card.data.stackedReplies).toBe(3);
    expect(card?.type === 'commit' && card.data.isStackExpanded).toBe(false);
    // the fork at step 2 counts the paths drawn from it, not the stacked replies
    const fork = flow.nodes.find((node) => node.id === `${root}:2`);
    expect(fork?.type === 'commit' && fork.data.branchCount).toBe(2);
  });

  it('an expanded stack, or one holding the displayed path, gives each alternative its lane', () => {
    const { family, root, alts } = regenerated();
    const expanded = buildFlowGraph(graphOf(family, root), { expandedStacks: new Set([`${root}:3`]) });
    expect(alts.every((id) => expanded.lanes[id] !== undefined)).toBe(true);
    const onOne = buildFlowGraph(graphOf(family, alts[1]!));
    expect(alts.every((id) => onOne.lanes[id] !== undefined)).toBe(true);
    const card = onOne.nodes.find((node) => node.id === `${root}:3`);
    expect(card?.type === 'commit' && card.data.isStackExpanded).toBe(true);
  });

  it('a collapsed fork leaves out its branches and their subtrees, never the displayed path', () => {
    const { family, root, a, b, c, d } = sampleFamily();
    const collapsed = buildFlowGraph(graphOf(family, root), { collapsedForks: new Set([`${root}:2`, `${root}:0`]) });
    expect(Object.keys(collapsed.lanes).sort()).toEqual([root, c].sort());
    const fork = collapsed.nodes.find((node) => node.id === `${root}:2`);
    expect(fork?.type === 'commit' && fork.data.collapsedBranches).toBe(1);
    expect(fork?.type === 'commit' && fork.data.branchCount).toBe(1);
    // the same fold while b (under a) is displayed keeps a and b
    const onB = buildFlowGraph(graphOf(family, b), { collapsedForks: new Set([`${root}:2`]) });
    expect(onB.lanes[a]).toBeDefined();
    expect(onB.lanes[b]).toBeDefined();
    expect(onB.lanes[d]).toBeDefined();
  });
});
