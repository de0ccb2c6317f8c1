// The workspace after one step of a path, as the compare sees it: the restore state (THE
// snapshot(k+1)-or-live rule) plus the artifacts made up to that step, titles and kinds only.
import { sql } from 'drizzle-orm';
import type { CompareState, LineageEntry } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { readRestoreState } from '../branching/restore-state';

export async function readStepState(db: DbOrTx, lineage: readonly LineageEntry[], turn: number): Promise<CompareState> {
  const displayed = lineage.at(-1)!.thread_id;
  const [{ state }, artifacts] = await Promise.all([
    readRestoreState(db, lineage, turn),
    // A thread holds copies (keys included) of the artifacts it inherited, so ≤ turn is complete.
    db.execute<{ key: string; title: string; kind: string }>(sql`
      select key::text as key, title, kind from artifacts
      where thread_id = ${displayed} and turn_index <= ${turn} order by id`),
  ]);
  return { ...state, artifacts: artifacts.map(({ key, title, kind }) => ({ key, title, kind })) };
}
