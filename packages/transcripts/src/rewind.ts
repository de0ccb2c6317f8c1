// Rewind classification (issue 7 §2): a branch is a rewind descendant when its chain contains
// a rewind record, a rewind sibling when a rewind record of the same tree lies off its chain and
// not below its leaf, mixed when both. Structural labels only: nothing is active or abandoned.
import { isAncestorOrSelf, type Forest } from './forest';
import { hasTrait, Trait } from './record-traits';
import type { BranchClassification } from './types';

export interface RewindIndex {
  /** Node id → nearest ancestor-or-self rewind node, or -1. */
  readonly nearestRewind: Int32Array;
  /** Tree root → its rewind nodes in first-written order. */
  readonly rewindsByTree: ReadonlyMap<number, readonly number[]>;
}

export function indexRewinds(forest: Forest, traits: Uint8Array): RewindIndex {
  const isRewind = (node: number) => hasTrait(traits, node, Trait.rewind);
  const nearestRewind = new Int32Array(forest.parent.length);
  for (let i = 0; i < forest.preorder.length; i++) {
    const node = forest.preorder[i]!;
    const p = forest.parent[node]!;
    nearestRewind[node] = isRewind(node) ? node : p >= 0 ? nearestRewind[p]! : -1;
  }
  const rewindsByTree = new Map<number, number[]>();
  for (let node = 0; node < traits.length; node++) {
    if (!isRewind(node)) continue;
    const root = forest.root[node]!;
    const list = rewindsByTree.get(root);
    if (list === undefined) rewindsByTree.set(root, [node]);
    else list.push(node);
  }
  return { nearestRewind, rewindsByTree };
}

export interface RewindRelation {
  classification: BranchClassification;
  /** Rewinds on the leaf's chain, root → leaf. */
  containsRewinds: number[];
  /** Rewinds of the same tree off the chain and not below the leaf, first-written order. */
  siblingRewinds: number[];
}

export function relateToRewinds(forest: Forest, rewinds: RewindIndex, leaf: number): RewindRelation {
  const containsRewinds: number[] = [];
  for (let r = rewinds.nearestRewind[leaf]!; r >= 0;) {
    containsRewinds.push(r);
    const p = forest.parent[r]!;
    r = p >= 0 ? rewinds.nearestRewind[p]! : -1;
  }
  containsRewinds.reverse();

  const siblingRewinds: number[] = [];
  for (const r of rewinds.rewindsByTree.get(forest.root[leaf]!) ?? []) {
    if (!isAncestorOrSelf(forest, r, leaf) && !isAncestorOrSelf(forest, leaf, r)) siblingRewinds.push(r);
  }

  return {
    classification: classify(containsRewinds.length > 0, siblingRewinds.length > 0),
    containsRewinds,
    siblingRewinds,
  };
}

function classify(isDescendant: boolean, hasSibling: boolean): BranchClassification {
  if (isDescendant && hasSibling) return 'mixed-rewind';
  if (isDescendant) return 'rewind-descendant';
  if (hasSibling) return 'rewind-sibling';
  return 'ordinary';
}
