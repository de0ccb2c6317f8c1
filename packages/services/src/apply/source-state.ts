// The state an apply reads from its source step: the workspace after that step (THE
// snapshot(k+1)-or-live rule) and the artifacts made up to it, bodies included.
import { sql } from 'drizzle-orm';
import type { ApplyState, LineageEntry, Workspace } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { readRestoreState } from '../branching/restore-state';
import { toState } from '../workspace/snapshot-state';

export interface ApplySourceState {
  state: ApplyState;
  /** An artifact's family number by key: a copy keeps its number, like a branch's inherited one. */
  artifactNumbers: ReadonlyMap<string, number>;
}

export async function readApplySource(db: DbOrTx, lineage: readonly LineageEntry[], turn: number): Promise<ApplySourceState> {
  const displayed = lineage.at(-1)!.thread_id;
  const [{ state }, artifacts] = await Promise.all([
    readRestoreState(db, lineage, turn),
    // A thread holds copies (keys included) of the artifacts it inherited, so ≤ turn is complete.
    db.execute<{ key: string; kind: string; title: string; content: string; number: number }>(sql`
      select key::text as key, kind, title, content, number from artifacts
      where thread_id = ${displayed} and turn_index <= ${turn} order by id`),
  ]);
  return {
    state: { ...state, artifacts: artifacts.map(({ key, kind, title, content }) => ({ key, kind, title, content })) },
    artifactNumbers: new Map(artifacts.map((a) => [a.key, a.number])),
  };
}

/** The live workspace as an apply sees it (artifact bodies included). */
export function toApplyState(live: Workspace): ApplyState {
  return {
    ...toState(live),
    artifacts: live.artifacts.map(({ key, kind, title, content }) => ({ key, kind, title, content })),
  };
}
