import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { editorAuthor, writeWorkspace } from './write-workspace';

export async function deletePreference(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; preferenceId: string },
): Promise<void> {
  await writeWorkspace({ db: deps.db, actor }, {
    threadId: input.threadId,
    author: editorAuthor(actor),
    edits: [{ kind: 'preference_delete', id: input.preferenceId }],
  });
}
