import { sql } from 'drizzle-orm';
import {
  AppError,
  normalizeSnapshotPreferences,
  normalizeSnapshotTodos,
  resolveRestoreSource,
  type LineageEntry,
  type RestoreSource,
  type WorkspaceState,
} from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { readLiveWorkspace } from '../workspace/read-live-workspace';

export interface RestoreState {
  source: RestoreSource;
  state: WorkspaceState;
}

/**
 * The workspace after turn k of the displayed path, through THE restore rule
 * (`resolveRestoreSource`: snapshot k+1 of the thread owning turn k+1, or the live
 * rows at the tip). A missing snapshot k+1 is a 409: that state can't be rebuilt.
 */
export async function readRestoreState(db: DbOrTx, lineage: readonly LineageEntry[], k: number): Promise<RestoreState> {
  const source = resolveRestoreSource(lineage, k);
  if (source.kind === 'live') {
    const live = await readLiveWorkspace(db, source.thread_id, { artifactContent: false });
    return {
      source,
      state: {
        objective: live.objective,
        document: live.document,
        preferences: live.preferences.map((p) => ({ text: p.text, locked: p.locked })),
        todos: live.todos.map((t) => ({ text: t.text, done: t.done, depth: t.depth })),
      },
    };
  }
  const [row] = await db.execute<{
    objective: string | null;
    document_title: string;
    content: string | null;
    preferences: unknown;
    todos: unknown;
  }>(sql`
    select s.objective, s.document_title, b.content, s.preferences, s.todos
    from workspace_snapshots s left join document_blobs b on b.hash = s.document_hash
    where s.thread_id = ${source.thread_id} and s.turn_index = ${source.turn_index}`);
  if (!row) {
    throw new AppError('conflict', `The workspace after turn ${k} cannot be reconstructed: snapshot ${k + 1} is missing`);
  }
  return {
    source,
    state: {
      objective: row.objective ?? null,
      document: { title: row.document_title, content: row.content ?? '' },
      preferences: normalizeSnapshotPreferences(row.preferences),
      todos: normalizeSnapshotTodos(row.todos),
    },
  };
}
