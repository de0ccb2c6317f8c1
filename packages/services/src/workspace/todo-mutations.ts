// Todo edits shared by the REST services and the agent's workspace port.
import { and, asc, eq } from 'drizzle-orm';
import { AppError, type Todo } from '@trellis/domain';
import { todos, type DbOrTx } from '@trellis/db';
import { requireItemId } from './ids';
import { closeGap, nextPosition, reorderList } from './ordered-list';
import { rememberDiscarded } from './discarded-items';
import type { Editor } from './preference-mutations';

export const MAX_TODO_DEPTH = 8;

type TodoRow = typeof todos.$inferSelect;

function toTodo(row: TodoRow): Todo {
  return { id: row.id, key: row.key, text: row.text, done: row.done, depth: row.depth, position: row.position };
}

function checkDepth(depth: number | undefined): void {
  if (depth !== undefined && (!Number.isInteger(depth) || depth < 0 || depth > MAX_TODO_DEPTH)) {
    throw AppError.validation([{ path: 'depth', message: `must be an integer from 0 to ${MAX_TODO_DEPTH}` }]);
  }
}

export async function insertTodo(
  tx: DbOrTx,
  threadId: string,
  input: { text: string; depth?: number; done?: boolean },
): Promise<Todo> {
  checkDepth(input.depth);
  const [row] = await tx
    .insert(todos)
    .values({
      threadId,
      text: input.text,
      depth: input.depth ?? 0,
      done: input.done ?? false,
      position: nextPosition(todos, threadId),
    })
    .returning();
  return toTodo(row!);
}

export async function changeTodo(
  tx: DbOrTx,
  threadId: string,
  id: string,
  patch: { text?: string; depth?: number; done?: boolean },
): Promise<Todo> {
  const itemId = requireItemId(id, 'Todo');
  checkDepth(patch.depth);
  const values = {
    ...(patch.text === undefined ? {} : { text: patch.text }),
    ...(patch.depth === undefined ? {} : { depth: patch.depth }),
    ...(patch.done === undefined ? {} : { done: patch.done }),
  };
  const where = and(eq(todos.id, itemId), eq(todos.threadId, threadId));
  const [row] =
    Object.keys(values).length === 0
      ? await tx.select().from(todos).where(where)
      : await tx.update(todos).set(values).where(where).returning();
  if (!row) throw AppError.notFound('Todo');
  return toTodo(row);
}

export async function deleteTodoRow(tx: DbOrTx, threadId: string, id: string, editor: Editor = 'person'): Promise<void> {
  const itemId = requireItemId(id, 'Todo');
  const [row] = await tx
    .delete(todos)
    .where(and(eq(todos.id, itemId), eq(todos.threadId, threadId)))
    .returning();
  if (!row) throw AppError.notFound('Todo');
  await closeGap(tx, todos, threadId, row.position);
  await rememberDiscarded(tx, threadId, { kind: 'todo', key: row.key, text: row.text, done: row.done, depth: row.depth, editor });
}

export async function reorderTodoRows(tx: DbOrTx, threadId: string, ids: string[]): Promise<Todo[]> {
  await reorderList(tx, todos, threadId, ids);
  return listTodos(tx, threadId);
}

export async function listTodos(tx: DbOrTx, threadId: string): Promise<Todo[]> {
  const rows = await tx.select().from(todos).where(eq(todos.threadId, threadId)).orderBy(asc(todos.position), asc(todos.id));
  return rows.map(toTodo);
}
