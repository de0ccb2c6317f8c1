/**
 * Why a path's label skips ordinals (docs/branching.md, "Step labels"): each branch of a path takes
 * that path's next ordinal whichever step it forks from, a path continued from a tip reserves one while
 * it still shows its parent's numbers, and archived, deleted and regenerated paths keep theirs. So
 * "4.2" may be on the map with no "4.1" anywhere; this says where 4.1 went, in words for a hover
 * ("4.2: the second path from step 3; 4.1 was continued from step 3, so it keeps its parent's
 * numbers"). Pure: the family graph's threads in, a note per thread whose label has a gap out.
 */
import { isReplyAlternative } from '../siblings/reply-alternatives';
import type { GraphThread } from './contracts';

type GapThread = Pick<
  GraphThread,
  'thread_id' | 'parent_thread_id' | 'branch_point_turn' | 'reason' | 'title' | 'starred' | 'archived' | 'is_deleted' | 'created_at' | 'suffix' | 'owned_turn_count'
>;

const ORDINAL_WORDS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

function ordinalWord(n: number): string {
  return ORDINAL_WORDS[n - 1] ?? `${n}th`;
}

/** `thread_id → note` for every path whose first step's label has lower ordinals missing from the map. */
export function ordinalGapNotes(threads: readonly GapThread[]): Map<string, string> {
  const bySuffix = new Map<string, GapThread>();
  const byId = new Map(threads.map((t) => [t.thread_id, t]));
  // Paths continued from a tip that still show their parent's numbers, by that shared suffix.
  const continuations = new Map<string, GapThread[]>();
  for (const thread of threads) {
    const parent = thread.parent_thread_id === null ? undefined : byId.get(thread.parent_thread_id);
    if (parent !== undefined && parent.suffix === thread.suffix) {
      const list = continuations.get(thread.suffix) ?? [];
      list.push(thread);
      continuations.set(thread.suffix, list);
    } else if (!bySuffix.has(thread.suffix)) {
      bySuffix.set(thread.suffix, thread);
    }
  }
  for (const list of continuations.values()) list.sort((a, b) => a.created_at.localeCompare(b.created_at));

  const childCount = new Map<string, number>();
  for (const thread of threads) {
    if (thread.parent_thread_id !== null && !thread.is_deleted) childCount.set(thread.parent_thread_id, (childCount.get(thread.parent_thread_id) ?? 0) + 1);
  }
  const isStacked = (t: GapThread) => isReplyAlternative({ ...t, child_count: childCount.get(t.thread_id) ?? 0 });

  const notes = new Map<string, string>();
  for (const thread of threads) {
    const match = /^(.*)\.(\d+)$/.exec(thread.suffix);
    if (match === null || thread.branch_point_turn === null) continue;
    const prefix = match[1] ?? '';
    const ordinal = Number(match[2]);
    if (ordinal <= 1 || bySuffix.get(thread.suffix)?.thread_id !== thread.thread_id) continue;
    const spare = [...(continuations.get(prefix) ?? [])];
    const reasons: string[] = [];
    for (let m = 1; m < ordinal; m += 1) {
      const sibling = bySuffix.get(`${prefix}.${m}`);
      const name = (t: GapThread) => `${t.branch_point_turn === null ? '' : t.branch_point_turn + 1}${prefix}.${m}`;
      if (sibling !== undefined) {
        if (sibling.archived) reasons.push(`${name(sibling)} is archived`);
        else if (sibling.is_deleted) reasons.push(`${name(sibling)} was deleted`);
        else if (isStacked(sibling)) reasons.push(`${name(sibling)} is a regenerated reply, stacked on its step`);
        continue;
      }
      const continued = spare.shift();
      if (continued !== undefined) {
        reasons.push(`${name(continued)} was continued from step ${continued.branch_point_turn}, so it keeps its parent's numbers`);
      } else {
        reasons.push(`${prefix}.${m} was archived or deleted`.replace(/^\./, 'path .'));
      }
    }
    if (reasons.length === 0) continue;
    const label = `${thread.branch_point_turn + 1}${thread.suffix}`;
    notes.set(thread.thread_id, `${label}: the ${ordinalWord(ordinal)} path from step ${thread.branch_point_turn}; ${reasons.join('; ')}`);
  }
  return notes;
}
