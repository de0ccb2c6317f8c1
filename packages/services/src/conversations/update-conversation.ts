import { eq, sql } from 'drizzle-orm';
import type { Conversation, UpdateConversation } from '@trellis/domain';
import { conversations } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from './conversation-access';
import { ownerShownTo, toConversation } from './to-conversation';
import { appendFamilyEvent } from '../live/family-events';

/**
 * Rename, star or archive a thread. A title set here is final: the first message no longer names
 * the thread. Archiving hides the thread's subtree from lists and graphs (reversible, unlike delete);
 * an archived thread stays reachable by id, so it can be restored with `archived: false`.
 * Only a rename moves `updated_at`.
 */
export async function updateConversation(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string } & UpdateConversation,
): Promise<Conversation> {
  return deps.db.transaction(async (tx) => {
    const access = await requireThreadAccess(tx, actor, input.threadId, 'edit', { lock: true });
    const [conversation] = await tx
      .update(conversations)
      .set({
        ...(input.title === undefined ? {} : { title: input.title, isTitleProvisional: false }),
        ...(input.starred === undefined ? {} : { isStarred: input.starred }),
        ...(input.archived === undefined ? {} : { isArchived: input.archived }),
        // Putting a path away, bringing it back or starring it is not activity on the path: its
        // "updated" time, and so its place in the history, stays. A new name is.
        ...(input.title === undefined ? {} : { updatedAt: sql`now()` }),
      })
      .where(eq(conversations.threadId, input.threadId))
      .returning();
    await appendFamilyEvent(tx, {
      threadId: input.threadId,
      kind: 'thread_updated',
      data: {
        ...(input.title === undefined ? {} : { title: input.title }),
        ...(input.starred === undefined ? {} : { is_starred: input.starred }),
        ...(input.archived === undefined ? {} : { is_archived: input.archived }),
      },
    });
    return toConversation({ ...access, conversation: conversation! }, await ownerShownTo(tx, access));
  });
}
