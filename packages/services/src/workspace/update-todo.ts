import type { LiveTodo, UpdateTodo } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { editorAuthor, writeWorkspace } from './write-workspace';

/** On a stale `base_version` the edit applies when the fields it sets were not changed since, else 409. */
export async function updateTodo(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; todoId: string; patch: UpdateTodo },
): Promise<LiveTodo> {
  const { base_version: baseVersion, ...fields } = input.patch;
  const { outcomes } = await writeWorkspace({ db: deps.db, actor }, {
    threadId: input.threadId,
    author: editorAuthor(actor),
    edits: [{ kind: 'todo_update', id: input.todoId, ...fields, baseVersion }],
  });
  return outcomes[0];
}
