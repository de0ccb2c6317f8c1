// Semantic leaves (docs/branching.md, "The transcript inspector's rules"). A terminal is a uuid no record names as its parent. A terminal
// run of neutral records collapses to its nearest non-neutral ancestor (omitted when there is
// none); candidates are de-duplicated, and a candidate that is a strict ancestor of another is
// dropped, leaving an antichain. Leaves are ordered by the physical position of the last
// terminal collapsed into them, a terminal's position being its first record (the one that
// defines it); timestamps never order anything.
//
// Ancestry follows the first-record parent rule as written, even inside a parent cycle: the
// forest cuts each cycle at its earliest-written member, but a walk up from any record that
// reaches a cycle goes round it, so every member of a cycle is an ancestor of everything that
// reaches it. A neutral tail collapsing onto the cut member therefore goes on round the cycle,
// and a candidate on a cycle is dropped when its tree holds any other candidate.
import type { Forest } from './forest';
import type { RecordIndex } from './record-index';
import { hasTrait, Trait } from './record-traits';

export interface SemanticLeaf {
  readonly node: number;
  /** First record of the physically last terminal collapsed into this leaf. */
  readonly lastTerminalRecord: number;
}

/** `cycles` as cutParentCycles returns them: root (cut member) first, its original parent last. */
export function findSemanticLeaves(
  index: RecordIndex,
  forest: Forest,
  cycles: readonly (readonly number[])[] = [],
): SemanticLeaf[] {
  const size = index.uuids.length;
  const { parent, preorder, root } = forest;

  // Terminals are judged on the original parent links: a cycle member always has a child.
  const hasChild = new Uint8Array(size);
  for (let id = 0; id < size; id++) {
    const p = index.parentId[id]!;
    if (p >= 0) hasChild[p] = 1;
  }
  const onCycle = new Uint8Array(size);
  /** Cut member → its original parent, where a walk up the cycle goes on. */
  const aboveCutRoot = new Int32Array(size).fill(-1);
  for (const cycle of cycles) {
    for (const node of cycle) onCycle[node] = 1;
    aboveCutRoot[cycle[0]!] = cycle.at(-1)!;
  }

  const nearestSignificant = new Int32Array(size);
  for (let i = 0; i < preorder.length; i++) {
    const node = preorder[i]!;
    const p = parent[node]!;
    nearestSignificant[node] = !hasTrait(index.traits, node, Trait.neutral)
      ? node
      : p >= 0
        ? nearestSignificant[p]!
        : -1;
  }
  // Everything from a cut member up is neutral: go on round the cycle from its original parent,
  // whose chain in the forest is exactly the cycle's members.
  const collapseOf = (node: number): number => {
    const found = nearestSignificant[node]!;
    if (found >= 0) return found;
    const above = aboveCutRoot[root[node]!]!;
    return above >= 0 ? nearestSignificant[above]! : -1;
  };

  const lastTerminal = new Int32Array(size).fill(-1);
  for (let node = 0; node < size; node++) {
    if (hasChild[node] === 1) continue;
    const candidate = collapseOf(node);
    if (candidate < 0) continue;
    lastTerminal[candidate] = Math.max(lastTerminal[candidate]!, index.firstRecord[node]!);
  }

  const candidatesInSubtree = new Int32Array(size);
  for (let i = size - 1; i >= 0; i--) {
    const node = preorder[i]!;
    if (lastTerminal[node]! >= 0) candidatesInSubtree[node]!++;
    const p = parent[node]!;
    if (p >= 0) candidatesInSubtree[p]! += candidatesInSubtree[node]!;
  }

  const leaves: SemanticLeaf[] = [];
  for (let node = 0; node < size; node++) {
    if (lastTerminal[node]! < 0) continue;
    const reachers = onCycle[node] === 1 ? candidatesInSubtree[root[node]!]! : candidatesInSubtree[node]!;
    if (reachers === 1) leaves.push({ node, lastTerminalRecord: lastTerminal[node]! });
  }
  return leaves.sort((a, b) => a.lastTerminalRecord - b.lastTerminalRecord);
}
