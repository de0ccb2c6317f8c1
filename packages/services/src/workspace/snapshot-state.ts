// A workspace as state (no ids, positions or artifacts): snapshot k read back with
// its document body joined from the content-addressed blobs, or the live rows.
import { sql } from 'drizzle-orm';
import {
  normalizeSnapshotPreferences,
  normalizeSnapshotTodos,
  type Workspace,
  type WorkspaceState,
} from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';

export async function readSnapshotState(
  db: DbOrTx,
  threadId: string,
  turnIndex: number,
): Promise<WorkspaceState | null> {
  return (await readSnapshotWithMessage(db, threadId, turnIndex))?.state ?? null;
}

/** Snapshot k as state, with the user message of step k (the prompt it opens with). */
export async function readSnapshotWithMessage(
  db: DbOrTx,
  threadId: string,
  turnIndex: number,
): Promise<{ state: WorkspaceState; message: string | null } | null> {
  const [row] = await db.execute<{
    objective: string | null;
    document_title: string;
    content: string | null;
    preferences: unknown;
    todos: unknown;
    user_message: string | null;
  }>(sql`
    select s.objective, s.document_title, b.content, s.preferences, s.todos, s.user_message
    from workspace_snapshots s left join document_blobs b on b.hash = s.document_hash
    where s.thread_id = ${threadId} and s.turn_index = ${turnIndex}`);
  if (!row) return null;
  return {
    state: {
      objective: row.objective,
      document: { title: row.document_title, content: row.content ?? '' },
      preferences: normalizeSnapshotPreferences(row.preferences),
      todos: normalizeSnapshotTodos(row.todos),
    },
    message: row.user_message,
  };
}

/** The live workspace without ids, positions, versions and artifacts: what a snapshot must equal. */
export function toState(live: Workspace): WorkspaceState {
  return {
    objective: live.objective,
    document: { title: live.document.title, content: live.document.content },
    preferences: live.preferences.map(({ key, text, locked }) => ({ key, text, locked })),
    todos: live.todos.map(({ key, text, done, depth }) => ({ key, text, done, depth })),
  };
}
