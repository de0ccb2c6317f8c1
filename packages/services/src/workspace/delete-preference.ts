import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { deletePreferenceRow } from './preference-mutations';
import { withOwnedThreadLock } from './thread-lock';

export async function deletePreference(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; preferenceId: string },
): Promise<void> {
  await withOwnedThreadLock(deps.db, actor, input.threadId, (tx) =>
    deletePreferenceRow(tx, input.threadId, input.preferenceId, 'person'),
  );
}
