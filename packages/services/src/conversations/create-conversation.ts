import { randomUUID } from 'node:crypto';
import { newThreadId, type Conversation, type CreateConversation } from '@trellis/domain';
import { conversations } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from './conversation-access';
import { toConversation } from './to-conversation';
import { createEmptyDocuments } from '../workspace/write/workspace-copies';
import type { Tx } from '../workspace/thread-lock';

export const DEFAULT_CONVERSATION_TITLE = 'New conversation';

/** A new root thread (its own family root) with an empty document. */
export async function createConversation(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: CreateConversation,
): Promise<Conversation> {
  const conversation = await deps.db.transaction((tx) => createRootThread(tx, { userId: actor.userId, title: input.title ?? DEFAULT_CONVERSATION_TITLE }));
  return toConversation({ conversation, parentThreadId: null, branchPointTurn: null, role: 'owner' });
}

/**
 * A new family root owned by `userId`, with an empty document, inside the caller's transaction (a
 * study's participant family is made in the transaction that assigns them).
 */
export async function createRootThread(tx: Tx, input: { userId: string; title: string }): Promise<typeof conversations.$inferSelect> {
  const threadId = newThreadId(randomUUID);
  const [row] = await tx.insert(conversations).values({ threadId, rootThreadId: threadId, userId: input.userId, title: input.title }).returning();
  await createEmptyDocuments(tx, [threadId]);
  return row!;
}
