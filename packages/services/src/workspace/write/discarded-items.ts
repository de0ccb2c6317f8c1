// The decision map's log: a deleted preference or todo is remembered with the
// step it was deleted at. Append-only; nothing reads it to rebuild a workspace.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@trellis/db';
import type { Editor } from './context';

export type DiscardedInput =
  | { kind: 'preference'; key: string; text: string; locked: boolean; editor: Editor }
  | { kind: 'todo'; key: string; text: string; done: boolean; depth: number; editor: Editor };

/**
 * The step is the thread's turn index at the moment of deletion: during turn k the
 * agent's deletions belong to step k, and a person's deletion between turns k and
 * k+1 belongs to step k too (it is part of the workspace after step k).
 */
export async function rememberDiscarded(tx: DbOrTx, threadId: string, item: DiscardedInput): Promise<void> {
  const locked = item.kind === 'preference' ? item.locked : null;
  const done = item.kind === 'todo' ? item.done : null;
  const depth = item.kind === 'todo' ? item.depth : null;
  await tx.execute(sql`
    insert into discarded_items (thread_id, turn_index, kind, key, text, locked, done, depth, editor)
    select c.thread_id, c.turn_index, ${item.kind}, ${item.key}::uuid, ${item.text}, ${locked}, ${done}, ${depth}, ${item.editor}
    from conversations c where c.thread_id = ${threadId}`);
}
