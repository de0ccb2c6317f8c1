import type { Conversation } from '@trellis/domain';
import type { OwnedThread } from './conversation-access';

/** A conversation row and its lineage link as the API's snake_case contract. */
export function toConversation({ conversation: c, parentThreadId, branchPointTurn, branchReason }: OwnedThread): Conversation {
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
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}
