import type { LivePreference, Reorder } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { editorAuthor, writeWorkspace } from './write-workspace';

/** `ids` must be the full current list in its new order (422 otherwise). */
export async function reorderPreferences(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string } & Reorder,
): Promise<{ preferences: LivePreference[] }> {
  const { outcomes } = await writeWorkspace({ db: deps.db, actor }, {
    threadId: input.threadId,
    author: editorAuthor(actor),
    edits: [{ kind: 'preference_reorder', ids: input.ids }],
  });
  return { preferences: outcomes[0] };
}
