import type { Preference, Reorder } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { reorderPreferenceRows } from './preference-mutations';
import { withOwnedThreadLock } from './thread-lock';

/** `ids` must be the full current list in its new order (422 otherwise). */
export async function reorderPreferences(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string } & Reorder,
): Promise<{ preferences: Preference[] }> {
  return withOwnedThreadLock(deps.db, actor, input.threadId, async (tx) => ({
    preferences: await reorderPreferenceRows(tx, input.threadId, input.ids),
  }));
}
