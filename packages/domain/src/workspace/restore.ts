import { AppError } from '../errors/app-error';
import type { WorkspaceOverride } from '../contracts/workspace';
import type { WorkspaceState } from './snapshot';

/** One thread of a lineage, root first. The root has `branch_point_turn: null`. */
export interface LineageEntry {
  thread_id: string;
  branch_point_turn: number | null;
  /** The latest turn of this thread (for a fresh branch: its branch point). */
  turn_index: number;
}

export type RestoreSource =
  | { kind: 'live'; thread_id: string }
  | { kind: 'snapshot'; thread_id: string; turn_index: number };

/**
 * THE restore rule (docs/branching.md, "The restore rule"): snapshot k is captured before
 * the agent acts on turn k, so the workspace *after* turn k is snapshot k+1 — or,
 * when k is the latest turn of the displayed thread, its live rows. On a branch,
 * turn k+1 belongs to whichever thread of the lineage owns it (the deepest one
 * whose branch point is below k+1). Every reader of "the workspace as of k"
 * (restore view, branch creation, exports) goes through this one function.
 */
export function resolveRestoreSource(lineage: readonly LineageEntry[], k: number): RestoreSource {
  const displayed = lineage.at(-1);
  if (!displayed) throw new AppError('internal', 'empty lineage');
  if (!Number.isInteger(k) || k < 0) {
    throw AppError.validation([{ path: 'turn', message: 'must be an integer, 0 or greater' }]);
  }
  if (k > displayed.turn_index) throw AppError.notFound(`Turn ${k}`);
  if (k === displayed.turn_index) return { kind: 'live', thread_id: displayed.thread_id };
  return { kind: 'snapshot', thread_id: ownerOfTurn(lineage, k + 1), turn_index: k + 1 };
}

/** The thread of the lineage that owns turn `turn` (turns ≤ a branch point belong to ancestors). */
export function ownerOfTurn(lineage: readonly LineageEntry[], turn: number): string {
  for (let i = lineage.length - 1; i >= 0; i--) {
    const entry = lineage[i]!;
    if (entry.branch_point_turn === null || entry.branch_point_turn < turn) return entry.thread_id;
  }
  return lineage[0]!.thread_id;
}

/**
 * Turn ranges each lineage thread contributes to the displayed transcript up to
 * turn `upTo`: an ancestor owns (its branch point, the next branch point]; the
 * displayed thread owns everything after its own branch point. A branch's
 * inheritance stops at its branch point forever, whatever its parent adds later.
 */
export function lineageTurnRanges(
  lineage: readonly LineageEntry[],
  upTo: number,
): { thread_id: string; from: number; to: number }[] {
  const ranges: { thread_id: string; from: number; to: number }[] = [];
  for (let i = 0; i < lineage.length; i++) {
    const entry = lineage[i]!;
    const next = lineage[i + 1];
    const from = (entry.branch_point_turn ?? 0) + 1;
    const to = Math.min(next ? (next.branch_point_turn ?? 0) : entry.turn_index, upTo);
    if (to >= from) ranges.push({ thread_id: entry.thread_id, from, to });
  }
  return ranges;
}

/**
 * The state a new branch is seeded from: the restore state, with the client's
 * edited-preview override taking precedence field by field (docs/branching.md,
 * "The restore rule"). Positions come from list order only; an item the
 * preview kept carries its key, so the copy keeps its identity.
 */
export function applyWorkspaceOverride(base: WorkspaceState, override: WorkspaceOverride | undefined): WorkspaceState {
  if (!override) return base;
  return {
    objective: override.objective !== undefined ? override.objective : base.objective,
    document: {
      title: override.document?.title ?? base.document.title,
      content: override.document?.content ?? base.document.content,
    },
    preferences:
      override.preferences?.map((p) => ({ key: p.key ?? null, text: p.text, locked: p.locked ?? false })) ??
      base.preferences,
    todos:
      override.todos?.map((t) => ({ key: t.key ?? null, text: t.text, done: t.done ?? false, depth: t.depth ?? 0 })) ??
      base.todos,
  };
}
