import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { deleteTodoRow } from './todo-mutations';
import { withOwnedThreadLock } from './thread-lock';

export async function deleteTodo(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; todoId: string },
): Promise<void> {
  await withOwnedThreadLock(deps.db, actor, input.threadId, (tx) => deleteTodoRow(tx, input.threadId, input.todoId));
}
