import { describe, expect, it } from 'vitest';
import { assembleFamilyGraph, type FamilyThreadRow, type TurnMetaRow } from '../graph/index';
import { leafOfSibling, siblingsAtStep } from './siblings';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const thread = (id: string, parent: string | null, k: number | null, created: number): FamilyThreadRow => ({
  thread_id: id,
  parent_thread_id: parent,
  branch_point_turn: k,
  reason: null,
  title: id,
  created_at: at(created),
  deleted_at: null,
});
const turn = (id: string, k: number, s: number): TurnMetaRow => ({
  thread_id: id,
  turn_index: k,
  user_message: `${id} q${k}`,
  reply_preview: null,
  tool_count: 0,
  captured_at: at(s),
  artifact_count: 0,
});

// root: 1, 2, 3 · edit of step 2 (e1, e2: branches at 1) · a continue-from-here at 2 (c)
const threads = [thread('root', null, null, 0), thread('e1', 'root', 1, 10), thread('e2', 'root', 1, 20), thread('c', 'root', 2, 30)];
const turns = [
  turn('root', 1, 1),
  turn('root', 2, 2),
  turn('root', 3, 3),
  turn('e1', 2, 11),
  turn('e1', 3, 12),
  turn('e2', 2, 21),
  turn('c', 3, 31),
];
const graphFor = (requested: string) => assembleFamilyGraph({ requestedThreadId: requested, threads, turns });

describe('siblingsAtStep', () => {
  it('lists the original and every edit at the same step, oldest first, with the displayed one indexed', () => {
    const fromRoot = siblingsAtStep(graphFor('root'), 2);
    expect(fromRoot.siblings.map((s) => s.thread_id)).toEqual(['root', 'e1', 'e2']);
    expect(fromRoot.index).toBe(0);
    expect(fromRoot.siblings.map((s) => s.preview)).toEqual(['root q2', 'e1 q2', 'e2 q2']);
    expect(siblingsAtStep(graphFor('e2'), 2).index).toBe(2);
    expect(siblingsAtStep(graphFor('e1'), 2).index).toBe(1);
  });

  it('a fork by continue-from-here is a sibling at the next step; unforked steps have one sibling', () => {
    expect(siblingsAtStep(graphFor('c'), 3).siblings.map((s) => s.thread_id)).toEqual(['root', 'c']);
    expect(siblingsAtStep(graphFor('c'), 3).index).toBe(1);
    expect(siblingsAtStep(graphFor('root'), 1).siblings.map((s) => s.thread_id)).toEqual(['root']);
    expect(siblingsAtStep(graphFor('e1'), 3).siblings.map((s) => s.thread_id)).toEqual(['e1']);
  });

  it('labels siblings with their path-wide step labels, all distinct', () => {
    const labels = siblingsAtStep(graphFor('root'), 2).siblings.map((s) => s.label);
    expect(labels[0]).toBe('2');
    expect(new Set(labels).size).toBe(3);
  });
});

describe('leafOfSibling', () => {
  it('lands on the thread viewed last in the subtree, else on its most recently updated leaf', () => {
    const graph = graphFor('e1');
    const none = { viewedAt: new Map<string, string>(), updatedAt: new Map([['root', at(5)], ['c', at(40)]]) };
    // the original's subtree at step 2 is root plus branches grown at step ≥ 2 (c), not e1/e2
    expect(leafOfSibling(graph, { thread_id: 'root', base_thread_id: 'root', k: 2 }, none)).toBe('c');
    const viewed = { ...none, viewedAt: new Map([['root', at(50)], ['e2', at(60)]]) };
    expect(leafOfSibling(graph, { thread_id: 'root', base_thread_id: 'root', k: 2 }, viewed)).toBe('root');
    expect(leafOfSibling(graph, { thread_id: 'e2', base_thread_id: 'root', k: 2 }, viewed)).toBe('e2');
  });
});
