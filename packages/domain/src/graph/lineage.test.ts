import { describe, expect, it } from 'vitest';
import { isOnPath, lineageOf, pathTurnLimits } from './lineage';
import { inCreationOrder } from './order';

const thread = (thread_id: string, parent_thread_id: string | null, branch_point_turn: number | null) => ({
  thread_id,
  parent_thread_id,
  branch_point_turn,
});

describe('lineageOf', () => {
  const byId = new Map(
    [thread('r', null, null), thread('a', 'r', 2), thread('b', 'a', 4), thread('x', 'missing', 1)].map(
      (t) => [t.thread_id, t],
    ),
  );

  it('lists the thread and its ancestors root first', () => {
    expect(lineageOf(byId, 'b').map((t) => t.thread_id)).toEqual(['r', 'a', 'b']);
    expect(lineageOf(byId, 'r').map((t) => t.thread_id)).toEqual(['r']);
    expect(lineageOf(byId, 'unknown')).toEqual([]);
  });

  it('stops at a parent outside the rows, at the depth cap, and at a cycle', () => {
    expect(lineageOf(byId, 'x').map((t) => t.thread_id)).toEqual(['x']);
    expect(lineageOf(byId, 'b', 1).map((t) => t.thread_id)).toEqual(['a', 'b']);
    const cyclic = new Map([thread('p', 'q', 1), thread('q', 'p', 1)].map((t) => [t.thread_id, t]));
    expect(lineageOf(cyclic, 'p').map((t) => t.thread_id)).toEqual(['q', 'p']);
  });

  it('puts each ancestor on the path up to the branch point toward the thread, inclusive', () => {
    const limits = pathTurnLimits(lineageOf(byId, 'b'));
    expect([1, 2, 3].map((turn) => isOnPath(limits, 'r', turn))).toEqual([true, true, false]);
    expect([3, 4, 5].map((turn) => isOnPath(limits, 'a', turn))).toEqual([true, true, false]);
    expect(isOnPath(limits, 'b', 1_000)).toBe(true);
    expect(isOnPath(limits, 'x', 1)).toBe(false);
  });
});

describe('inCreationOrder', () => {
  it('orders by created_at, then thread_id, and never puts a child before its parent', () => {
    const rows = [
      { thread_id: 'c', parent_thread_id: 'b', created_at: '2025-01-01T00:00:00Z' },
      { thread_id: 'b', parent_thread_id: null, created_at: '2025-01-02T00:00:00Z' },
      { thread_id: 'a', parent_thread_id: null, created_at: '2025-01-02T00:00:00Z' },
      { thread_id: 'd', parent_thread_id: 'a', created_at: new Date('2025-01-03T00:00:00Z') },
    ];
    expect(inCreationOrder(rows).map((t) => t.thread_id)).toEqual(['b', 'c', 'a', 'd']);
  });
});
