import type { Preference, UpdatePreference } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { changePreference } from './preference-mutations';
import { withOwnedThreadLock } from './thread-lock';

/** The person may reword, lock or unlock any of their preferences; the lock binds the agent only. */
export async function updatePreference(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; preferenceId: string; patch: UpdatePreference },
): Promise<Preference> {
  return withOwnedThreadLock(deps.db, actor, input.threadId, (tx) =>
    changePreference(tx, input.threadId, input.preferenceId, input.patch, 'person'),
  );
}
