import type { ServiceDeps } from '../deps';
import { actorUserId, requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import type { FamilySubscription, StreamHolder } from './family-subscription';

/**
 * The event stream of the family `threadId` belongs to (any of its threads opens the same stream).
 * With `lastEventId`, the events after it come first, read from the database in order. A change of
 * the subscriber's own role (`member_changed` naming them: removed, or a new role) ends it — a
 * removed member's reconnect is refused, anyone else's comes back under the new role. The stream
 * is held by `holder` (the caller's session or token), so ending that access ends it.
 */
export async function subscribeFamilyEvents(
  deps: Pick<ServiceDeps, 'db' | 'family'>,
  actor: ThreadActor,
  input: { threadId: string; lastEventId: number | null; holder?: StreamHolder | undefined },
): Promise<FamilySubscription> {
  const { conversation, role } = await requireThreadAccess(deps.db, actor, input.threadId, 'read');
  const userId = actorUserId(actor);
  return deps.family.subscribe(conversation.rootThreadId, input.lastEventId, {
    endAfter: role === 'owner' ? undefined : (event) => event.kind === 'member_changed' && event.data.user_id === userId,
    holder: input.holder ?? { userId },
  });
}
