import type { ServiceDeps } from '../deps';
import { requireOwnedThread, type ThreadActor } from '../conversations/conversation-access';
import type { FamilySubscription, StreamHolder } from './family-subscription';

/**
 * The event stream of the family `threadId` belongs to (any of its threads opens the same stream).
 * With `lastEventId`, the events after it come first, read from the database in order. The stream
 * is held by `holder` (the caller's session or token), so ending that access ends it.
 */
export async function subscribeFamilyEvents(
  deps: Pick<ServiceDeps, 'db' | 'family'>,
  actor: ThreadActor,
  input: { threadId: string; lastEventId: number | null; holder?: StreamHolder | undefined },
): Promise<FamilySubscription> {
  const { conversation } = await requireOwnedThread(deps.db, actor, input.threadId);
  return deps.family.subscribe(conversation.rootThreadId, input.lastEventId, input.holder ?? { userId: actor.userId });
}
