import { describe, expect, it } from 'vitest';
import type { Message } from '@trellis/domain';
import { applyKey, undoneApplies } from './undone-applies';

const entry = (thread_id: string, turn_index: number, undoes?: number): Message => ({
  id: `${thread_id}-${turn_index}`,
  thread_id,
  turn_index,
  role: 'system',
  content: 'Applied',
  kind: 'apply',
  provenance: { source_node_id: `${thread_id}:1`, source_label: '1', items: ['document'], note: null, ...(undoes !== undefined && { undoes }) },
  tool_calls: [],
  status: 'complete',
  created_at: '2026-01-01T00:00:00.000Z',
});

describe('undoneApplies', () => {
  it('names each apply an undo entry of its own thread reverses, with the undo’s step', () => {
    const undone = undoneApplies([entry('th_a', 2), entry('th_a', 3), entry('th_a', 4, 2), entry('th_b', 5, 3)]);
    expect(undone.get(applyKey('th_a', 2))).toBe(4);
    expect(undone.has(applyKey('th_a', 3))).toBe(false);
    expect(undone.get(applyKey('th_b', 3))).toBe(5);
  });
});
