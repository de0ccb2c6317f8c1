import { sql, type SQL } from 'drizzle-orm';
import type { LineageEntry } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';

/** How far up a lineage is followed (docs/branching.md, "The family graph": depth-capped at 50). */
export const MAX_LINEAGE_DEPTH = 50;

/** A lineage entry with what the ownership check of the displayed thread needs. */
export type LineageRow = {
  [K in keyof LineageEntry]: LineageEntry[K];
} & {
  user_id: string;
  /** The family root: whose members the access rule asks. */
  root_thread_id: string;
  is_deleted: boolean;
  /** The thread's own branch row is still pending (a branch mid-creation). */
  is_pending: boolean;
};

/**
 * The lineage of `threadId`, root first, in ONE query: a recursive walk up the
 * active `conversation_branches` rows, at most MAX_LINEAGE_DEPTH hops. Soft-deleted
 * ancestors stay in (a live branch inherits their turns). Empty when the thread
 * does not exist. Only the displayed thread may be pending; an ancestor link
 * that is not active ends the walk.
 */
export function loadLineage(db: DbOrTx, threadId: string): Promise<LineageRow[]> {
  return readLineage(db, threadId, false);
}

/** A lineage row with the last of its parent's changes the thread inherits (0 for the root): a path's change log. */
export type PathLineageRow = LineageRow & { parent_change_seq: number };

/** {@link loadLineage} with each row's `parent_change_seq`, read by the same walk (see `pathSegments`). */
export function loadPathLineage(db: DbOrTx, threadId: string): Promise<PathLineageRow[]> {
  return readLineage(db, threadId, true);
}

async function readLineage<R extends LineageRow>(db: DbOrTx, threadId: string, withCuts: boolean): Promise<R[]> {
  const rows = await db.execute<R & { depth: number }>(sql`
    ${lineageWalk(threadId)}
    select thread_id, user_id, root_thread_id, is_deleted, is_pending, turn_index,
      case when has_parent then branch_point_turn end as branch_point_turn,
      ${withCuts ? sql`coalesce(parent_change_seq, 0) as parent_change_seq,` : sql``} depth
    from up
    order by depth desc`);
  return rows.map(({ depth: _depth, ...row }) => row as unknown as R);
}

/**
 * The walk {@link loadLineage} runs, as the opening `with recursive up as (…)` of a statement that
 * reads along the lineage in the same round trip (add CTEs with `, name as (…)`). One row per thread:
 * `depth` 0 is `threadId`, each ancestor one more; `has_parent` says whether `branch_point_turn` and
 * `parent_thread_id` name an active link (the walk follows only those); `parent_change_seq` is the
 * last of the parent's changes the thread inherits (`workspace_changes`).
 */
export function lineageWalk(threadId: string): SQL {
  return sql`
    with recursive up as (
      select c.thread_id, c.user_id, c.root_thread_id, c.deleted_at is not null as is_deleted, c.turn_index,
        b.parent_thread_id, b.branch_point_turn, b.parent_change_seq, coalesce(b.status = 'pending', false) as is_pending,
        coalesce(b.status = 'active', false) as has_parent, 0 as depth
      from conversations c
      left join conversation_branches b on b.thread_id = c.thread_id
      where c.thread_id = ${threadId}
      union all
      select c.thread_id, c.user_id, c.root_thread_id, c.deleted_at is not null, c.turn_index,
        b.parent_thread_id, b.branch_point_turn, b.parent_change_seq, false,
        coalesce(b.status = 'active', false), up.depth + 1
      from up
      join conversations c on c.thread_id = up.parent_thread_id
      left join conversation_branches b on b.thread_id = c.thread_id
      where up.has_parent and up.depth < ${MAX_LINEAGE_DEPTH}
    )`;
}

/** What the access rule needs of a lineage's displayed thread. */
export function lineageFacts(row: LineageRow): { userId: string; rootThreadId: string; isDeleted: boolean; isPending: boolean } {
  return { userId: row.user_id, rootThreadId: row.root_thread_id, isDeleted: row.is_deleted, isPending: row.is_pending };
}
