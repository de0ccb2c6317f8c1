/**
 * Regenerations stay with their step: a
 * path made by regenerating a reply is an alternative *reply* of that step, not a path of its own,
 * while nobody has made it one — it owns at most its one regenerated turn, has no branches of its
 * own, keeps the title regenerating gave it, and is not starred. The history folds such paths into
 * one count on their step; the chat pages through them on the reply; the map stacks them.
 */

/** `conversation_branches.reason` of a path made by regenerating a reply. */
export const REGENERATE_REASON = 'regenerate';

/** A regenerated answer repeats its step's message, so its path is named by the step instead. */
export function regeneratedTitle(turn: number): string {
  return `Regenerated at step ${turn}`;
}

/** What the rule reads of a path; both the history's conversations and the graph's threads have it. */
export interface AlternativeCandidate {
  /** The branch's reason (`regenerate`, `edit`, …); null on a family root or a plain branch. */
  reason: string | null;
  title: string;
  starred: boolean;
  /** The parent turn k the path branched at; null on a family root. */
  branch_point_turn: number | null;
  /** Turns the path owns (after its branch point). */
  owned_turn_count: number;
  /** Visible paths branched from this one. */
  child_count: number;
}

/** Whether `path` is a regeneration alternative of the reply at step `branch_point_turn + 1`. */
export function isReplyAlternative(path: AlternativeCandidate): boolean {
  if (path.reason !== REGENERATE_REASON || path.branch_point_turn === null) return false;
  return (
    path.owned_turn_count <= 1 &&
    path.child_count === 0 &&
    !path.starred &&
    path.title === regeneratedTitle(path.branch_point_turn + 1)
  );
}
