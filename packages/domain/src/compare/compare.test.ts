import { describe, expect, it } from 'vitest';
import { compareWorkspaces, summarizeComparison, type CompareState } from './compare';
import { forkStep } from './fork';
import { comparisonToUnifiedDiff } from './unified';
import { NodeIdParamSchema } from './contracts';

const K1 = '00000000-0000-4000-8000-000000000001';
const K2 = '00000000-0000-4000-8000-000000000002';
const K3 = '00000000-0000-4000-8000-000000000003';

function state(partial: Partial<CompareState> = {}): CompareState {
  return {
    objective: null,
    document: { title: '', content: '' },
    preferences: [],
    todos: [],
    artifacts: [],
    ...partial,
  };
}

describe('compareWorkspaces', () => {
  it('reads a lock change as edited ["locked"], never as removed + added', () => {
    const a = state({ preferences: [{ key: K1, text: 'Cite sources', locked: false }] });
    const b = state({ preferences: [{ key: K1, text: 'Cite sources', locked: true }] });
    expect(compareWorkspaces(a, b).preferences).toEqual([
      {
        key: K1,
        status: 'edited',
        changes: ['locked'],
        a: { text: 'Cite sources', locked: false },
        b: { text: 'Cite sources', locked: true },
      },
    ]);
  });

  it('pairs by key, not text: a rewritten todo is edited, a same-text item with another key is removed + added', () => {
    const a = state({
      todos: [
        { key: K1, text: 'Outline', done: false, depth: 0 },
        { key: K2, text: 'Intro', done: false, depth: 1 },
      ],
    });
    const b = state({
      todos: [
        { key: K1, text: 'Outline the essay', done: true, depth: 0 },
        { key: K3, text: 'Intro', done: false, depth: 1 },
      ],
    });
    const todos = compareWorkspaces(a, b).todos;
    expect(todos.map((t) => [t.key, t.status, t.changes])).toEqual([
      [K1, 'edited', ['text', 'done']],
      [K2, 'removed', []],
      [K3, 'added', []],
    ]);
  });

  it('marks position only when the order among shared items changed', () => {
    const p = (key: string, text: string) => ({ key, text, locked: false });
    const inserted = compareWorkspaces(
      state({ preferences: [p(K1, 'x'), p(K2, 'y')] }),
      state({ preferences: [p(K3, 'new'), p(K1, 'x'), p(K2, 'y')] }),
    );
    expect(inserted.preferences.map((e) => e.changes)).toEqual([[], [], []]);
    const swapped = compareWorkspaces(
      state({ preferences: [p(K1, 'x'), p(K2, 'y')] }),
      state({ preferences: [p(K2, 'y'), p(K1, 'x')] }),
    );
    expect(swapped.preferences.map((e) => [e.status, e.changes])).toEqual([
      ['edited', ['position']],
      ['edited', ['position']],
    ]);
  });

  it('falls back to matching by text for items of snapshots older than keys', () => {
    const a = state({
      preferences: [
        { key: null, text: 'Short sentences', locked: false },
        { key: null, text: 'Old', locked: false },
      ],
    });
    const b = state({ preferences: [{ key: K1, text: 'Short sentences', locked: true }] });
    expect(compareWorkspaces(a, b).preferences.map((e) => [e.key, e.status, e.changes])).toEqual([
      [K1, 'edited', ['locked']],
      [null, 'removed', []],
    ]);
  });

  it('diffs the document word by word, keeping equal runs, and counts words', () => {
    const c = compareWorkspaces(
      state({ document: { title: 'Essay', content: 'The quick brown fox jumps.' } }),
      state({ document: { title: 'Essay', content: 'The quick red fox leaps high.' } }),
    );
    expect(c.document.changed).toBe(true);
    expect(c.document.title.changed).toBe(false);
    expect(c.document.words_added).toBe(3);
    expect(c.document.words_removed).toBe(2);
    expect(
      c.document.hunks
        .filter((h) => h.op !== 'insert')
        .map((h) => h.text)
        .join(''),
    ).toBe('The quick brown fox jumps.');
    expect(
      c.document.hunks
        .filter((h) => h.op !== 'delete')
        .map((h) => h.text)
        .join(''),
    ).toBe('The quick red fox leaps high.');
    expect(c.document.hunks[0]).toEqual({ op: 'equal', text: 'The quick ' });
  });

  it('summarizes a comparison into the counts the graph shows', () => {
    const c = compareWorkspaces(
      state({
        objective: 'A',
        document: { title: '', content: 'one two' },
        todos: [{ key: K1, text: 't', done: false, depth: 0 }],
      }),
      state({
        objective: 'B',
        document: { title: '', content: 'one two three' },
        preferences: [{ key: K2, text: 'p', locked: false }],
      }),
    );
    expect(summarizeComparison(c)).toEqual({
      words_added: 1,
      words_removed: 0,
      items_added: 1,
      items_removed: 1,
      items_edited: 1,
    });
  });

  it('writes a unified diff of the document, then one line per changed item', () => {
    const c = compareWorkspaces(
      state({
        document: { title: 'T', content: 'alpha\nbeta\n' },
        preferences: [{ key: K1, text: 'Cite', locked: false }],
        todos: [{ key: K2, text: 'Outline', done: false, depth: 0 }],
      }),
      state({
        document: { title: 'T', content: 'alpha\ngamma\n' },
        preferences: [{ key: K1, text: 'Cite', locked: true }],
      }),
    );
    const removedAt = { node_id: 'y:2', label: '2.1' };
    const text = comparisonToUnifiedDiff({
      a: { node_id: 'x:1', label: '1' },
      b: { node_id: 'y:2', label: '2.1' },
      fork: null,
      ...c,
      preferences: c.preferences.map((p) => ({ ...p, removed_at: null, removed_by: null })),
      todos: c.todos.map((t) => ({
        ...t,
        ...(t.status === 'removed'
          ? { removed_at: removedAt, removed_by: 'agent' as const }
          : { removed_at: null, removed_by: null }),
      })),
    });
    expect(text).toContain('-beta');
    expect(text).toContain('+gamma');
    expect(text).toContain('~ preference "Cite" (locked)');
    expect(text).toContain('- todo "Outline" (removed at step 2.1 by the agent)');
  });
});

describe('forkStep', () => {
  const root = 'th_' + '0'.repeat(32);
  const child = 'th_' + '1'.repeat(32);
  const grandchild = 'th_' + '2'.repeat(32);
  const lineage = {
    root: [{ thread_id: root, branch_point_turn: null, turn_index: 6 }],
    child: [
      { thread_id: root, branch_point_turn: null, turn_index: 6 },
      { thread_id: child, branch_point_turn: 3, turn_index: 5 },
    ],
    grandchild: [
      { thread_id: root, branch_point_turn: null, turn_index: 6 },
      { thread_id: child, branch_point_turn: 3, turn_index: 5 },
      { thread_id: grandchild, branch_point_turn: 4, turn_index: 7 },
    ],
  };

  it('is the branch point for siblings, the earlier step for an ancestor, the empty start when nothing is shared', () => {
    expect(forkStep({ lineage: lineage.root, turn: 6 }, { lineage: lineage.child, turn: 5 })).toEqual({
      thread_id: root,
      turn: 3,
    });
    expect(forkStep({ lineage: lineage.child, turn: 5 }, { lineage: lineage.grandchild, turn: 7 })).toEqual({
      thread_id: child,
      turn: 4,
    });
    expect(forkStep({ lineage: lineage.root, turn: 2 }, { lineage: lineage.grandchild, turn: 7 })).toEqual({
      thread_id: root,
      turn: 2,
    });
    expect(forkStep({ lineage: lineage.root, turn: 0 }, { lineage: lineage.child, turn: 5 })).toEqual({
      thread_id: root,
      turn: 0,
    });
  });
});

describe('NodeIdParamSchema', () => {
  it('parses "{thread_id}:{turn}" and refuses anything else', () => {
    const id = 'th_' + 'a'.repeat(32);
    expect(NodeIdParamSchema.parse(`${id}:4`)).toEqual({ thread_id: id, turn: 4 });
    for (const bad of [`${id}`, `${id}:-1`, `${id}:01`, `x:1`, `${id}:1:2`, `${id}:1.5`]) {
      expect(NodeIdParamSchema.safeParse(bad).success).toBe(false);
    }
  });
});
