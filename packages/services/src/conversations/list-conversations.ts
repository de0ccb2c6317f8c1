import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Conversation } from '@trellis/domain';
import { conversationBranches, conversations } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from './conversation-access';
import { toConversation } from './to-conversation';

/**
 * The caller's live threads, most recently updated first: family roots and
 * active branches. A branch whose row is still `pending` is being created (or
 * was abandoned) and is never listed (seed 003, "Three phases and compensation").
 * A soft-deleted thread takes its subtree out of the list (seed 003, "The history
 * graph"); its descendants stay reachable by id. An archived thread does the same unless
 * `includeArchived` (archive is a reversible delete).
 */
export async function listConversations(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { includeArchived?: boolean } = {},
): Promise<{ conversations: Conversation[] }> {
  const includeArchived = input.includeArchived ?? false;
  const rows = await deps.db
    .select({
      conversation: conversations,
      parentThreadId: conversationBranches.parentThreadId,
      branchPointTurn: conversationBranches.branchPointTurn,
    })
    .from(conversations)
    .leftJoin(conversationBranches, eq(conversationBranches.threadId, conversations.threadId))
    .where(
      and(
        eq(conversations.userId, actor.userId),
        isNull(conversations.deletedAt),
        or(isNull(conversationBranches.threadId), eq(conversationBranches.status, 'active')),
        sql`${conversations.threadId} not in (
          with recursive hidden as (
            select d.thread_id from conversations d where d.user_id = ${actor.userId}
              and (d.deleted_at is not null or (d.is_archived and not ${includeArchived}))
            union
            select b.thread_id from conversation_branches b join hidden h on b.parent_thread_id = h.thread_id
          )
          select thread_id from hidden)`,
      ),
    )
    .orderBy(desc(conversations.updatedAt), desc(conversations.threadId));
  return { conversations: rows.map(toConversation) };
}
