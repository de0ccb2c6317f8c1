import { isReplyAlternative, type Conversation } from '@trellis/domain';

/** The regenerated replies of one step, folded into the row of the path they branched from. */
export interface ReplyAlternativeGroup {
  /** The step whose reply was regenerated (the alternatives branched at `step − 1`). */
  step: number;
  /** Every reply of the step: the parent's own one (when it has that step) and the alternatives. */
  replyCount: number;
  /** The alternatives, newest first. */
  threads: Conversation[];
}

/**
 * Splits the regeneration alternatives (domain `isReplyAlternative`) out of a list of paths: each
 * is folded into its parent's row as a count per step, so three regenerations of one reply add no
 * row to the history. An alternative whose parent is not in the list stays a row of its own (there
 * is no row to fold it into). Children are counted over the whole list, archived ones included.
 */
export function foldReplyAlternatives(list: readonly Conversation[]): {
  paths: Conversation[];
  alternativesOf: Map<string, ReplyAlternativeGroup[]>;
} {
  const byId = new Map(list.map((c) => [c.thread_id, c]));
  const childCount = new Map<string, number>();
  for (const c of list) {
    if (c.parent_thread_id !== null) childCount.set(c.parent_thread_id, (childCount.get(c.parent_thread_id) ?? 0) + 1);
  }
  const paths: Conversation[] = [];
  const grouped = new Map<string, Map<number, Conversation[]>>();
  for (const c of list) {
    const parent = c.parent_thread_id === null ? undefined : byId.get(c.parent_thread_id);
    const isAlternative =
      parent !== undefined &&
      !c.archived &&
      parent.thread_id !== c.thread_id &&
      isReplyAlternative({
        reason: c.branch_reason,
        title: c.title,
        starred: c.starred,
        branch_point_turn: c.branch_point_turn,
        owned_turn_count: c.turn_index - (c.branch_point_turn ?? 0),
        child_count: childCount.get(c.thread_id) ?? 0,
      });
    if (!isAlternative || parent === undefined || c.branch_point_turn === null) {
      paths.push(c);
      continue;
    }
    const steps = grouped.get(parent.thread_id) ?? new Map<number, Conversation[]>();
    const step = c.branch_point_turn + 1;
    steps.set(step, [...(steps.get(step) ?? []), c]);
    grouped.set(parent.thread_id, steps);
  }
  const alternativesOf = new Map<string, ReplyAlternativeGroup[]>();
  for (const [parentId, steps] of grouped) {
    const parent = byId.get(parentId)!;
    alternativesOf.set(
      parentId,
      [...steps]
        .sort(([a], [b]) => a - b)
        .map(([step, threads]) => ({
          step,
          replyCount: threads.length + (parent.turn_index >= step ? 1 : 0),
          threads: [...threads].sort((a, b) => b.created_at.localeCompare(a.created_at) || a.thread_id.localeCompare(b.thread_id)),
        })),
    );
  }
  return { paths, alternativesOf };
}
