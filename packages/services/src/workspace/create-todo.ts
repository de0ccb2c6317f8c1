import type { CreateTodo, Todo } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { insertTodo } from './todo-mutations';
import { withOwnedThreadLock } from './thread-lock';

/** Appends a todo at the end of the list. */
export async function createTodo(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; todo: CreateTodo },
): Promise<Todo> {
  return withOwnedThreadLock(deps.db, actor, input.threadId, (tx) => insertTodo(tx, input.threadId, input.todo));
}
