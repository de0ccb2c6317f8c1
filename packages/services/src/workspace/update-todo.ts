import type { Todo, UpdateTodo } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { changeTodo } from './todo-mutations';
import { withOwnedThreadLock } from './thread-lock';

export async function updateTodo(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; todoId: string; patch: UpdateTodo },
): Promise<Todo> {
  return withOwnedThreadLock(deps.db, actor, input.threadId, (tx) =>
    changeTodo(tx, input.threadId, input.todoId, input.patch),
  );
}
