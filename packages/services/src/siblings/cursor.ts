import { and, eq, sql } from 'drizzle-orm';
import { AppError } from '@trellis/domain';
import { familyCursors } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';

/**
 * The last viewed thread of a family, per user, kept server-side so a reload or
 * another device lands where the person left (LESSONS: "the selected branch reset
 * on reload"). Falls back to the asked thread when none is stored or the stored
 * one is no longer visible.
 */
export async function getCursor(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string },
): Promise<{ thread_id: string }> {
  const { conversation } = await requireThreadAccess(deps.db, actor, input.threadId, 'read');
  const [row] = await deps.db
    .select({ threadId: familyCursors.threadId })
    .from(familyCursors)
    .where(and(eq(familyCursors.userId, actor.userId), eq(familyCursors.rootThreadId, conversation.rootThreadId)));
  if (!row) return { thread_id: input.threadId };
  try {
    await requireThreadAccess(deps.db, actor, row.threadId, 'read');
    return { thread_id: row.threadId };
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return { thread_id: input.threadId };
    throw error;
  }
}

/** Remembers `cursorThreadId` as the family's viewed thread, and when it was viewed. */
export async function putCursor(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; cursorThreadId: string },
): Promise<{ thread_id: string }> {
  const [{ conversation: asked }, { conversation: target }] = await Promise.all([
    requireThreadAccess(deps.db, actor, input.threadId, 'read'),
    requireThreadAccess(deps.db, actor, input.cursorThreadId, 'read'),
  ]);
  if (asked.rootThreadId !== target.rootThreadId) {
    throw AppError.validation([{ path: 'thread_id', message: 'must belong to the same conversation family' }]);
  }
  await deps.db.execute(sql`
    with cursor as (
      insert into family_cursors (user_id, root_thread_id, thread_id, updated_at)
      values (${actor.userId}, ${asked.rootThreadId}, ${target.threadId}, now())
      on conflict (user_id, root_thread_id) do update set thread_id = excluded.thread_id, updated_at = now()
    )
    insert into thread_views (user_id, thread_id, viewed_at) values (${actor.userId}, ${target.threadId}, now())
    on conflict (user_id, thread_id) do update set viewed_at = now()`);
  return { thread_id: target.threadId };
}
