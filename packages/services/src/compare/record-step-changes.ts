import { sql } from 'drizzle-orm';
import { compareWorkspaces, summarizeComparison, type CompareState, type LineageEntry } from '@trellis/domain';
import type { Db } from '@trellis/db';
import { readStepState } from './step-state';

/**
 * Stores the change summary of the steps a settled turn k touched on its thread, so the graph reads
 * them as metadata: step k (its start, snapshot k, against the workspace after it) and step k−1, whose
 * "after" is now final (snapshot k absorbed the manual edits made between the turns). Steps the thread
 * does not own (at or below its branch point) belong to an ancestor and are left alone.
 */
export async function recordStepChanges(
  db: Db,
  lineage: readonly LineageEntry[],
  turnIndex: number,
): Promise<void> {
  const thread = lineage.at(-1)!;
  const low = (thread.branch_point_turn ?? 0) + 1;
  const steps = [turnIndex - 1, turnIndex].filter((k) => k >= low && k <= thread.turn_index);
  if (steps.length === 0) return;
  const states = new Map<number, Promise<CompareState>>();
  const stateAfter = (k: number) => {
    if (!states.has(k)) states.set(k, readStepState(db, lineage, k));
    return states.get(k)!;
  };
  const rows = await Promise.all(
    steps.map(async (k) => {
      const [before, after] = await Promise.all([stateAfter(k - 1), stateAfter(k)]);
      return { turn_index: k, ...summarizeComparison(compareWorkspaces(before, after)) };
    }),
  );
  await db.execute(sql`
    insert into step_changes (thread_id, turn_index, words_added, words_removed, items_added, items_removed, items_edited)
    select ${thread.thread_id}, r.turn_index, r.words_added, r.words_removed, r.items_added, r.items_removed, r.items_edited
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as r(turn_index int, words_added int, words_removed int, items_added int, items_removed int, items_edited int)
    on conflict (thread_id, turn_index) do update set
      words_added = excluded.words_added, words_removed = excluded.words_removed, items_added = excluded.items_added,
      items_removed = excluded.items_removed, items_edited = excluded.items_edited, computed_at = now()`);
}
