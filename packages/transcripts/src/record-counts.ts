// recordCounts (docs/branching.md, "The transcript inspector's rules"): each uuid on the chain once, by its defining record's type; every
// system subtype counts as system. Prefix sums down the forest make each leaf O(1).
import type { Forest } from './forest';
import { Trait } from './record-traits';
import type { RecordCounts } from './types';

export interface ChainCounts {
  countsAt(node: number): RecordCounts;
}

export function countChains(forest: Forest, traits: Uint8Array): ChainCounts {
  const size = forest.parent.length;
  const user = new Int32Array(size);
  const assistant = new Int32Array(size);
  const toolResult = new Int32Array(size);
  const system = new Int32Array(size);
  for (let i = 0; i < forest.preorder.length; i++) {
    const node = forest.preorder[i]!;
    const p = forest.parent[node]!;
    if (p >= 0) {
      user[node] = user[p]!;
      assistant[node] = assistant[p]!;
      toolResult[node] = toolResult[p]!;
      system[node] = system[p]!;
    }
    const own = traits[node]!;
    if (own & Trait.user) user[node]!++;
    else if (own & Trait.assistant) assistant[node]!++;
    else if (own & Trait.toolResult) toolResult[node]!++;
    else if (own & Trait.system) system[node]!++;
  }
  return {
    countsAt: (node) => ({
      user: user[node]!,
      assistant: assistant[node]!,
      toolResult: toolResult[node]!,
      system: system[node]!,
    }),
  };
}
