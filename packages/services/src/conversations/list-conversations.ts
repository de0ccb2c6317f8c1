import { and, desc, eq, isNull, or } from 'drizzle-orm';
import type { Conversation } from '@trellis/domain';
import { conversationBranches, conversations } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from './conversation-access';
import { toConversation } from './to-conversation';

/**
 * The caller's live threads, most recently updated first: family roots and
 * active branches. A branch whose row is still `pending` is being created (or
 * was abandoned) and is never listed (seed 003, "Three phases and compensation").
 */
export async function listConversations(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
): Promise<{ conversations: Conversation[] }> {
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
      ),
    )
    .orderBy(desc(conversations.updatedAt), desc(conversations.threadId));
  return { conversations: rows.map(toConversation) };
}
