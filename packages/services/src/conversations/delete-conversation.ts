import { eq, sql } from 'drizzle-orm';
import { conversations } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from './conversation-access';
import { appendFamilyEvent } from '../live/family-events';

/**
 * Soft delete: the thread disappears from lists and answers 404, but its rows
 * stay, because a live branch still inherits the turns it owns (docs/branching.md,
 * "The family graph": soft-deleted ancestors are kept on the way up).
 */
export async function deleteConversation(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await requireThreadAccess(tx, actor, input.threadId, 'own', { lock: true });
    await tx.update(conversations).set({ deletedAt: sql`now()` }).where(eq(conversations.threadId, input.threadId));
    await appendFamilyEvent(tx, { threadId: input.threadId, kind: 'deleted' });
  });
}
