import type { LivePreference, UpdatePreference } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { editorAuthor, writeWorkspace } from './write-workspace';

/**
 * The person may reword, lock or unlock any of their preferences; the lock binds the agent only. On a
 * stale `base_version` the edit applies when the fields it sets were not changed since, else 409.
 */
export async function updatePreference(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; preferenceId: string; patch: UpdatePreference },
): Promise<LivePreference> {
  const { base_version: baseVersion, ...fields } = input.patch;
  const { outcomes } = await writeWorkspace({ db: deps.db, actor }, {
    threadId: input.threadId,
    author: editorAuthor(actor),
    edits: [{ kind: 'preference_update', id: input.preferenceId, ...fields, baseVersion }],
  });
  return outcomes[0];
}
