/**
 * Regenerations stay with their step: a
 * path made by regenerating a reply is an alternative *reply* of that step, not a path of its own,
 * while nobody has made it one — it owns at most its one regenerated turn, has no branches of its
 * own, keeps the title regenerating gave it, and is not starred. The history folds such paths into
 * one count on their step; the chat pages through them on the reply; the map stacks them.
 */

/** `conversation_branches.reason` of a path made by regenerating a reply. */
export const REGENERATE_REASON = 'regenerate';

/**
 * A regenerated answer repeats its step's message, so its path is named by the step instead; the
 * second and later regenerations of one step are numbered ("Regenerated at step 5 (2)"), so the
 * history and the map never show two paths by the same name.
 */
export function regeneratedTitle(turn: number, ordinal = 1): string {
  return ordinal <= 1 ? `Regenerated at step ${turn}` : `Regenerated at step ${turn} (${ordinal})`;
}

/** Whether `title` is a name regenerating step `turn` gives, numbered or not. */
export function isRegeneratedTitle(title: string, turn: number): boolean {
  const base = regeneratedTitle(turn);
  if (title === base) return true;
  return title.startsWith(`${base} (`) && /^ \([1-9]\d*\)$/.test(title.slice(base.length));
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
    isRegeneratedTitle(path.title, path.branch_point_turn + 1)
  );
}
