import { randomUUID } from 'node:crypto';
import { newThreadId, type Conversation, type CreateConversation } from '@trellis/domain';
import { conversations } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from './conversation-access';
import { toConversation } from './to-conversation';
import { createEmptyDocuments } from '../workspace/write/workspace-copies';

export const DEFAULT_CONVERSATION_TITLE = 'New conversation';

/** A new root thread (its own family root) with an empty document. */
export async function createConversation(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: CreateConversation,
): Promise<Conversation> {
  const threadId = newThreadId(randomUUID);
  const conversation = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(conversations)
      .values({ threadId, rootThreadId: threadId, userId: actor.userId, title: input.title ?? DEFAULT_CONVERSATION_TITLE })
      .returning();
    await createEmptyDocuments(tx, [threadId]);
    return row!;
  });
  return toConversation({ conversation, parentThreadId: null, branchPointTurn: null, role: 'owner' });
}
