import type { Conversation } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireOwnedThread, type ThreadActor } from './conversation-access';
import { toConversation } from './to-conversation';

export async function getConversation(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string },
): Promise<Conversation> {
  return toConversation(await requireOwnedThread(deps.db, actor, input.threadId));
}
