import type { Conversation } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from './conversation-access';
import { ownerShownTo, toConversation } from './to-conversation';

export async function getConversation(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string },
): Promise<Conversation> {
  const access = await requireThreadAccess(deps.db, actor, input.threadId, 'read');
  return toConversation(access, await ownerShownTo(deps.db, access));
}
