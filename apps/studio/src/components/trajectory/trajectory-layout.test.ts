import { assembleFamilyGraph, type FamilyGraph } from '@trellis/domain';
import { buildFamily, familyOpsArbitrary, FamilyBuilder, withExtraEdge } from '@trellis/domain/graph/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appliedFrom,
  CARD_WIDTH,
  displayedTip,
  HANDLE_Y,
  LANE_GAP,
  layoutTrajectory,
  OFF_PATH_CARD_HEIGHT,
  PATH_CARD_HEIGHT,
  reuseUnchanged,
  STEP_GAP,
  STUB_CARD_HEIGHT,
  summarizeTrajectory,
  withInteraction,
  type TrajectoryNode,
} from './trajectory-layout';

function graphOf(family: FamilyBuilder, requestedThreadId: string): FamilyGraph {
  return assembleFamilyGraph({ requestedThreadId, ...family.rows() });
}

/** root(1..4) ─ a@2(3..4) ─ b@3(4) ; root ─ c@4 (stub) */
function sampleFamily() {
  const family = new FamilyBuilder();
  const root = family.root();
  family.turns(root, 4);
  const a = family.branch(root, 2);
  family.turns(a, 2);
  const b = family.branch(a, 3);
  family.turn(b);
  const c = family.branch(root, 4, 'fresh');
  return { family, root, a, b, c };
}

const byId = (nodes: readonly TrajectoryNode[], id: string) => {
  const node = nodes.find((candidate) => candidate.id === id);
  if (node === undefined) throw new Error(`no node ${id}`);
  return node;
};

describe('layoutTrajectory', () => {
  it('puts every card on the (turn, lane) grid at a fixed width, so lanes stay straight', () => {
    const { family, root, a, b, c } = sampleFamily();
    const layout = layoutTrajectory(graphOf(family, b), { displayedThreadId: b, currentNodeId: null });
    expect(layout.nodes.map((node) => [node.id, node.type, node.position.x, node.position.y])).toEqual([
      [`${root}:1`, 'commit', 1 * STEP_GAP, 0],
      [`${root}:2`, 'commit', 2 * STEP_GAP, 0],
      [`${root}:3`, 'commit', 3 * STEP_GAP, 0],
      [`${root}:4`, 'commit', 4 * STEP_GAP, 0],
      [`${a}:3`, 'commit', 3 * STEP_GAP, LANE_GAP],
      [`${a}:4`, 'commit', 4 * STEP_GAP, LANE_GAP],
      [`${b}:4`, 'commit', 4 * STEP_GAP, 2 * LANE_GAP],
      [`${c}:stub`, 'stub', 5 * STEP_GAP, 3 * LANE_GAP],
    ]);
    expect(new Set(layout.nodes.map((node) => node.width))).toEqual(new Set([CARD_WIDTH]));
  });

  it('is the one owner of pixels: the gaps it declares are the gaps the cards land on', () => {
    const { family, root, a, c } = sampleFamily();
    const { nodes } = layoutTrajectory(graphOf(family, a), { displayedThreadId: a, currentNodeId: null });
    // The card design in flow pixels: 184 px cards, a 44 px gutter between columns, 22 px between lanes.
    expect([STEP_GAP, LANE_GAP]).toEqual([228, 94]);
    expect(byId(nodes, `${root}:1`).position).toEqual({ x: 228, y: 0 });
    expect(byId(nodes, `${a}:3`).position).toEqual({ x: 684, y: 94 });
    expect(byId(nodes, `${c}:stub`).position).toEqual({ x: 1140, y: 282 });
  });

  it('draws a second incoming edge on a card as a trail, without moving any card', () => {
    const { family, root, a, b } = sampleFamily();
    const options = { displayedThreadId: b, currentNodeId: null };
    const graph = graphOf(family, b);
    const extra = withExtraEdge(graph, `${root}:1`, `${a}:4`);
    const layout = layoutTrajectory(extra.graph, options);
    expect(layout.nodes).toEqual(layoutTrajectory(graph, options).nodes);
    const trail = layout.edges.find((edge) => edge.id === extra.edge.id);
    expect(trail).toMatchObject({ type: 'trail', source: `${root}:1`, data: { kind: 'branch', isCrossLane: true } });
  });

  it('gives displayed-path cards room for the reply and off-path cards the question only', () => {
    const { family, root, a, b, c } = sampleFamily();
    const { nodes } = layoutTrajectory(graphOf(family, b), { displayedThreadId: b, currentNodeId: null });
    // b's path: root 1..2, a 3, b 4.
    const onPath = nodes.filter((node) => node.data.isDisplayed).map((node) => node.id);
    expect(onPath).toEqual([`${root}:1`, `${root}:2`, `${a}:3`, `${b}:4`]);
    expect(byId(nodes, `${root}:1`).height).toBe(PATH_CARD_HEIGHT);
    expect(byId(nodes, `${root}:3`).height).toBe(OFF_PATH_CARD_HEIGHT);
    expect(byId(nodes, `${c}:stub`).height).toBe(STUB_CARD_HEIGHT);
    expect(PATH_CARD_HEIGHT).toBeLessThan(LANE_GAP);
  });

  it('follows the displayed thread it is given, not the thread the graph was requested for', () => {
    const { family, root, a, b } = sampleFamily();
    const { nodes, edges } = layoutTrajectory(graphOf(family, b), {
      displayedThreadId: root,
      currentNodeId: null,
    });
    expect(nodes.filter((node) => node.data.isDisplayed).map((node) => node.id)).toEqual(
      [1, 2, 3, 4].map((turn) => `${root}:${turn}`),
    );
    expect(byId(nodes, `${a}:3`).data.isDisplayed).toBe(false);
    expect(edges.filter((edge) => edge.data?.isDisplayed).map((edge) => edge.id)).toEqual([
      `${root}:1->${root}:2`,
      `${root}:2->${root}:3`,
      `${root}:3->${root}:4`,
    ]);
  });

  it('marks "you are here" on a commit or a stub', () => {
    const { family, root, b, c } = sampleFamily();
    const graph = graphOf(family, b);
    const atCommit = layoutTrajectory(graph, { displayedThreadId: b, currentNodeId: `${root}:2` });
    expect(atCommit.nodes.filter((node) => node.data.isCurrent).map((node) => node.id)).toEqual([
      `${root}:2`,
    ]);
    const atStub = layoutTrajectory(graph, { displayedThreadId: c, currentNodeId: `${c}:stub` });
    expect(atStub.nodes.filter((node) => node.data.isCurrent).map((node) => node.id)).toEqual([`${c}:stub`]);
    expect(byId(atStub.nodes, `${c}:stub`).data.isDisplayed).toBe(true);
  });

  it('types every edge as a trail, raises the displayed path above the rest and flags lane changes', () => {
    const { family, root, a, b, c } = sampleFamily();
    const { edges } = layoutTrajectory(graphOf(family, b), { displayedThreadId: b, currentNodeId: null });
    const edge = (id: string) => edges.find((candidate) => candidate.id === id);
    expect(new Set(edges.map((candidate) => candidate.type))).toEqual(new Set(['trail']));
    expect(edge(`${root}:2->${a}:3`)).toMatchObject({
      zIndex: 1,
      data: { kind: 'branch', isDisplayed: true, isCrossLane: true, sourceLane: 0 },
    });
    expect(edge(`${root}:2->${root}:3`)).toMatchObject({
      zIndex: 0,
      data: { kind: 'turn', isDisplayed: false, isCrossLane: false },
    });
    expect(edge(`${root}:4->${c}:stub`)).toMatchObject({ data: { kind: 'branch', isCrossLane: true } });
  });

  it('declares each handle on the dot row at the card edges, so unrendered cards still get straight edges', () => {
    const { family, b } = sampleFamily();
    const { nodes } = layoutTrajectory(graphOf(family, b), { displayedThreadId: b, currentNodeId: null });
    for (const node of nodes) {
      expect(node.handles).toEqual([
        expect.objectContaining({ type: 'target', x: 0, y: HANDLE_Y - 0.5, width: 1, height: 1 }),
        expect.objectContaining({
          type: 'source',
          x: CARD_WIDTH - 1,
          y: HANDLE_Y - 0.5,
          width: 1,
          height: 1,
        }),
      ]);
    }
  });

  it('never overlaps two cards and keeps every lane change in the gap between two columns', () => {
    fc.assert(
      fc.property(familyOpsArbitrary({ withDeletes: true, maxOps: 40 }), fc.nat(), (ops, pick) => {
        const { builder } = buildFamily(ops);
        const ids = builder.threadIds;
        const displayed = ids[pick % ids.length]!;
        const layout = layoutTrajectory(graphOf(builder, displayed), {
          displayedThreadId: displayed,
          currentNodeId: null,
        });
        const cells = new Set<string>();
        for (const node of layout.nodes) {
          const cell = `${node.position.x}/${node.position.y}`;
          expect(cells.has(cell)).toBe(false);
          cells.add(cell);
          expect(node.height!).toBeLessThan(LANE_GAP);
          expect(node.width!).toBeLessThan(STEP_GAP);
        }
        const position = new Map(layout.nodes.map((node) => [node.id, node.position]));
        for (const edge of layout.edges) {
          // An edge always links step t to step t + 1: its bend sits between the two columns.
          expect(position.get(edge.target)!.x - position.get(edge.source)!.x).toBe(STEP_GAP);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('withInteraction', () => {
  it('replaces only the focused, selected and dragged cards', () => {
    const { family, root, b } = sampleFamily();
    const { nodes } = layoutTrajectory(graphOf(family, b), { displayedThreadId: b, currentNodeId: null });
    const next = withInteraction(nodes, {
      focusedId: `${root}:1`,
      selectedId: `${root}:2`,
      dragged: new Map([[`${root}:3`, { x: 5, y: 6 }]]),
    });
    const changed = next.filter((node, i) => node !== nodes[i]).map((node) => node.id);
    expect(changed).toEqual([`${root}:1`, `${root}:2`, `${root}:3`]);
    expect(byId(next, `${root}:1`).data).toMatchObject({ isFocused: true, isSelected: false });
    expect(byId(next, `${root}:2`).data).toMatchObject({ isFocused: false, isSelected: true });
    expect(byId(next, `${root}:3`).position).toEqual({ x: 5, y: 6 });
  });
});

describe('reuseUnchanged', () => {
  it('keeps the previous object of every unchanged node, so a refetch re-renders only what changed', () => {
    const { family, root, b } = sampleFamily();
    const first = layoutTrajectory(graphOf(family, b), {
      displayedThreadId: b,
      currentNodeId: `${b}:4`,
    }).nodes;
    family.turn(b);
    const refetched = layoutTrajectory(graphOf(family, b), {
      displayedThreadId: b,
      currentNodeId: `${b}:5`,
    }).nodes;
    const merged = reuseUnchanged(first, refetched);
    const fresh = merged.filter((node) => !first.includes(node)).map((node) => node.id);
    expect(fresh).toEqual([`${b}:4`, `${b}:5`]);
    expect(merged.map((node) => node.id)).toEqual(refetched.map((node) => node.id));
    expect(byId(merged, `${root}:1`)).toBe(byId(first, `${root}:1`));
  });

  it('treats any changed field as a change', () => {
    const before = [{ id: 'x', data: { label: '1', tags: [1, 2] } }];
    expect(reuseUnchanged(before, [{ id: 'x', data: { label: '1', tags: [1, 2] } }])[0]).toBe(before[0]);
    expect(reuseUnchanged(before, [{ id: 'x', data: { label: '1', tags: [1, 3] } }])[0]).not.toBe(before[0]);
    expect(reuseUnchanged(before, [{ id: 'x', data: { label: '2', tags: [1, 2] } }])[0]).not.toBe(before[0]);
  });
});

describe('summarizeTrajectory', () => {
  it('counts steps and the paths one can open', () => {
    const { family, b } = sampleFamily();
    expect(summarizeTrajectory(graphOf(family, b)).text).toBe('7 steps · 4 paths');
    const lone = new FamilyBuilder();
    const root = lone.root();
    lone.turn(root);
    expect(summarizeTrajectory(graphOf(lone, root)).text).toBe('1 step · 1 path');
  });

  it('leaves a soft-deleted ancestor out of the path count', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 2);
    const a = family.branch(root, 1);
    family.turn(a);
    const b = family.branch(a, 2);
    family.softDelete(a);
    expect(summarizeTrajectory(graphOf(family, b))).toMatchObject({ paths: 2 });
  });
});

describe('lane names on the trajectory', () => {
  it("draws each lane's name on its first card only, with the lane's star", () => {
    const { family, root, a } = sampleFamily();
    const graph = graphOf(family, a);
    const starred: FamilyGraph = {
      ...graph,
      threads: graph.threads.map((thread) =>
        thread.thread_id === a ? { ...thread, starred: true } : thread,
      ),
    };
    const layout = layoutTrajectory(starred, { displayedThreadId: a, currentNodeId: null });
    const named = layout.nodes.flatMap((node) =>
      node.type === 'commit' && node.data.laneName !== null
        ? [[node.data.thread_id, node.data.turn_index, node.data.laneName, node.data.isStarred]]
        : [],
    );
    const titleOf = (id: string) => starred.threads.find((thread) => thread.thread_id === id)?.title;
    expect(named).toContainEqual([root, 1, titleOf(root), false]);
    expect(named).toContainEqual([a, 3, titleOf(a), true]);
    // One name per lane that owns a step.
    expect(new Set(named.map(([thread]) => thread)).size).toBe(named.length);
  });
});

describe('displayedTip', () => {
  it("is the displayed path's last step, a stub when the path owns no turn yet", () => {
    const { family, root, a, b, c } = sampleFamily();
    const graph = graphOf(family, b);
    const tipOf = (displayedThreadId: string) =>
      displayedTip(layoutTrajectory(graph, { displayedThreadId, currentNodeId: null }));
    expect(tipOf(b)).toBe(`${b}:4`);
    expect(tipOf(a)).toBe(`${a}:4`);
    expect(tipOf(root)).toBe(`${root}:4`);
    expect(tipOf(c)).toBe(`${c}:stub`);
    expect(displayedTip({ nodes: [] })).toBeNull();
  });

  it('finds every card by id in the layout', () => {
    const { family, b } = sampleFamily();
    const layout = layoutTrajectory(graphOf(family, b), { displayedThreadId: b, currentNodeId: null });
    expect([...layout.nodeById.values()]).toEqual(layout.nodes);
  });
});

describe('where an apply step came from', () => {
  function appliedFamily(sourceOf: (root: string, branch: string) => string) {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 3);
    const branch = family.branch(root, 1);
    family.turns(branch, 2);
    const { threads, turns } = family.rows();
    const applyStep = `${root}:3`;
    const source = sourceOf(root, branch);
    const rows = turns.map((turn) =>
      `${turn.thread_id}:${turn.turn_index}` === applyStep
        ? { ...turn, apply_provenance: { source_node_id: source, items: ['section Findings'] } }
        : turn,
    );
    const graph = assembleFamilyGraph({ requestedThreadId: root, threads, turns: rows });
    const layout = layoutTrajectory(graph, { displayedThreadId: root, currentNodeId: null });
    return { layout, step: graph.nodes.find((node) => node.id === applyStep)!, source };
  }

  it('names a drawn source by its label, links it and reads the items from its apply edge', () => {
    const { layout, step, source } = appliedFamily((_root, branch) => `${branch}:3`);
    expect(appliedFrom(layout, step)).toEqual({ nodeId: source, label: '3.1', summary: 'section Findings', isShown: true });
  });

  it('still names a source the graph does not hold (no edge), unlinked', () => {
    const { layout, step, source } = appliedFamily((_root, branch) => `${branch}:9`);
    expect(appliedFrom(layout, step)).toEqual({ nodeId: source, label: source, summary: null, isShown: false });
  });

  it('is null on a step that is no apply', () => {
    const { layout } = appliedFamily((_root, branch) => `${branch}:3`);
    const plain = [...layout.stepById.values()].find((node) => node.applied_from === null)!;
    expect(appliedFrom(layout, plain)).toBeNull();
  });
});
