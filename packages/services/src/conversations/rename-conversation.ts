import { eq, sql } from 'drizzle-orm';
import type { Conversation, RenameConversation } from '@trellis/domain';
import { conversations } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { requireOwnedThread, type ThreadActor } from './conversation-access';
import { toConversation } from './to-conversation';

export async function renameConversation(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string } & RenameConversation,
): Promise<Conversation> {
  return deps.db.transaction(async (tx) => {
    const owned = await requireOwnedThread(tx, actor, input.threadId, { lock: true });
    const [conversation] = await tx
      .update(conversations)
      .set({ title: input.title, updatedAt: sql`now()` })
      .where(eq(conversations.threadId, input.threadId))
      .returning();
    return toConversation({ ...owned, conversation: conversation! });
  });
}
