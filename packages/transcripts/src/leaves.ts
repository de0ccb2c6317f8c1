// Semantic leaves (issue 7 §2). A terminal is a uuid no record names as its parent. A terminal
// run of neutral records collapses to its nearest non-neutral ancestor (omitted when there is
// none); candidates are de-duplicated, and a candidate that is a strict ancestor of another is
// dropped, leaving an antichain. Leaves are ordered by the physical position of the last
// terminal collapsed into them; timestamps never order anything.
import type { Forest } from './forest';
import type { RecordIndex } from './record-index';
import { hasTrait, Trait } from './record-traits';

export interface SemanticLeaf {
  readonly node: number;
  /** Index of the physically last record among the terminals collapsed into this leaf. */
  readonly lastTerminalRecord: number;
}

/** A terminal's physical position is its last record, the latest write of that uuid. */
export function findSemanticLeaves(index: RecordIndex, forest: Forest): SemanticLeaf[] {
  const size = index.uuids.length;
  const { parent, preorder } = forest;

  // Terminals are judged on the original parent links: a cycle member always has a child.
  const hasChild = new Uint8Array(size);
  for (let id = 0; id < size; id++) {
    const p = index.parentId[id]!;
    if (p >= 0) hasChild[p] = 1;
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

  const lastTerminal = new Int32Array(size).fill(-1);
  for (let node = 0; node < size; node++) {
    if (hasChild[node] === 1) continue;
    const candidate = nearestSignificant[node]!;
    if (candidate < 0) continue;
    lastTerminal[candidate] = Math.max(lastTerminal[candidate]!, index.lastRecord[node]!);
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
    if (lastTerminal[node]! >= 0 && candidatesInSubtree[node] === 1) {
      leaves.push({ node, lastTerminalRecord: lastTerminal[node]! });
    }
  }
  return leaves.sort((a, b) => a.lastTerminalRecord - b.lastTerminalRecord);
}
