import type { CreateTodo, LiveTodo } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { editorAuthor, writeWorkspace } from './write-workspace';

/** Appends a todo at the end of the list. */
export async function createTodo(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; todo: CreateTodo },
): Promise<LiveTodo> {
  const { outcomes } = await writeWorkspace({ db: deps.db, actor }, {
    threadId: input.threadId,
    author: editorAuthor(actor),
    edits: [{ kind: 'todo_create', ...input.todo }],
  });
  return outcomes[0];
}
