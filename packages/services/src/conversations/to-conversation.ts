import { eq } from 'drizzle-orm';
import type { Conversation, PersonRef } from '@trellis/domain';
import { user, type DbOrTx } from '@trellis/db';
import type { ThreadAccess } from './conversation-access';

/** A conversation row and its lineage link as the API's snake_case contract, with the caller's role. */
export function toConversation(
  { conversation: c, parentThreadId, branchPointTurn, branchReason, role }: ThreadAccess,
  owner?: PersonRef | null,
): Conversation {
  return {
    thread_id: c.threadId,
    title: c.title,
    starred: c.isStarred,
    archived: c.isArchived,
    turn_index: c.turnIndex,
    message_count: c.messageCount,
    parent_thread_id: parentThreadId,
    branch_point_turn: branchPointTurn,
    branch_reason: parentThreadId === null ? null : (branchReason ?? null),
    root_thread_id: c.rootThreadId,
    role,
    ...(role !== 'owner' && owner ? { owner } : {}),
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

/** The family's owner as a member sees it (the owner needs no reminder of who they are). */
export async function ownerShownTo(db: DbOrTx, access: ThreadAccess): Promise<PersonRef | null> {
  if (access.role === 'owner') return null;
  const [owner] = await db.select({ user_id: user.id, name: user.name }).from(user).where(eq(user.id, access.conversation.userId));
  return owner ?? null;
}
