import { describe, expect, it } from 'vitest';
import { assembleFamilyGraph, familyThreadSuffixes, MAX_ANCESTOR_DEPTH, type FamilyThreadRow, type TurnMetaRow } from './assemble';
import { FamilyGraphSchema, type FamilyGraph } from './contracts';
import { FamilyBuilder } from './testing';

function assemble(family: FamilyBuilder, requestedThreadId: string, maxNodes?: number): FamilyGraph {
  const { threads, turns } = family.rows();
  return FamilyGraphSchema.parse(assembleFamilyGraph({ requestedThreadId, threads, turns, maxNodes }));
}

const labels = (graph: FamilyGraph): Record<string, string> =>
  Object.fromEntries(graph.nodes.map((node) => [node.id, node.label]));

describe('assembleFamilyGraph', () => {
  it('adds an apply edge from the source node to the apply step after the tree edges, only when both ends are nodes', () => {
    const family = new FamilyBuilder();
    const root = family.root('Essay');
    family.turns(root, 3);
    const branch = family.branch(root, 1, null, 'Alt');
    family.turns(branch, 2);
    const { threads, turns: plain } = family.rows();
    const provenance = new Map<string, TurnMetaRow['apply_provenance']>([
      [`${root}:3`, { source_node_id: `${branch}:3`, items: ['section Findings', 'objective'] }],
      // From the step's own predecessor: the same two nodes as its turn edge, a distinct id.
      [`${root}:2`, { source_node_id: `${root}:1`, items: ['document'] }],
      // From a node the answer does not hold (a dropped or unknown one): no edge.
      [`${branch}:3`, { source_node_id: `${branch}:9`, items: ['document'] }],
    ]);
    const turns = plain.map((turn) => ({ ...turn, apply_provenance: provenance.get(`${turn.thread_id}:${turn.turn_index}`) ?? null }));
    const graph = FamilyGraphSchema.parse(assembleFamilyGraph({ requestedThreadId: root, threads, turns }));
    const extra = graph.edges.filter((edge) => edge.kind === 'apply');
    expect(extra).toEqual([
      { id: `apply:${root}:1->${root}:2`, source: `${root}:1`, target: `${root}:2`, kind: 'apply', reason: 'document' },
      { id: `apply:${branch}:3->${root}:3`, source: `${branch}:3`, target: `${root}:3`, kind: 'apply', reason: 'section Findings, objective' },
    ]);
    expect(graph.edges.slice(-2)).toEqual(extra);
    // Every apply step names its source, shown or not; other steps name none.
    const appliedFrom = Object.fromEntries(graph.nodes.map((node) => [node.id, node.applied_from]));
    expect(appliedFrom[`${root}:3`]).toBe(`${branch}:3`);
    expect(appliedFrom[`${branch}:3`]).toBe(`${branch}:9`);
    expect(appliedFrom[`${root}:1`]).toBeNull();
    expect(new Set(graph.edges.map((edge) => edge.id)).size).toBe(graph.edges.length);

    const capped = FamilyGraphSchema.parse(assembleFamilyGraph({ requestedThreadId: root, threads, turns, maxNodes: 1 }));
    const ids = new Set(capped.nodes.map((node) => node.id));
    expect(capped.edges.every((edge) => ids.has(edge.source) && ids.has(edge.target))).toBe(true);
  });

  it('builds one node per owned turn, turn edges within a thread and a branch edge with the reason', () => {
    const family = new FamilyBuilder();
    const root = family.root('Essay');
    family.turns(root, 3);
    const branch = family.branch(root, 2, 'try a shorter intro', 'Shorter');
    family.turns(branch, 2);

    const graph = assemble(family, branch);

    expect(graph.thread_id).toBe(branch);
    expect(graph.root_thread_id).toBe(root);
    expect(graph.truncated).toBe(false);
    expect(graph.nodes.map((node) => [node.id, node.label, node.is_on_active_path])).toEqual([
      [`${root}:1`, '1', true],
      [`${root}:2`, '2', true],
      [`${root}:3`, '3', false],
      [`${branch}:3`, '3.1', true],
      [`${branch}:4`, '4.1', true],
    ]);
    expect(graph.edges).toEqual([
      { id: `${root}:1->${root}:2`, source: `${root}:1`, target: `${root}:2`, kind: 'turn', reason: null },
      { id: `${root}:2->${root}:3`, source: `${root}:2`, target: `${root}:3`, kind: 'turn', reason: null },
      {
        id: `${root}:2->${branch}:3`,
        source: `${root}:2`,
        target: `${branch}:3`,
        kind: 'branch',
        reason: 'try a shorter intro',
      },
      {
        id: `${branch}:3->${branch}:4`,
        source: `${branch}:3`,
        target: `${branch}:4`,
        kind: 'turn',
        reason: null,
      },
    ]);
    expect(graph.threads).toEqual([
      {
        thread_id: root,
        parent_thread_id: null,
        branch_point_turn: null,
        reason: null,
        title: 'Essay',
        starred: false,
        archived: false,
        created_at: '2025-01-01T00:00:01.000Z',
        is_deleted: false,
        suffix: '',
        owned_turn_count: 3,
      },
      {
        thread_id: branch,
        parent_thread_id: root,
        branch_point_turn: 2,
        reason: 'try a shorter intro',
        title: 'Shorter',
        starred: false,
        archived: false,
        created_at: '2025-01-01T00:00:05.000Z',
        is_deleted: false,
        suffix: '.1',
        owned_turn_count: 2,
      },
    ]);
  });

  it('carries the turn metadata and normalises timestamps to ISO strings', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turn(root, { user_message: 'Draft it', reply_preview: 'Done', tool_count: 2, artifact_count: 1 });
    const { threads, turns } = family.rows();
    const asText = turns.map((turn) => ({ ...turn, captured_at: '2025-03-04 05:06:07+02' }));
    const graph = assembleFamilyGraph({ requestedThreadId: root, threads, turns: asText });
    expect(graph.nodes[0]).toMatchObject({
      user_message: 'Draft it',
      reply_preview: 'Done',
      tool_count: 2,
      artifact_count: 1,
      captured_at: '2025-03-04T03:06:07.000Z',
    });
  });

  it("ignores a branch's rows at or below its branch point: those turns belong to its ancestors", () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 2);
    const branch = family.branch(root, 2);
    family.turn(branch);
    const { threads, turns } = family.rows();
    const inherited: TurnMetaRow = { ...turns[0]!, thread_id: branch };
    const graph = assembleFamilyGraph({ requestedThreadId: branch, threads, turns: [...turns, inherited] });
    expect(graph.nodes.map((node) => node.id)).toEqual([`${root}:1`, `${root}:2`, `${branch}:3`]);
  });

  it('draws no branch edge from the empty start or to a branch with no turns, but lists both threads', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 2);
    const retry = family.branch(root, 0, 'retry');
    family.turn(retry);
    const fresh = family.branch(root, 1);
    const graph = assemble(family, root);
    expect(graph.edges.filter((edge) => edge.kind === 'branch')).toEqual([]);
    expect(graph.threads.map((thread) => [thread.thread_id, thread.owned_turn_count])).toEqual([
      [root, 2],
      [retry, 1],
      [fresh, 0],
    ]);
    expect(labels(graph)[`${retry}:1`]).toBe('1.1');
  });

  it('does not depend on the order of the rows', () => {
    const family = new FamilyBuilder();
    const root = family.root();
    family.turns(root, 4);
    const a = family.branch(root, 2);
    family.turns(a, 2);
    const b = family.branch(a, 3);
    family.turn(b);
    family.branch(root, 4);
    const { threads, turns } = family.rows();
    const forward = assembleFamilyGraph({ requestedThreadId: b, threads, turns });
    const backward = assembleFamilyGraph({
      requestedThreadId: b,
      threads: [...threads].reverse(),
      turns: [...turns].reverse(),
    });
    expect(backward).toEqual(forward);
  });

  it(`walks up at most ${MAX_ANCESTOR_DEPTH} parent links to find the root`, () => {
    const family = new FamilyBuilder();
    let thread = family.root();
    family.turn(thread);
    const chain = [thread];
    for (let depth = 1; depth <= MAX_ANCESTOR_DEPTH + 10; depth++) {
      thread = family.branch(thread, family.lastTurn(thread));
      family.turn(thread);
      chain.push(thread);
    }
    const graph = assemble(family, thread);
    const expectedRoot = chain[chain.length - 1 - MAX_ANCESTOR_DEPTH]!;
    expect(graph.root_thread_id).toBe(expectedRoot);
    expect(graph.threads).toHaveLength(MAX_ANCESTOR_DEPTH + 1);
    expect(graph.threads[0]?.thread_id).toBe(expectedRoot);
    expect(graph.threads[0]?.suffix).toBe('');
    expect(graph.edges.filter((edge) => edge.kind === 'branch')).toHaveLength(MAX_ANCESTOR_DEPTH);
    expect(graph.nodes.every((node) => node.is_on_active_path)).toBe(true);
  });

  describe('soft deletes', () => {
    function deletedFamily() {
      const family = new FamilyBuilder();
      const root = family.root();
      family.turns(root, 3);
      const deleted = family.branch(root, 1);
      family.turns(deleted, 2);
      const underDeleted = family.branch(deleted, 2);
      family.turn(underDeleted);
      const sibling = family.branch(deleted, 3);
      family.turn(sibling);
      const live = family.branch(root, 2);
      family.turn(live);
      family.softDelete(deleted);
      return { family, root, deleted, underDeleted, sibling, live };
    }

    it('hides a deleted branch with its subtree', () => {
      const { family, root, live } = deletedFamily();
      const graph = assemble(family, root);
      expect(graph.threads.map((thread) => thread.thread_id)).toEqual([root, live]);
    });

    it('keeps a deleted ancestor of the requested thread, and its live children', () => {
      const { family, root, deleted, underDeleted, sibling, live } = deletedFamily();
      const graph = assemble(family, underDeleted);
      expect(graph.threads.map((thread) => [thread.thread_id, thread.is_deleted])).toEqual([
        [root, false],
        [deleted, true],
        [underDeleted, false],
        [sibling, false],
        [live, false],
      ]);
      expect(graph.nodes.filter((node) => node.is_on_active_path).map((node) => node.id)).toEqual([
        `${root}:1`,
        `${deleted}:2`,
        `${underDeleted}:3`,
      ]);
    });

    it('never renumbers a step when a branch is deleted', () => {
      const { family, root } = deletedFamily();
      const graph = assemble(family, root);
      const { threads, turns } = family.rows();
      const undeleted = assembleFamilyGraph({
        requestedThreadId: root,
        threads: threads.map((thread) => ({ ...thread, deleted_at: null })),
        turns,
      });
      const before = labels(undeleted);
      for (const node of graph.nodes) expect(node.label).toBe(before[node.id]);
      expect(graph.nodes.map((node) => node.label)).toContain('3.2');
    });
  });

  describe('archive', () => {
    function archivedFamily() {
      const family = new FamilyBuilder();
      const root = family.root();
      family.turns(root, 3);
      const archived = family.branch(root, 1);
      family.turns(archived, 2);
      const underArchived = family.branch(archived, 2);
      family.turn(underArchived);
      const live = family.branch(root, 2);
      family.turn(live);
      const { threads, turns } = family.rows();
      const marked = threads.map((thread) =>
        thread.thread_id === archived ? { ...thread, is_archived: true } : { ...thread, is_starred: thread.thread_id === live },
      );
      return { root, archived, underArchived, live, threads: marked, turns };
    }

    it('hides an archived branch with its subtree unless archived paths are asked for, and labels stay', () => {
      const { root, archived, underArchived, live, threads, turns } = archivedFamily();
      const hidden = assembleFamilyGraph({ requestedThreadId: root, threads, turns });
      expect(hidden.threads.map((thread) => [thread.thread_id, thread.starred])).toEqual([
        [root, false],
        [live, true],
      ]);
      const shown = assembleFamilyGraph({ requestedThreadId: root, threads, turns, includeArchived: true });
      expect(shown.threads.map((thread) => [thread.thread_id, thread.archived])).toEqual([
        [root, false],
        [archived, true],
        [underArchived, false],
        [live, false],
      ]);
      const shownLabels = labels(shown);
      for (const node of hidden.nodes) expect(node.label).toBe(shownLabels[node.id]);
    });

    it('keeps an archived thread on the requested lineage', () => {
      const { root, archived, underArchived, threads, turns } = archivedFamily();
      const graph = assembleFamilyGraph({ requestedThreadId: underArchived, threads, turns });
      expect(graph.threads.map((thread) => thread.thread_id)).toContain(archived);
      expect(graph.threads[0]?.thread_id).toBe(root);
    });

    it('gives search the same suffixes as the graph from the label witnesses alone', () => {
      const { root, threads, turns } = archivedFamily();
      const graph = assembleFamilyGraph({ requestedThreadId: root, threads, turns, includeArchived: true });
      const suffixes = familyThreadSuffixes({ requestedThreadId: root, threads, labelTurns: turns });
      for (const thread of graph.threads) expect(suffixes.get(thread.thread_id)).toBe(thread.suffix);
    });
  });

  describe('node cap', () => {
    it('drops the oldest nodes, marks the graph truncated and removes dangling edges', () => {
      const family = new FamilyBuilder();
      const root = family.root();
      family.turns(root, 3);
      const branch = family.branch(root, 1);
      family.turns(branch, 2);
      family.turn(root);
      const full = assemble(family, branch);
      const graph = assemble(family, branch, 3);
      expect(graph.truncated).toBe(true);
      expect(graph.nodes.map((node) => node.id)).toEqual([`${root}:4`, `${branch}:2`, `${branch}:3`]);
      expect(graph.edges.map((edge) => edge.id)).toEqual([`${branch}:2->${branch}:3`]);
      expect(graph.threads).toEqual(full.threads);
      for (const node of graph.nodes)
        expect(node).toEqual(full.nodes.find((candidate) => candidate.id === node.id));
    });

    it('breaks captured_at ties by id, dropping the smaller id first', () => {
      const threads: FamilyThreadRow[] = [
        {
          thread_id: 'th_a',
          parent_thread_id: null,
          branch_point_turn: null,
          reason: null,
          title: 't',
          created_at: '2025-01-01T00:00:00Z',
          deleted_at: null,
        },
      ];
      const turn = (turnIndex: number): TurnMetaRow => ({
        thread_id: 'th_a',
        turn_index: turnIndex,
        user_message: null,
        reply_preview: null,
        tool_count: 0,
        captured_at: '2025-01-01T00:00:01Z',
        artifact_count: 0,
      });
      const graph = assembleFamilyGraph({
        requestedThreadId: 'th_a',
        threads,
        turns: [turn(1), turn(2), turn(3)],
        maxNodes: 2,
      });
      expect(graph.nodes.map((node) => node.id)).toEqual(['th_a:2', 'th_a:3']);
    });

    it('is not truncated at exactly the cap', () => {
      const family = new FamilyBuilder();
      const root = family.root();
      family.turns(root, 3);
      expect(assemble(family, root, 3).truncated).toBe(false);
    });
  });

  describe('broken rows', () => {
    it('terminates on a parent cycle, rooting the family where the walk up stopped', () => {
      const row = (thread_id: string, parent_thread_id: string): FamilyThreadRow => ({
        thread_id,
        parent_thread_id,
        branch_point_turn: 1,
        reason: null,
        title: thread_id,
        created_at: '2025-01-01T00:00:00Z',
        deleted_at: null,
      });
      const graph = assembleFamilyGraph({
        requestedThreadId: 'p',
        threads: [row('p', 'q'), row('q', 'p')],
        turns: [],
      });
      expect(graph.root_thread_id).toBe('q');
      expect(graph.threads.map((thread) => [thread.thread_id, thread.suffix])).toEqual([
        ['q', ''],
        ['p', ''],
      ]);
    });

    it('rejects an unknown requested thread, duplicate rows and a bad cap', () => {
      const family = new FamilyBuilder();
      const root = family.root();
      family.turns(root, 1);
      const { threads, turns } = family.rows();
      expect(() => assembleFamilyGraph({ requestedThreadId: 'th_missing', threads, turns })).toThrow(
        /not among/,
      );
      expect(() =>
        assembleFamilyGraph({ requestedThreadId: root, threads: [...threads, ...threads], turns }),
      ).toThrow(/duplicate thread/);
      expect(() =>
        assembleFamilyGraph({ requestedThreadId: root, threads, turns: [...turns, ...turns] }),
      ).toThrow(/duplicate turn/);
      expect(() => assembleFamilyGraph({ requestedThreadId: root, threads, turns, maxNodes: -1 })).toThrow(
        RangeError,
      );
      const badTime = turns.map((turn) => ({ ...turn, captured_at: 'yesterday' }));
      expect(() => assembleFamilyGraph({ requestedThreadId: root, threads, turns: badTime })).toThrow(
        RangeError,
      );
    });
  });
});

describe('citation edges', () => {
  it('draw one dotted-kind edge from each cited step that is shown to the step whose reply read it, never to itself', () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const threads = [
      { thread_id: 'r', parent_thread_id: null, branch_point_turn: null, reason: null, title: 'R', created_at: at(0), deleted_at: null },
      { thread_id: 'b', parent_thread_id: 'r', branch_point_turn: 1, reason: 'alt', title: 'B', created_at: at(5), deleted_at: null },
    ];
    const turn = (thread_id: string, turn_index: number, s: number, citations?: unknown) => ({
      thread_id, turn_index, user_message: 'u', reply_preview: 'r', tool_count: 0, captured_at: at(s), artifact_count: 0, citations,
    });
    const graph = assembleFamilyGraph({
      requestedThreadId: 'r',
      threads,
      turns: [
        turn('r', 1, 1),
        turn('r', 2, 2),
        turn('b', 2, 6),
        turn('r', 3, 7, [{ thread_id: 'b', turn: 2, label: '2.1' }, { thread_id: 'b', turn: 2, label: '2.1' }, { thread_id: 'r', turn: 3, label: '3' }, { thread_id: 'gone', turn: 9 }, 'junk']),
      ],
    });
    expect(graph.edges.filter((e) => e.kind === 'cite')).toEqual([{ id: 'cite:b:2->r:3', source: 'b:2', target: 'r:3', kind: 'cite', reason: 'cited 2.1' }]);
  });
});
