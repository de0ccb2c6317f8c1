// Nested todos are a flat ordered list with a depth per item (the API's shape).
// An item's block is the item plus the following items that are deeper than it
// (its subtree); moving an item moves its block, so children follow their parent.

export interface TreeItem {
  id: string;
  depth: number;
}

/** Deepest level a todo may have (the API's limit). */
export const MAX_TODO_DEPTH = 8;

/** Index one past the end of the block starting at `index`. */
export function blockEnd(items: readonly TreeItem[], index: number): number {
  const depth = items[index]?.depth ?? 0;
  let end = index + 1;
  while (end < items.length && (items[end]?.depth ?? 0) > depth) end += 1;
  return end;
}

/** The depth an item would get when indented, or null when it cannot be (first item, no parent above, at the limit). */
export function indentedDepth(items: readonly TreeItem[], index: number): number | null {
  const item = items[index];
  const previous = items[index - 1];
  if (!item || !previous) return null;
  const depth = item.depth + 1;
  return depth <= previous.depth + 1 && depth <= MAX_TODO_DEPTH ? depth : null;
}

export function outdentedDepth(items: readonly TreeItem[], index: number): number | null {
  const item = items[index];
  return item && item.depth > 0 ? item.depth - 1 : null;
}

/**
 * Swaps an item's block with the block of its previous or next sibling (an
 * item at the same depth under the same parent). Returns the new id order, or
 * null when there is no such sibling.
 */
export function moveBlock(items: readonly TreeItem[], id: string, direction: 'up' | 'down'): string[] | null {
  const index = items.findIndex((t) => t.id === id);
  const item = items[index];
  if (!item) return null;
  const end = blockEnd(items, index);
  if (direction === 'up') {
    let sibling = index - 1;
    while (sibling >= 0 && (items[sibling]?.depth ?? 0) > item.depth) sibling -= 1;
    if (sibling < 0 || items[sibling]?.depth !== item.depth) return null;
    return ids([
      ...items.slice(0, sibling),
      ...items.slice(index, end),
      ...items.slice(sibling, index),
      ...items.slice(end),
    ]);
  }
  const next = items[end];
  if (!next || next.depth !== item.depth) return null;
  const nextEnd = blockEnd(items, end);
  return ids([
    ...items.slice(0, index),
    ...items.slice(end, nextEnd),
    ...items.slice(index, end),
    ...items.slice(nextEnd),
  ]);
}

/**
 * Moves an item's block so it starts where `targetId` is (placement 'before')
 * or right after the target's block ('after'). Depths are unchanged. Returns
 * null when the drop changes nothing or lands inside the moved block.
 */
export function dropBlock(
  items: readonly TreeItem[],
  id: string,
  targetId: string,
  placement: 'before' | 'after',
): string[] | null {
  const index = items.findIndex((t) => t.id === id);
  const target = items.findIndex((t) => t.id === targetId);
  if (index === -1 || target === -1) return null;
  const end = blockEnd(items, index);
  if (target >= index && target < end) return null;
  const block = items.slice(index, end);
  const rest = [...items.slice(0, index), ...items.slice(end)];
  const targetInRest = rest.findIndex((t) => t.id === targetId);
  const at = placement === 'before' ? targetInRest : blockEnd(rest, targetInRest);
  const next = ids([...rest.slice(0, at), ...block, ...rest.slice(at)]);
  return next.every((v, i) => v === items[i]?.id) ? null : next;
}

function ids(items: readonly TreeItem[]): string[] {
  return items.map((t) => t.id);
}
