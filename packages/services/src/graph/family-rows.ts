import { sql } from 'drizzle-orm';
import type { FamilyThreadRow, TurnMetaRow } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';

/**
 * Every thread of a family (roots and ACTIVE branches; soft-deleted ones too — the
 * domain decides what to show) in one query, keyed by the immutable family root.
 */
export async function loadFamilyThreads(db: DbOrTx, rootThreadId: string): Promise<FamilyThreadRow[]> {
  return db.execute<FamilyThreadRow & Record<string, unknown>>(sql`
    select c.thread_id, b.parent_thread_id, b.branch_point_turn, b.reason, c.title, c.created_at, c.deleted_at
    from conversations c
    left join conversation_branches b on b.thread_id = c.thread_id
    where c.root_thread_id = ${rootThreadId} and (b.status = 'active' or (b.thread_id is null and c.thread_id = ${rootThreadId}))`);
}

/**
 * Turn metadata of a whole family in one query — snapshot previews, a reply
 * preview, tool and artifact counts; never a document body.
 */
export async function loadFamilyTurns(db: DbOrTx, rootThreadId: string): Promise<TurnMetaRow[]> {
  return db.execute<TurnMetaRow & Record<string, unknown>>(sql`
    select s.thread_id, s.turn_index, s.user_message, s.captured_at,
      r.reply_preview, coalesce(r.tool_count, 0)::int as tool_count,
      coalesce(a.artifact_count, 0)::int as artifact_count
    from workspace_snapshots s
    join conversations c on c.thread_id = s.thread_id
    left join conversation_branches b on b.thread_id = c.thread_id
    left join lateral (
      select left(m.content, 240) as reply_preview, jsonb_array_length(m.tool_calls) as tool_count
      from messages m
      where m.thread_id = s.thread_id and m.turn_index = s.turn_index and m.role = 'assistant'
      order by m.seq desc limit 1
    ) r on true
    left join lateral (
      select count(*) as artifact_count from artifacts x
      where x.thread_id = s.thread_id and x.turn_index = s.turn_index
    ) a on true
    where c.root_thread_id = ${rootThreadId} and (b.status = 'active' or (b.thread_id is null and c.thread_id = ${rootThreadId}))`);
}
