// Todo edits of the write path: every change of a row bumps its version and appends a change row.
import { and, asc, eq, sql } from 'drizzle-orm';
import { AppError, type LiveTodo } from '@trellis/domain';
import { todos, type DbOrTx } from '@trellis/db';
import { requireItemId } from '../ids';
import type { WriteContext } from './context';
import { rememberDiscarded } from './discarded-items';
import { changedSince, itemConflict } from './item-versions';
import { closeGap, nextPosition, reorderList } from './ordered-list';
import { pick, pushReorder } from './preference-mutations';

export const MAX_TODO_DEPTH = 8;

type TodoRow = typeof todos.$inferSelect;

export function toTodo(row: TodoRow): LiveTodo {
  return { id: row.id, key: row.key, text: row.text, done: row.done, depth: row.depth, position: row.position, version: row.version };
}

export function checkDepth(depth: number | undefined): void {
  if (depth !== undefined && (!Number.isInteger(depth) || depth < 0 || depth > MAX_TODO_DEPTH)) {
    throw AppError.validation([{ path: 'depth', message: `must be an integer from 0 to ${MAX_TODO_DEPTH}` }]);
  }
}

export async function insertTodo(
  ctx: WriteContext,
  input: { text: string; depth?: number | undefined; done?: boolean | undefined },
): Promise<LiveTodo> {
  checkDepth(input.depth);
  const [row] = await ctx.tx
    .insert(todos)
    .values({
      threadId: ctx.threadId,
      text: input.text,
      depth: input.depth ?? 0,
      done: input.done ?? false,
      position: nextPosition(todos, ctx.threadId),
    })
    .returning();
  const todo = toTodo(row!);
  ctx.drafts.push({
    kind: 'todo',
    key: todo.key,
    op: 'create',
    before: null,
    after: { version: todo.version, text: todo.text, done: todo.done, depth: todo.depth, position: todo.position },
  });
  return todo;
}

export async function changeTodo(
  ctx: WriteContext,
  id: string,
  patch: { text?: string | undefined; depth?: number | undefined; done?: boolean | undefined; baseVersion?: number | undefined },
): Promise<LiveTodo> {
  const itemId = requireItemId(id, 'Todo');
  checkDepth(patch.depth);
  const [current] = await ctx.tx
    .select()
    .from(todos)
    .where(and(eq(todos.id, itemId), eq(todos.threadId, ctx.threadId)))
    .for('update');
  if (!current) throw AppError.notFound('Todo');
  const values = {
    ...(patch.text === undefined || patch.text === current.text ? {} : { text: patch.text }),
    ...(patch.depth === undefined || patch.depth === current.depth ? {} : { depth: patch.depth }),
    ...(patch.done === undefined || patch.done === current.done ? {} : { done: patch.done }),
  };
  const fields = Object.keys(values);
  if (fields.length === 0) return toTodo(current);
  if (patch.baseVersion !== undefined && patch.baseVersion < current.version) {
    const changed = await changedSince(ctx, 'todo', current.key, patch.baseVersion);
    if (fields.some((field) => changed.has(field))) throw itemConflict('Todo', toTodo(current));
  }
  const [row] = await ctx.tx
    .update(todos)
    .set({ ...values, version: sql`${todos.version} + 1` })
    .where(eq(todos.id, itemId))
    .returning();
  const todo = toTodo(row!);
  ctx.drafts.push({
    kind: 'todo',
    key: todo.key,
    op: 'update',
    before: { version: current.version, ...pick(current, fields) },
    after: { version: todo.version, ...values },
  });
  return todo;
}

export async function deleteTodoRow(ctx: WriteContext, id: string): Promise<void> {
  const itemId = requireItemId(id, 'Todo');
  const [row] = await ctx.tx
    .delete(todos)
    .where(and(eq(todos.id, itemId), eq(todos.threadId, ctx.threadId)))
    .returning();
  if (!row) throw AppError.notFound('Todo');
  await closeGap(ctx.tx, todos, ctx.threadId, row.position);
  await rememberDiscarded(ctx.tx, ctx.threadId, {
    kind: 'todo',
    key: row.key,
    text: row.text,
    done: row.done,
    depth: row.depth,
    editor: ctx.editor,
  });
  ctx.drafts.push({
    kind: 'todo',
    key: row.key,
    op: 'delete',
    before: { version: row.version, text: row.text, done: row.done, depth: row.depth, position: row.position },
    after: null,
  });
}

export async function reorderTodoRows(ctx: WriteContext, ids: string[]): Promise<LiveTodo[]> {
  const before = await listTodos(ctx.tx, ctx.threadId);
  await reorderList(ctx.tx, todos, ctx.threadId, ids);
  const after = await listTodos(ctx.tx, ctx.threadId);
  pushReorder(ctx, 'todo', before, after);
  return after;
}

export async function listTodos(tx: DbOrTx, threadId: string): Promise<LiveTodo[]> {
  const rows = await tx.select().from(todos).where(eq(todos.threadId, threadId)).orderBy(asc(todos.position), asc(todos.id));
  return rows.map(toTodo);
}
