import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleFamilyGraph } from './assemble';
import { activePathGuide, type PathGuideStep } from './guide';
import { buildFamily, familyOpsArbitrary, FamilyBuilder } from './testing';

const brief = (steps: PathGuideStep[]) =>
  steps.map((step) => [
    step.label,
    step.thread_id,
    step.alternatives.map((alt) => [alt.label, alt.thread_id]),
  ]);

/**
 * root 1..5; a = root@3 (4.1, 5.1); b = root@2 (3.2); c = a@4 (5.1.1); s = a@5 (a stub continuing the tip: 6.1);
 * gone = root@1, soft-deleted.
 */
function sampleFamily() {
  const family = new FamilyBuilder();
  const root = family.root('Root');
  family.turns(root, 5);
  const a = family.branch(root, 3, null, 'A');
  family.turns(a, 2);
  const b = family.branch(root, 2, null, 'B');
  family.turn(b);
  const c = family.branch(a, 4, null, 'C');
  family.turn(c);
  const s = family.branch(a, 5, null, 'S');
  const gone = family.branch(root, 1, null, 'Gone');
  family.turn(gone);
  family.softDelete(gone);
  return { family, root, a, b, c, s };
}

describe('activePathGuide', () => {
  it('lists the steps of the root path with the branches that continue from each', () => {
    const { family, root, a, b } = sampleFamily();
    const graph = assembleFamilyGraph({ requestedThreadId: root, ...family.rows() });
    expect(brief(activePathGuide(graph))).toEqual([
      ['1', root, []],
      ['2', root, [['3.2', b]]],
      ['3', root, [['4.1', a]]],
      ['4', root, []],
      ['5', root, []],
    ]);
  });

  it("offers the parent's continuation at the fork turn when a branch is displayed", () => {
    const { family, root, a, b, c, s } = sampleFamily();
    const graph = assembleFamilyGraph({ requestedThreadId: a, ...family.rows() });
    const steps = activePathGuide(graph);
    expect(brief(steps)).toEqual([
      ['1', root, []],
      ['2', root, [['3.2', b]]],
      ['3', root, [['4', root]]],
      ['4.1', a, [['5.1.1', c]]],
      ['5.1', a, [['6.1', s]]],
    ]);
    expect(steps[2]).toEqual({
      turn_index: 3,
      node_id: `${root}:3`,
      label: '3',
      thread_id: root,
      alternatives: [{ thread_id: root, label: '4', title: 'Root' }],
    });
  });

  it('follows a nested lineage and can be asked for another displayed thread', () => {
    const { family, root, a, b, c } = sampleFamily();
    const graph = assembleFamilyGraph({ requestedThreadId: root, ...family.rows() });
    expect(brief(activePathGuide(graph, { displayedThreadId: c }))).toEqual([
      ['1', root, []],
      ['2', root, [['3.2', b]]],
      ['3', root, [['4', root]]],
      ['4.1', a, [['5.1', a]]],
      ['5.1.1', c, []],
    ]);
  });

  it('lists several alternatives at one step in creation order, stubs included', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 2);
    const first = family.branch(root, 1);
    family.turn(first);
    const second = family.branch(root, 1);
    const displayed = family.branch(root, 1);
    family.turn(displayed);
    const graph = assembleFamilyGraph({ requestedThreadId: displayed, ...family.rows() });
    expect(brief(activePathGuide(graph))).toEqual([
      [
        '1',
        root,
        [
          ['2', root],
          ['2.1', first],
          ['2.2', second],
        ],
      ],
      ['2.3', displayed, []],
    ]);
  });

  it('offers no continuation when the parent never continued past a tip fork', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 2);
    const tip = family.branch(root, 2);
    family.turn(tip);
    const graph = assembleFamilyGraph({ requestedThreadId: tip, ...family.rows() });
    expect(brief(activePathGuide(graph))).toEqual([
      ['1', root, []],
      ['2', root, []],
      ['3', tip, []],
    ]);
  });

  it('does not offer a soft-deleted ancestor as an alternative', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 2);
    const deleted = family.branch(root, 1);
    family.turns(deleted, 2);
    const child = family.branch(deleted, 2);
    family.turn(child);
    family.softDelete(deleted);
    const graph = assembleFamilyGraph({ requestedThreadId: child, ...family.rows() });
    expect(brief(activePathGuide(graph))).toEqual([
      ['1', root, [['2', root]]],
      ['2.1', deleted, []],
      ['3.1.1', child, []],
    ]);
  });

  it('starts at the first step of a path forked from the empty start', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 2);
    const retry = family.branch(root, 0);
    family.turn(retry);
    const graph = assembleFamilyGraph({ requestedThreadId: retry, ...family.rows() });
    expect(brief(activePathGuide(graph))).toEqual([['1.1', retry, []]]);
  });

  it('walks the active path and offers every live path that leaves it, once, at its fork step', () => {
    const scenario = fc.record({
      ops: familyOpsArbitrary({ withDeletes: true, maxOps: 50 }),
      pick: fc.nat(),
    });
    fc.assert(
      fc.property(scenario, ({ ops, pick }) => {
        const { builder } = buildFamily(ops);
        const requested = builder.threadIds[pick % builder.threadIds.length]!;
        const graph = assembleFamilyGraph({ requestedThreadId: requested, ...builder.rows() });
        const steps = activePathGuide(graph);
        const active = graph.nodes
          .filter((node) => node.is_on_active_path)
          .sort((x, y) => x.turn_index - y.turn_index);
        expect(steps.map((step) => [step.node_id, step.label])).toEqual(
          active.map((node) => [node.id, node.label]),
        );

        const parentOf = new Map(graph.threads.map((thread) => [thread.thread_id, thread.parent_thread_id]));
        const lineage = new Set<string>();
        for (let id: string | null | undefined = requested; id != null; id = parentOf.get(id))
          lineage.add(id);
        const stepAt = new Map(steps.map((step) => [`${step.thread_id}:${step.turn_index}`, step]));
        for (const thread of graph.threads) {
          if (thread.parent_thread_id === null || lineage.has(thread.thread_id) || thread.is_deleted)
            continue;
          const step = stepAt.get(`${thread.parent_thread_id}:${thread.branch_point_turn}`);
          const offered = steps
            .flatMap((each) => each.alternatives)
            .filter((alt) => alt.thread_id === thread.thread_id);
          expect(offered).toHaveLength(step === undefined ? 0 : 1);
          if (step !== undefined)
            expect(step.alternatives.map((alt) => alt.thread_id)).toContain(thread.thread_id);
        }
        const nodeLabels = new Set(graph.nodes.map((node) => node.label));
        for (const step of steps) {
          const labels = step.alternatives.map((alt) => alt.label);
          expect(new Set(labels).size).toBe(labels.length);
          for (const alt of step.alternatives) {
            if (alt.thread_id === step.thread_id) expect(nodeLabels.has(alt.label)).toBe(true);
            else expect(lineage.has(alt.thread_id)).toBe(false);
          }
        }
      }),
    );
  });
});
