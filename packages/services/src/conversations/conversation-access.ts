// The one ownership rule of every thread-scoped service (docs/architecture.md, "Errors"):
// unknown, soft-deleted or still-pending (a branch mid-creation) → 404; someone
// else's → 403. Readers never see a pending branch.
import { eq } from 'drizzle-orm';
import { AppError, isThreadId } from '@trellis/domain';
import { conversationBranches, conversations, type DbOrTx } from '@trellis/db';

export interface ThreadActor {
  userId: string;
}

export type ConversationRow = typeof conversations.$inferSelect;

export interface OwnedThread {
  conversation: ConversationRow;
  parentThreadId: string | null;
  branchPointTurn: number | null;
  /** The branch row's reason; null on a root (and where the caller did not load it). */
  branchReason?: string | null;
}

/**
 * Loads the caller's thread or throws 404/403. With `lock`, the conversation row
 * is locked (`FOR NO KEY UPDATE`) until the surrounding transaction ends: every
 * workspace mutation takes it, so list positions stay dense and a snapshot never
 * interleaves with an edit.
 */
export async function requireOwnedThread(
  db: DbOrTx,
  actor: ThreadActor,
  threadId: string,
  options: { lock?: boolean } = {},
): Promise<OwnedThread> {
  if (!isThreadId(threadId)) throw AppError.notFound('Conversation');
  const query = db
    .select({
      conversation: conversations,
      parentThreadId: conversationBranches.parentThreadId,
      branchPointTurn: conversationBranches.branchPointTurn,
      branchReason: conversationBranches.reason,
      branchStatus: conversationBranches.status,
    })
    .from(conversations)
    .leftJoin(conversationBranches, eq(conversationBranches.threadId, conversations.threadId))
    .where(eq(conversations.threadId, threadId));
  const [row] = await (options.lock ? query.for('no key update', { of: conversations }) : query);
  if (!row) throw AppError.notFound('Conversation');
  assertOwnership(
    {
      userId: row.conversation.userId,
      isDeleted: row.conversation.deletedAt !== null,
      isPending: row.branchStatus === 'pending',
    },
    actor,
  );
  return {
    conversation: row.conversation,
    parentThreadId: row.parentThreadId,
    branchPointTurn: row.branchPointTurn,
    branchReason: row.branchReason,
  };
}

/** The 404/403 split, for callers that loaded the thread's row their own way. */
export function assertOwnership(
  thread: { userId: string; isDeleted: boolean; isPending: boolean } | undefined,
  actor: ThreadActor,
): void {
  if (!thread || thread.isDeleted || thread.isPending) throw AppError.notFound('Conversation');
  if (thread.userId !== actor.userId) throw AppError.forbidden();
}
