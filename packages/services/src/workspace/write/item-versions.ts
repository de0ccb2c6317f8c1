// Field-level merge of an item edit made on a stale version: the fields
// changed since that version are read from the item's change rows on this thread (a branch's copy
// starts its item versions afresh, so the thread's own rows are the item's whole history).
import { sql } from 'drizzle-orm';
import { AppError, type LivePreference, type LiveTodo } from '@trellis/domain';
import type { WriteContext } from './context';

export async function changedSince(
  ctx: WriteContext,
  kind: 'preference' | 'todo',
  key: string,
  version: number,
): Promise<Set<string>> {
  const rows = await ctx.tx.execute<{ after: Record<string, unknown> | null }>(sql`
    select after from workspace_changes
    where thread_id = ${ctx.threadId} and kind = ${kind} and key = ${key} and (after->>'version')::int > ${version}`);
  const fields = new Set<string>();
  for (const row of rows) for (const field of Object.keys(row.after ?? {})) if (field !== 'version') fields.add(field);
  return fields;
}

export function itemConflict(what: 'Preference' | 'Todo', item: LivePreference | LiveTodo): AppError {
  return new AppError('conflict', `${what} changed since this copy was loaded: reload it and edit again`, {
    details: { item },
  });
}
