import type { CreatePreference, LivePreference } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { editorAuthor, writeWorkspace } from './write-workspace';

/** Appends a preference at the end of the list. */
export async function createPreference(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; preference: CreatePreference },
): Promise<LivePreference> {
  const { outcomes } = await writeWorkspace({ db: deps.db, actor }, {
    threadId: input.threadId,
    author: editorAuthor(actor),
    edits: [{ kind: 'preference_create', ...input.preference }],
  });
  return outcomes[0];
}
