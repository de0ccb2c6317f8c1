// Rewind classification (docs/branching.md, "The transcript inspector's rules"): a branch is a rewind descendant when its chain contains
// a rewind record, a rewind sibling when a rewind record of the same tree lies off its chain and
// not below its leaf, mixed when both. Structural labels only: nothing is active or abandoned.
import type { Forest } from './forest';
import { hasTrait, Trait } from './record-traits';
import type { BranchClassification } from './types';

/** One tree's rewinds in first-written order, with their preorder spans side by side. */
interface TreeRewinds {
  readonly uuids: string[];
  readonly positions: number[];
  readonly ends: number[];
}

export interface RewindIndex {
  /** Node id → nearest ancestor-or-self rewind node, or -1. */
  readonly nearestRewind: Int32Array;
  readonly byTree: ReadonlyMap<number, TreeRewinds>;
}

export function indexRewinds(forest: Forest, traits: Uint8Array, uuids: readonly string[]): RewindIndex {
  const isRewind = (node: number) => hasTrait(traits, node, Trait.rewind);
  const nearestRewind = new Int32Array(forest.parent.length);
  for (let i = 0; i < forest.preorder.length; i++) {
    const node = forest.preorder[i]!;
    const p = forest.parent[node]!;
    nearestRewind[node] = isRewind(node) ? node : p >= 0 ? nearestRewind[p]! : -1;
  }
  // Every leaf scans its tree's rewinds; compact side-by-side spans keep that scan in cache.
  const byTree = new Map<number, TreeRewinds>();
  for (let node = 0; node < traits.length; node++) {
    if (!isRewind(node)) continue;
    const root = forest.root[node]!;
    let tree = byTree.get(root);
    if (tree === undefined) byTree.set(root, (tree = { uuids: [], positions: [], ends: [] }));
    tree.uuids.push(uuids[node]!);
    tree.positions.push(forest.position[node]!);
    tree.ends.push(forest.end[node]!);
  }
  return { nearestRewind, byTree };
}

export interface RewindRelation {
  classification: BranchClassification;
  /** Rewinds on the leaf's chain, root → leaf. */
  containsRewindUuids: string[];
  /** Rewinds of the same tree off the chain and not below the leaf, first-written order. */
  siblingRewindUuids: string[];
}

export function relateToRewinds(
  forest: Forest,
  rewinds: RewindIndex,
  uuids: readonly string[],
  leaf: number,
): RewindRelation {
  const containsRewindUuids: string[] = [];
  for (let r = rewinds.nearestRewind[leaf]!; r >= 0;) {
    containsRewindUuids.push(uuids[r]!);
    const p = forest.parent[r]!;
    r = p >= 0 ? rewinds.nearestRewind[p]! : -1;
  }
  containsRewindUuids.reverse();

  const siblingRewindUuids: string[] = [];
  const tree = rewinds.byTree.get(forest.root[leaf]!);
  if (tree !== undefined) {
    const leafPosition = forest.position[leaf]!;
    const leafEnd = forest.end[leaf]!;
    for (let i = 0; i < tree.uuids.length; i++) {
      const position = tree.positions[i]!;
      const isOnChain = position <= leafPosition && leafPosition < tree.ends[i]!;
      const isBelowLeaf = leafPosition < position && position < leafEnd;
      if (!isOnChain && !isBelowLeaf) siblingRewindUuids.push(tree.uuids[i]!);
    }
  }

  const isDescendant = containsRewindUuids.length > 0;
  const hasSibling = siblingRewindUuids.length > 0;
  return {
    classification: classify(isDescendant, hasSibling),
    containsRewindUuids,
    siblingRewindUuids,
  };
}

function classify(isDescendant: boolean, hasSibling: boolean): BranchClassification {
  if (isDescendant && hasSibling) return 'mixed-rewind';
  if (isDescendant) return 'rewind-descendant';
  if (hasSibling) return 'rewind-sibling';
  return 'ordinary';
}
