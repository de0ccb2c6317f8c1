// Per-node summary texts. A uuid's text joins the fragments of all its records that share the
// defining record's type; records of another type under the same uuid are ignored.
import type { Forest } from './forest';
import type { RecordIndex } from './record-index';
import { Trait } from './record-traits';
import { assistantTextFragments, summarizeText, userTextFragments } from './text';
import type { ChatRecord } from './types';

const UNKNOWN = -2;

export interface BranchTexts {
  /** Text of the topmost prompt with text strictly below `stop` (or from the root when -1). */
  firstPromptTextBelow(leaf: number, stop: number): string | undefined;
  lastPromptText(leaf: number): string | undefined;
  lastAssistantText(leaf: number): string | undefined;
}

export function createBranchTexts(
  records: readonly ChatRecord[],
  index: RecordIndex,
  forest: Forest,
): BranchTexts {
  const isPrompt = (node: number) => (index.traits[node]! & Trait.prompt) !== 0;

  const cache = new Map<number, string | undefined>();
  const textOf = (node: number): string | undefined => {
    if (cache.has(node)) return cache.get(node);
    const type = records[index.firstRecord[node]!]!.type;
    const fragmentsOf = type === 'user' ? userTextFragments : assistantTextFragments;
    const fragments: string[] = [];
    for (let r = index.firstRecord[node]!; r >= 0; r = index.nextSameUuid[r]!) {
      const record = records[r]!;
      if (record.type !== type) continue;
      for (const fragment of fragmentsOf(record)) fragments.push(fragment);
    }
    const text = summarizeText(fragments);
    cache.set(node, text);
    return text;
  };

  const lastPrompt = new LatestWithText(forest, index.traits, Trait.prompt, textOf);
  const lastAssistant = new LatestWithText(forest, index.traits, Trait.assistant, textOf);

  return {
    firstPromptTextBelow(leaf, stop) {
      const prompts: number[] = [];
      for (let node = leaf; node >= 0 && node !== stop; node = forest.parent[node]!) {
        if (isPrompt(node)) prompts.push(node);
      }
      for (let i = prompts.length - 1; i >= 0; i--) {
        const text = textOf(prompts[i]!);
        if (text !== undefined) return text;
      }
      return undefined;
    },
    lastPromptText: (leaf) => lastPrompt.textAt(leaf),
    lastAssistantText: (leaf) => lastAssistant.textAt(leaf),
  };
}

/**
 * The nearest ancestor-or-self of a node with `trait` that has text. Each such node is
 * resolved once (memoised), so all leaves together cost linear time.
 */
class LatestWithText {
  private readonly nearestMarked: Int32Array;
  private readonly resolved: Int32Array;

  constructor(
    private readonly forest: Forest,
    traits: Uint8Array,
    trait: number,
    private readonly textOf: (node: number) => string | undefined,
  ) {
    this.nearestMarked = new Int32Array(traits.length);
    for (let i = 0; i < forest.preorder.length; i++) {
      const node = forest.preorder[i]!;
      const p = forest.parent[node]!;
      this.nearestMarked[node] = (traits[node]! & trait) !== 0 ? node : p >= 0 ? this.nearestMarked[p]! : -1;
    }
    this.resolved = new Int32Array(traits.length).fill(UNKNOWN);
  }

  textAt(node: number): string | undefined {
    const pending: number[] = [];
    let found = -1;
    for (let m = this.nearestMarked[node]!; m >= 0;) {
      const known = this.resolved[m]!;
      if (known !== UNKNOWN) {
        found = known;
        break;
      }
      if (this.textOf(m) !== undefined) {
        found = m;
        break;
      }
      pending.push(m);
      const p = this.forest.parent[m]!;
      m = p >= 0 ? this.nearestMarked[p]! : -1;
    }
    for (const m of pending) this.resolved[m] = found;
    if (found >= 0) this.resolved[found] = found;
    return found >= 0 ? this.textOf(found) : undefined;
  }
}
