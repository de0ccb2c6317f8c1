import type { Reorder, Todo } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { reorderTodoRows } from './todo-mutations';
import { withOwnedThreadLock } from './thread-lock';

/** `ids` must be the full current list in its new order (422 otherwise). */
export async function reorderTodos(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string } & Reorder,
): Promise<{ todos: Todo[] }> {
  return withOwnedThreadLock(deps.db, actor, input.threadId, async (tx) => ({
    todos: await reorderTodoRows(tx, input.threadId, input.ids),
  }));
}
