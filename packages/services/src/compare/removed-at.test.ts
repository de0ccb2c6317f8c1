import { describe, expect, it } from 'vitest';
import { discardRanges } from './removed-at';

const root = { thread_id: 'root', branch_point_turn: null, turn_index: 6 };
const child = { thread_id: 'child', branch_point_turn: 3, turn_index: 5 };
const grandchild = { thread_id: 'grandchild', branch_point_turn: 4, turn_index: 7 };

describe('the decision log ranges of a path', () => {
  it('hands each thread on at the next branch point, whose rows there count only before that branch was made', () => {
    expect(discardRanges([root, child, grandchild], 7)).toEqual([
      { thread_id: 'root', from: 0, to: 3, handed_to: 'child' },
      { thread_id: 'child', from: 3, to: 4, handed_to: 'grandchild' },
      { thread_id: 'grandchild', from: 4, to: 7, handed_to: null },
    ]);
  });

  it('stops at the step: a branch whose branch point lies past it contributes nothing', () => {
    expect(discardRanges([root, child, grandchild], 2)).toEqual([{ thread_id: 'root', from: 0, to: 2, handed_to: null }]);
    // At the branch point itself, the branch's edits made before its first turn count.
    expect(discardRanges([root, child], 3)).toEqual([
      { thread_id: 'root', from: 0, to: 3, handed_to: 'child' },
      { thread_id: 'child', from: 3, to: 3, handed_to: null },
    ]);
  });
});
