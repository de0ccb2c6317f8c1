import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleFamilyGraph } from './assemble';
import { FamilyGraphSchema, type FamilyGraph } from './contracts';
import { buildFamily, familyOpsArbitrary, reduceFamilyRows, shuffled, type FamilyRows } from './testing';

/** A random family (with soft deletes), a requested thread in it, and a seed to shuffle the rows. */
const scenario = fc
  .record({ ops: familyOpsArbitrary({ withDeletes: true, maxOps: 50 }), pick: fc.nat(), seed: fc.integer() })
  .map(({ ops, pick, seed }) => {
    const { builder, rootId } = buildFamily(ops);
    const ids = builder.threadIds;
    const requestedThreadId = ids[pick % ids.length]!;
    const rows = builder.rows();
    return { rows, rootId, requestedThreadId, seed };
  });

function assemble(rows: FamilyRows, requestedThreadId: string, seed: number, maxNodes?: number): FamilyGraph {
  return assembleFamilyGraph({
    requestedThreadId,
    threads: shuffled(rows.threads, seed),
    turns: shuffled(rows.turns, seed + 1),
    maxNodes,
  });
}

/** [root … requested], from the rows (families built here are shallower than the walk-up cap). */
function lineage(rows: FamilyRows, threadId: string): string[] {
  const parentOf = new Map(rows.threads.map((thread) => [thread.thread_id, thread.parent_thread_id]));
  const chain: string[] = [];
  for (let id: string | null | undefined = threadId; id != null; id = parentOf.get(id)) chain.unshift(id);
  return chain;
}

/** Reference rule: visible iff on the requested lineage, or live with a visible parent. */
function expectedVisible(rows: FamilyRows, requestedThreadId: string): Set<string> {
  const onLineage = new Set(lineage(rows, requestedThreadId));
  const visible = new Set<string>();
  for (const thread of rows.threads) {
    const isParentVisible = thread.parent_thread_id === null || visible.has(thread.parent_thread_id);
    if (onLineage.has(thread.thread_id) || (isParentVisible && thread.deleted_at === null)) {
      visible.add(thread.thread_id);
    }
  }
  return visible;
}

describe('assembleFamilyGraph properties (random families of turns, branches and deletes)', () => {
  it('satisfies the contract, with unique ids, no dangling edge and at most one edge into a node', () => {
    fc.assert(
      fc.property(scenario, ({ rows, requestedThreadId, seed }) => {
        const graph = FamilyGraphSchema.parse(assemble(rows, requestedThreadId, seed));
        const nodeIds = graph.nodes.map((node) => node.id);
        expect(new Set(nodeIds).size).toBe(nodeIds.length);
        expect(new Set(graph.edges.map((edge) => edge.id)).size).toBe(graph.edges.length);
        const targets = graph.edges.map((edge) => edge.target);
        expect(new Set(targets).size).toBe(targets.length);
        const known = new Set(nodeIds);
        for (const edge of graph.edges) {
          expect(known.has(edge.source) && known.has(edge.target)).toBe(true);
          expect(edge.id).toBe(`${edge.source}->${edge.target}`);
        }
        for (const node of graph.nodes) expect(node.id).toBe(`${node.thread_id}:${node.turn_index}`);
        const labels = graph.nodes.map((node) => node.label);
        expect(new Set(labels).size).toBe(labels.length);
      }),
    );
  });

  it('has exactly one root, and shows exactly the threads the soft-delete rules leave visible', () => {
    fc.assert(
      fc.property(scenario, ({ rows, rootId, requestedThreadId, seed }) => {
        const graph = assemble(rows, requestedThreadId, seed);
        const threadIds = new Set(graph.threads.map((thread) => thread.thread_id));
        const roots = graph.threads.filter(
          (thread) => thread.parent_thread_id === null || !threadIds.has(thread.parent_thread_id),
        );
        expect(roots.map((thread) => thread.thread_id)).toEqual([rootId]);
        expect(graph.root_thread_id).toBe(rootId);
        expect(threadIds).toEqual(expectedVisible(rows, requestedThreadId));
        const owned = rows.turns.filter((turn) => threadIds.has(turn.thread_id));
        expect(graph.nodes).toHaveLength(owned.length);
      }),
    );
  });

  it('marks exactly the requested lineage as the active path', () => {
    fc.assert(
      fc.property(scenario, ({ rows, requestedThreadId, seed }) => {
        const graph = assemble(rows, requestedThreadId, seed);
        const chain = lineage(rows, requestedThreadId);
        const branchPoint = new Map(
          rows.threads.map((thread) => [thread.thread_id, thread.branch_point_turn]),
        );
        const onPath = (threadId: string, turnIndex: number): boolean => {
          const at = chain.indexOf(threadId);
          if (at < 0) return false;
          const next = chain[at + 1];
          return next === undefined || turnIndex <= (branchPoint.get(next) ?? 0);
        };
        for (const node of graph.nodes) {
          expect(node.is_on_active_path, node.id).toBe(onPath(node.thread_id, node.turn_index));
        }
        // Independently: the active nodes are one chain of edges back from the end of the path.
        const active = graph.nodes.filter((node) => node.is_on_active_path).map((node) => node.id);
        const incoming = new Map(graph.edges.map((edge) => [edge.target, edge.source]));
        const walked: string[] = [];
        for (let id = active[active.length - 1]; id !== undefined; id = incoming.get(id)) walked.unshift(id);
        const startsFromEmpty = chain.some((id, index) => index > 0 && branchPoint.get(id) === 0);
        if (!startsFromEmpty) expect(walked).toEqual(active);
      }),
    );
  });

  it('keeps the newest nodes under the cap and nothing else changes', () => {
    fc.assert(
      fc.property(scenario, fc.nat({ max: 60 }), ({ rows, requestedThreadId, seed }, maxNodes) => {
        const full = assemble(rows, requestedThreadId, seed);
        const graph = assemble(rows, requestedThreadId, seed, maxNodes);
        expect(graph.truncated).toBe(full.nodes.length > maxNodes);
        expect(graph.nodes).toHaveLength(Math.min(maxNodes, full.nodes.length));
        const kept = new Set(graph.nodes.map((node) => node.id));
        const age = (node: FamilyGraph['nodes'][number]): string => `${node.captured_at} ${node.id}`;
        const dropped = full.nodes.filter((node) => !kept.has(node.id));
        const oldestKept = graph.nodes.map(age).sort()[0];
        for (const node of dropped) expect(age(node) < (oldestKept ?? '\uffff')).toBe(true);
        expect(graph.nodes).toEqual(full.nodes.filter((node) => kept.has(node.id)));
        expect(graph.edges).toEqual(
          full.edges.filter((edge) => kept.has(edge.source) && kept.has(edge.target)),
        );
        expect(graph.threads).toEqual(full.threads);
      }),
    );
  });

  it('is deterministic whatever the order of the rows, and deleting never renumbers a step', () => {
    fc.assert(
      fc.property(scenario, fc.integer(), ({ rows, requestedThreadId, seed }, otherSeed) => {
        const graph = assemble(rows, requestedThreadId, seed);
        expect(assemble(rows, requestedThreadId, otherSeed)).toEqual(graph);
        const undeleted = {
          ...rows,
          threads: rows.threads.map((thread) => ({ ...thread, deleted_at: null })),
        };
        const labels = new Map(
          assemble(undeleted, requestedThreadId, seed).nodes.map((node) => [node.id, node.label]),
        );
        for (const node of graph.nodes) expect(node.label).toBe(labels.get(node.id));
      }),
    );
  });
});

/**
 * The same family with clocks that misbehave: every timestamp drawn from a dozen seconds, as Postgres
 * text with microseconds, so captured_at ties (to the millisecond and beyond), runs backwards within a
 * thread, and children can predate their parents.
 */
function retimed(rows: FamilyRows, seed: number): FamilyRows {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const at = (): string => {
    const ms = Date.UTC(2025, 0, 1) + Math.floor(random() * 12) * 1000 + Math.floor(random() * 3);
    const micros = String(Math.floor(random() * 1000)).padStart(3, '0');
    return new Date(ms).toISOString().replace('T', ' ').replace('Z', `${micros}+00`);
  };
  return {
    threads: rows.threads.map((thread) => ({ ...thread, created_at: at() })),
    turns: rows.turns.map((turn) => ({ ...turn, captured_at: at() })),
  };
}

describe('assembleFamilyGraph from the reduced rows the graph endpoint fetches', () => {
  const maxNodes = fc.oneof(fc.nat({ max: 12 }), fc.constant(10_000));

  function expectSameGraph(rows: FamilyRows, requestedThreadId: string, seed: number, cap: number): void {
    const full = assemble(rows, requestedThreadId, seed, cap);
    const reduced = reduceFamilyRows(rows, { requestedThreadId, maxNodes: cap });
    const fromReduced = assembleFamilyGraph({
      requestedThreadId,
      threads: shuffled(reduced.threads, seed + 2),
      turns: shuffled(reduced.turns, seed + 3),
      labelTurns: shuffled(reduced.labelTurns, seed + 4),
      maxNodes: cap,
    });
    expect(fromReduced).toEqual(full);
  }

  it('gives exactly the graph the complete rows give (newest turns, label witnesses, counts)', () => {
    fc.assert(
      fc.property(scenario, maxNodes, ({ rows, requestedThreadId, seed }, cap) => {
        expectSameGraph(rows, requestedThreadId, seed, cap);
      }),
      { numRuns: 300 },
    );
  });

  it('still does when clocks tie, run backwards and children predate their parents', () => {
    fc.assert(
      fc.property(scenario, maxNodes, fc.integer(), ({ rows, requestedThreadId, seed }, cap, clockSeed) => {
        expectSameGraph(retimed(rows, clockSeed), requestedThreadId, seed, cap);
      }),
      { numRuns: 300 },
    );
  });

  it('reads only what the answer needs: at most the cap plus the last millisecond, and two label rows per branch', () => {
    fc.assert(
      fc.property(scenario, fc.nat({ max: 12 }), ({ rows, requestedThreadId }, cap) => {
        const reduced = reduceFamilyRows(rows, { requestedThreadId, maxNodes: cap });
        // The builder's clock ticks a second per event: no ties, so exactly the cap.
        const visibleTurns = assemble(rows, requestedThreadId, 0, 10_000).nodes.length;
        expect(reduced.turns).toHaveLength(Math.min(cap, visibleTurns));
        expect(reduced.labelTurns.length).toBeLessThanOrEqual(2 * (rows.threads.length - 1));
      }),
    );
  });

  it('labels and counts come from the witnesses and counts, not from the rows present', () => {
    const { builder, rootId } = buildFamily([]);
    builder.turns(rootId, 5);
    const child = builder.branch(rootId, 2);
    builder.turns(child, 3);
    const tip = builder.branch(rootId, 5);
    const rows = builder.rows();
    const full = assembleFamilyGraph({ requestedThreadId: tip, threads: rows.threads, turns: rows.turns, maxNodes: 2 });
    const reduced = reduceFamilyRows(rows, { requestedThreadId: tip, maxNodes: 2 });
    expect(reduced.turns.map((turn) => `${turn.thread_id}:${turn.turn_index}`)).toEqual([
      `${child}:4`,
      `${child}:5`,
    ]);
    const graph = assembleFamilyGraph({ requestedThreadId: tip, ...reduced, maxNodes: 2 });
    expect(graph).toEqual(full);
    expect(graph.truncated).toBe(true);
    expect(graph.threads.map((thread) => [thread.suffix, thread.owned_turn_count])).toEqual([
      ['', 5],
      ['.1', 3],
      ['', 0],
    ]);
    expect(graph.edges).toEqual([
      { id: `${child}:4->${child}:5`, source: `${child}:4`, target: `${child}:5`, kind: 'turn', reason: null },
    ]);
  });
});
