// Dense positions 0..n-1 for the ordered lists of a thread (preferences, todos).
// Callers hold the thread lock (thread-lock.ts), so reading max(position) and
// shifting positions cannot race with another edit of the same list.
import { sql, type SQL } from 'drizzle-orm';
import { AppError } from '@trellis/domain';
import type { DbOrTx, preferences, todos } from '@trellis/db';

export type OrderedTable = typeof preferences | typeof todos;

/** The position a new item takes: after the last one. */
export function nextPosition(table: OrderedTable, threadId: string): SQL<number> {
  return sql<number>`(select coalesce(max(position) + 1, 0) from ${table} where thread_id = ${threadId})`;
}

/** Closes the hole a removed item left at `position`. */
export async function closeGap(tx: DbOrTx, table: OrderedTable, threadId: string, position: number): Promise<void> {
  await tx.execute(
    sql`update ${table} set position = position - 1 where thread_id = ${threadId} and position > ${position}`,
  );
}

/**
 * Puts the list in the order of `ids`, which must name every item exactly once
 * (422 otherwise: a reorder computed from a stale list must not drop or
 * duplicate anything).
 */
export async function reorderList(tx: DbOrTx, table: OrderedTable, threadId: string, ids: string[]): Promise<void> {
  const current = await tx.execute<{ id: string }>(sql`select id::text as id from ${table} where thread_id = ${threadId}`);
  const wanted = ids.map((id) => id.toLowerCase());
  const known = new Set(current.map((row) => row.id));
  const isPermutation =
    wanted.length === known.size && new Set(wanted).size === wanted.length && wanted.every((id) => known.has(id));
  if (!isPermutation) {
    throw AppError.validation([{ path: 'ids', message: 'must list every item of the list exactly once' }]);
  }
  await tx.execute(sql`
    update ${table} as item set position = wanted.ordinality - 1
    from jsonb_array_elements_text(${JSON.stringify(wanted)}::jsonb) with ordinality as wanted(id, ordinality)
    where item.thread_id = ${threadId} and item.id = wanted.id::uuid`);
}
