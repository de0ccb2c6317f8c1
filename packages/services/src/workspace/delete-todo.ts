import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { editorAuthor, writeWorkspace } from './write-workspace';

export async function deleteTodo(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; todoId: string },
): Promise<void> {
  await writeWorkspace({ db: deps.db, actor }, {
    threadId: input.threadId,
    author: editorAuthor(actor),
    edits: [{ kind: 'todo_delete', id: input.todoId }],
  });
}
