/**
 * The lineage of a thread (root first) and which turns of it form the displayed path.
 * docs/branching.md, "The family graph": a path is the thread's own turns plus each ancestor's turns up to the
 * turn where the lineage forks toward it (inclusive: the branch point k belongs to the parent).
 */
export interface LineageThread {
  readonly thread_id: string;
  readonly parent_thread_id: string | null;
  readonly branch_point_turn: number | null;
}

/**
 * `[root, …, thread]` following parent links that exist in `byId`. Stops at a parent outside the map,
 * at a cycle, or after `maxDepth` hops up; whichever thread it stops at is the root. Empty when
 * `threadId` is not in the map.
 */
export function lineageOf<T extends LineageThread>(
  byId: ReadonlyMap<string, T>,
  threadId: string,
  maxDepth = Number.POSITIVE_INFINITY,
): T[] {
  const start = byId.get(threadId);
  if (start === undefined) return [];
  const chain = [start];
  const seen = new Set([start.thread_id]);
  let current = start;
  while (chain.length - 1 < maxDepth && current.parent_thread_id !== null) {
    const parent = byId.get(current.parent_thread_id);
    if (parent === undefined || seen.has(parent.thread_id)) break;
    chain.push(parent);
    seen.add(parent.thread_id);
    current = parent;
  }
  return chain.reverse();
}

/**
 * For each thread on the lineage, the last of its turns that lies on the path: an ancestor's path stops
 * at the branch point of the next thread down; the last thread's path runs to its tip (Infinity).
 */
export function pathTurnLimits(lineage: readonly LineageThread[]): ReadonlyMap<string, number> {
  const limits = new Map<string, number>();
  lineage.forEach((thread, index) => {
    const next = lineage[index + 1];
    limits.set(
      thread.thread_id,
      next === undefined ? Number.POSITIVE_INFINITY : (next.branch_point_turn ?? 0),
    );
  });
  return limits;
}

export function isOnPath(limits: ReadonlyMap<string, number>, threadId: string, turnIndex: number): boolean {
  const limit = limits.get(threadId);
  return limit !== undefined && turnIndex <= limit;
}
