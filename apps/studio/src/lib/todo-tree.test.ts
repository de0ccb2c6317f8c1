import { describe, expect, it } from 'vitest';
import { blockEnd, dropBlock, indentedDepth, moveBlock, outdentedDepth } from './todo-tree';

// a
//   a1
//     a1x
//   a2
// b
// c
const list = [
  { id: 'a', depth: 0 },
  { id: 'a1', depth: 1 },
  { id: 'a1x', depth: 2 },
  { id: 'a2', depth: 1 },
  { id: 'b', depth: 0 },
  { id: 'c', depth: 0 },
];

describe('todo tree', () => {
  it('a block is the item and its deeper followers', () => {
    expect(blockEnd(list, 0)).toBe(4);
    expect(blockEnd(list, 1)).toBe(3);
    expect(blockEnd(list, 4)).toBe(5);
  });

  it('indents at most one level below the item above, never the first item', () => {
    expect(indentedDepth(list, 0)).toBeNull();
    expect(indentedDepth(list, 4)).toBe(1);
    expect(indentedDepth(list, 3)).toBe(2);
    expect(indentedDepth(list, 2)).toBeNull();
    expect(outdentedDepth(list, 0)).toBeNull();
    expect(outdentedDepth(list, 2)).toBe(1);
  });

  it('moving a parent moves its subtree past the sibling block', () => {
    expect(moveBlock(list, 'b', 'up')).toEqual(['b', 'a', 'a1', 'a1x', 'a2', 'c']);
    expect(moveBlock(list, 'a', 'down')).toEqual(['b', 'a', 'a1', 'a1x', 'a2', 'c']);
    expect(moveBlock(list, 'a2', 'up')).toEqual(['a', 'a2', 'a1', 'a1x', 'b', 'c']);
  });

  it('does not move an item out of its parent or past the ends', () => {
    expect(moveBlock(list, 'a1', 'up')).toBeNull();
    expect(moveBlock(list, 'a2', 'down')).toBeNull();
    expect(moveBlock(list, 'a', 'up')).toBeNull();
    expect(moveBlock(list, 'c', 'down')).toBeNull();
  });

  it('drops a block before or after a target block, never into itself', () => {
    expect(dropBlock(list, 'c', 'a', 'before')).toEqual(['c', 'a', 'a1', 'a1x', 'a2', 'b']);
    expect(dropBlock(list, 'a', 'b', 'after')).toEqual(['b', 'a', 'a1', 'a1x', 'a2', 'c']);
    expect(dropBlock(list, 'a', 'a1x', 'before')).toBeNull();
    expect(dropBlock(list, 'b', 'c', 'before')).toBeNull();
  });
});
