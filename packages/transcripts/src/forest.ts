// The parent forest in depth-first preorder, so subtree and ancestor questions are O(1):
// v is an ancestor-or-self of w iff position[v] <= position[w] < end[v].

export interface Forest {
  /** Node id → forest parent, or a negative value for a root. */
  readonly parent: Int32Array;
  /** Node ids in preorder; roots and siblings in id (first-written) order. */
  readonly preorder: Int32Array;
  /** Node id → index in `preorder`. */
  readonly position: Int32Array;
  /** Node id → index in `preorder` just past its subtree. */
  readonly end: Int32Array;
  /** Node id → root of its tree. */
  readonly root: Int32Array;
}

/** `parent` must be acyclic (see cutParentCycles). */
export function buildForest(parent: Int32Array): Forest {
  const size = parent.length;
  const childStart = new Int32Array(size + 1);
  for (let id = 0; id < size; id++) {
    const p = parent[id]!;
    if (p >= 0) childStart[p + 1]!++;
  }
  for (let id = 0; id < size; id++) childStart[id + 1]! += childStart[id]!;
  const children = new Int32Array(childStart[size]!);
  const fill = childStart.slice(0, size);
  for (let id = 0; id < size; id++) {
    const p = parent[id]!;
    if (p >= 0) children[fill[p]!++] = id;
  }

  const preorder = new Int32Array(size);
  const position = new Int32Array(size);
  const root = new Int32Array(size);
  // An explicit stack (never deeper than the node count) instead of recursion.
  const stack = new Int32Array(size);
  let top = 0;
  let next = 0;
  for (let id = size - 1; id >= 0; id--) if (parent[id]! < 0) stack[top++] = id;
  while (top > 0) {
    const node = stack[--top]!;
    const p = parent[node]!;
    root[node] = p < 0 ? node : root[p]!;
    position[node] = next;
    preorder[next++] = node;
    for (let c = childStart[node + 1]! - 1; c >= childStart[node]!; c--) stack[top++] = children[c]!;
  }

  const subtreeSize = new Int32Array(size).fill(1);
  for (let i = size - 1; i >= 0; i--) {
    const node = preorder[i]!;
    const p = parent[node]!;
    if (p >= 0) subtreeSize[p]! += subtreeSize[node]!;
  }
  const end = new Int32Array(size);
  for (let id = 0; id < size; id++) end[id] = position[id]! + subtreeSize[id]!;

  return { parent, preorder, position, end, root };
}
