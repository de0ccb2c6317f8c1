import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@trellis/db';
import { isoTimestamp } from '../workspace/iso-timestamp';

/** When each thread of a family was last updated, and last viewed by this user. One query. */
export async function loadFamilyActivity(
  db: DbOrTx,
  rootThreadId: string,
  userId: string,
): Promise<{ viewedAt: Map<string, string>; updatedAt: Map<string, string> }> {
  const rows = await db.execute<{ thread_id: string; updated_at: string; viewed_at: string | null }>(sql`
    select c.thread_id, ${isoTimestamp(sql`c.updated_at`)} as updated_at,
      ${isoTimestamp(sql`v.viewed_at`)} as viewed_at
    from conversations c
    left join thread_views v on v.thread_id = c.thread_id and v.user_id = ${userId}
    where c.root_thread_id = ${rootThreadId}`);
  const viewedAt = new Map<string, string>();
  const updatedAt = new Map<string, string>();
  for (const row of rows) {
    updatedAt.set(row.thread_id, row.updated_at);
    if (row.viewed_at !== null) viewedAt.set(row.thread_id, row.viewed_at);
  }
  return { viewedAt, updatedAt };
}
