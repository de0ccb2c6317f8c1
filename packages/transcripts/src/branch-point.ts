// Branch points (docs/branching.md, "The transcript inspector's rules"): the nearest strict ancestor on a leaf's chain that another leaf's
// chain shares. In a forest that is the nearest strict ancestor whose subtree holds two leaves.
import type { Forest } from './forest';

/** Node id → nearest strict ancestor with at least two leaves below it, or -1. */
export function findBranchPoints(forest: Forest, leaves: readonly number[]): Int32Array {
  const size = forest.parent.length;
  const leavesBelow = new Int32Array(size);
  for (const leaf of leaves) leavesBelow[leaf] = 1;
  for (let i = size - 1; i >= 0; i--) {
    const node = forest.preorder[i]!;
    const p = forest.parent[node]!;
    if (p >= 0) leavesBelow[p]! += leavesBelow[node]!;
  }
  const branchPoint = new Int32Array(size);
  for (let i = 0; i < forest.preorder.length; i++) {
    const node = forest.preorder[i]!;
    const p = forest.parent[node]!;
    branchPoint[node] = p < 0 ? -1 : leavesBelow[p]! >= 2 ? p : branchPoint[p]!;
  }
  return branchPoint;
}
