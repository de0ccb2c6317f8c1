import type { CreatePreference, Preference } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { insertPreference } from './preference-mutations';
import { withOwnedThreadLock } from './thread-lock';

/** Appends a preference at the end of the list. */
export async function createPreference(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; preference: CreatePreference },
): Promise<Preference> {
  return withOwnedThreadLock(deps.db, actor, input.threadId, (tx) => insertPreference(tx, input.threadId, input.preference));
}
