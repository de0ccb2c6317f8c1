// What a person counts in a Claude Code file (docs/transcripts.md, "What counts as a
// conversation"): a conversation is a distinct line of answered prompts. Two lines that carry
// the same replies are one conversation, and so is a line whose replies all lie on a line that
// goes on: it is that line, stopped earlier or written twice. Two passes, linear in the records:
//
// - rehangCarriedPrompts, a repair: a prompt whose parent is bookkeeping (a progress record, an
//   API-error retry, a hook summary) hanging beside the branch that holds the assistant's work
//   followed that work, not the bookkeeping. It is joined to the record written just before it,
//   as an orphan is.
// - keepDistinctLines, the count: every line (root to raw terminal) is keyed by the replies on
//   it, in order (an assistant message's `message.id`, or its visible text where none), and a
//   line whose key is a prefix of another line's, or equal to a later-written line's, is not a
//   conversation: the records only such lines hold become neutral, so their leaves collapse
//   into the line that goes on. Re-appended stretches (new uuids, same message ids), a replayed
//   last turn, withdrawn drafts, dead ends of bookkeeping and a prompt left beside a line that
//   goes on are all this one case.
import { RecordSubtype } from '../record-kind';
import type { ChatRecord } from '../types';
import { isNeutral, makeNeutral, type LongTailRecord, type ParentForest } from './claude-code-long-tail';

/** Per index of the forest: its position in `order` and the size of its subtree. */
function subtreeSpans({ order, parent }: ParentForest, size: number) {
  const position = new Int32Array(size).fill(-1);
  const span = new Int32Array(size).fill(1);
  order.forEach((index, at) => {
    position[index] = at;
  });
  for (let at = order.length - 1; at >= 0; at--) {
    const index = order[at]!;
    const up = parent[index]!;
    if (up >= 0 && up !== index && position[up]! >= 0 && position[up]! < at) span[up]! += span[index]!;
  }
  return { position, span };
}

/**
 * The repair: a prompt hung on a chain of neutral records below X, where the last significant
 * record written before it is on another branch below X (the work the chain stands beside), is
 * joined to that record. Whether the chain carries is decided at the first prompt written below
 * it; every later prompt below the same chain (a draft re-sent, a prompt asked again from the
 * same place) moves with it, so siblings stay siblings. Returns the number of prompts moved.
 */
export function rehangCarriedPrompts(mapped: readonly LongTailRecord[], forest: ParentForest): number {
  const size = mapped.length;
  const { order, first, parent: parentOf } = forest;
  // Per first record: its nearest significant ancestor (itself when significant) and, for a
  // neutral record, the top of its neutral chain (the child of that ancestor on its path).
  const significant = new Int32Array(size).fill(-1);
  const chainTop = new Int32Array(size).fill(-1);
  for (const index of order) {
    const up = parentOf[index]!;
    if (!isNeutral(mapped[index]!.record)) {
      significant[index] = index;
      continue;
    }
    if (up < 0 || up === index) continue;
    significant[index] = significant[up]!;
    chainTop[index] = isNeutral(mapped[up]!.record) ? chainTop[up]! : index;
  }
  const { position, span } = subtreeSpans(forest, size);
  const isBelow = (index: number, ancestor: number) =>
    position[index]! > position[ancestor]! && position[index]! < position[ancestor]! + span[ancestor]!;

  /** Per chain top: 0 undecided, 1 stays, 2 moved to `target`. */
  const decided = new Uint8Array(size);
  const target = new Int32Array(size).fill(-1);
  /** The last significant first-record written on each side (0 main, 1 sidechain). */
  const lastSignificant = [-1, -1];
  let moved = 0;
  for (let index = 0; index < size; index++) {
    const { record, source } = mapped[index]!;
    const side = source.isSidechain ? 1 : 0;
    const up = first[index] === index ? parentOf[index]! : -1;
    const top = up >= 0 ? chainTop[up]! : -1;
    if (record.type === 'user' && top >= 0 && isNeutral(mapped[up]!.record)) {
      if (decided[top] === 0) {
        const anchor = significant[up]!;
        const before = lastSignificant[side]!;
        const carries =
          anchor >= 0 && before >= 0 && before !== anchor && isBelow(before, anchor) && !isBelow(before, top);
        decided[top] = carries ? 2 : 1;
        target[top] = before;
      }
      if (decided[top] === 2) {
        source.originalParentUuid ??= record.parentUuid;
        record.parentUuid = mapped[target[top]!]!.record.uuid;
        moved++;
      }
    }
    if (first[index] === index && !isNeutral(record)) lastSignificant[side] = index;
  }
  return moved;
}

/** System records that are Claude Code's bookkeeping around a line, never a line of their own. */
const BOOKKEEPING: ReadonlySet<string> = new Set([
  RecordSubtype.commandOutput,
  RecordSubtype.meta,
  RecordSubtype.interrupted,
  RecordSubtype.compactSummary,
  RecordSubtype.compactBoundary,
]);

/** Claude Code's placeholder for an empty text block: nothing a person reads. */
const NO_CONTENT = '(no content)';

/**
 * The keys a record adds to its line: a reply's message id; where a reply has none, one key per
 * visible block (its text, or its tool call's id), since a copy may split one record's blocks
 * into several records; a significant system record (a rewind) its own uuid, since the topology rules (docs/transcripts.md)
 * keeps such a record a leaf of its own. Empty for everything else.
 */
function replyKeys(record: ChatRecord, messageId: string | undefined): string[] {
  if (record.type === 'system') return BOOKKEEPING.has(record.subtype ?? '') ? [] : [`system:${record.uuid}`];
  if (record.type !== 'assistant') return [];
  const blocks: string[] = [];
  // A message's placeholder block still belongs to a message a person sees (its tool calls).
  let ofMessage = false;
  for (const part of record.message?.parts ?? []) {
    const call = part.functionCall as { id?: unknown; name?: unknown } | null | undefined;
    if (call !== undefined && call !== null) blocks.push(`call:${String(call.id ?? call.name)}`);
    else if (typeof part.text === 'string' && part.thought !== true) {
      const text = part.text.trim();
      if (text !== '' && text !== NO_CONTENT) blocks.push(`text:${text}`);
      else if (text === NO_CONTENT) ofMessage = true;
    }
  }
  if (messageId !== undefined) return blocks.length > 0 || ofMessage ? [`id:${messageId}`] : [];
  return blocks;
}

/**
 * The count: makes neutral every record that only lines repeating another line's replies hold.
 * Returns the number of lines set aside. Lines that carry no reply at all are left to the
 * unanswered-tree rule unless their tree holds a replied line.
 */
export function keepDistinctLines(mapped: readonly LongTailRecord[], forest: ParentForest): number {
  const size = mapped.length;
  const { order, first, parent: parentOf, sidechain } = forest;
  // Trie of reply keys: node 0 and 1 are the main and sidechain roots.
  const trieParent: number[] = [-1, -1];
  const edges = new Map<string, number>();
  const node = new Int32Array(size).fill(-1);
  const lastKey = new Array<string | undefined>(size);
  const treeOf = new Int32Array(size).fill(-1);
  const childCount = new Int32Array(size);
  for (const index of order) {
    const up = parentOf[index]!;
    if (up >= 0 && up !== index) childCount[up]!++;
  }
  for (const index of order) {
    const { record, source } = mapped[index]!;
    const side = sidechain[index]!;
    const up = parentOf[index]!;
    const sameSide = up >= 0 && up !== index && node[up]! >= 0 && sidechain[up] === side;
    let at = sameSide ? node[up]! : side;
    let last = sameSide ? lastKey[up] : undefined;
    treeOf[index] = sameSide ? treeOf[up]! : index;
    const keys = isNeutral(record) ? [] : replyKeys(record, source.messageId);
    for (const key of keys) {
      if (key === last) continue;
      const edge = `${at}\u0001${key}`;
      let next = edges.get(edge);
      if (next === undefined) {
        next = trieParent.length;
        trieParent.push(at);
        edges.set(edge, next);
      }
      at = next;
      last = key;
    }
    node[index] = at;
    lastKey[index] = last;
  }

  // Terminals: first records nothing hangs below. Per trie node, the one written last ends it.
  const nodes = trieParent.length;
  const endedBy = new Int32Array(nodes).fill(-1);
  const repliedTree = new Uint8Array(size);
  const terminals: number[] = [];
  for (let index = 0; index < size; index++) {
    if (first[index] !== index || node[index]! < 0 || childCount[index]! > 0) continue;
    terminals.push(index);
    const at = node[index]!;
    if (at > 1) {
      repliedTree[treeOf[index]!] = 1;
      endedBy[at] = index;
    }
  }
  // A node has a line going on below it when an ended node lies strictly under it.
  const endedAtOrBelow = new Uint8Array(nodes);
  const goesOnBelow = new Uint8Array(nodes);
  for (let at = nodes - 1; at >= 2; at--) {
    if (endedBy[at]! >= 0) endedAtOrBelow[at] = 1;
    if (endedAtOrBelow[at] === 1) {
      const up = trieParent[at]!;
      endedAtOrBelow[up] = 1;
      goesOnBelow[up] = 1;
    }
  }

  const live = new Uint8Array(size);
  let setAside = 0;
  for (const index of terminals) {
    const at = node[index]!;
    const kept = at <= 1 ? repliedTree[treeOf[index]!] === 0 : goesOnBelow[at] === 0 && endedBy[at] === index;
    if (kept) live[index] = 1;
    else setAside++;
  }
  if (setAside === 0) return 0;
  for (let i = order.length - 1; i >= 0; i--) {
    const index = order[i]!;
    const up = parentOf[index]!;
    if (live[index] === 1 && up >= 0 && up !== index) live[up] = 1;
  }
  for (let index = 0; index < size; index++) {
    const { record, source } = mapped[index]!;
    if (node[first[index]!]! < 0 || live[first[index]!] === 1 || isNeutral(record)) continue;
    makeNeutral(record, source, 'a line whose replies another line carries');
  }
  return setAside;
}
