import { ownerOfTurn, type LineageEntry } from '../workspace/restore';

/**
 * The deepest step two paths share: step t of a path is turn t of the thread of its lineage that owns
 * it, so two paths share t when the same thread owns t on both (and t is on both). Sharing is a
 * prefix, so the answer is the largest such t; 0, the empty start, when no step is shared. Null only
 * when the two lineages have different roots (not one family).
 */
export function forkStep(
  a: { lineage: readonly LineageEntry[]; turn: number },
  b: { lineage: readonly LineageEntry[]; turn: number },
): { thread_id: string; turn: number } | null {
  const rootA = a.lineage[0]?.thread_id;
  if (rootA === undefined || rootA !== b.lineage[0]?.thread_id) return null;
  let low = 0;
  let high = Math.min(a.turn, b.turn);
  // Shared(t) is monotone (true up to the fork, false after): binary search keeps it O(log n · depth).
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (ownerOfTurn(a.lineage, mid) === ownerOfTurn(b.lineage, mid)) low = mid;
    else high = mid - 1;
  }
  return { thread_id: low === 0 ? rootA : ownerOfTurn(a.lineage, low), turn: low };
}
