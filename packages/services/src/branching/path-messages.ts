import { sql } from 'drizzle-orm';
import { lineageTurnRanges, type LineageEntry, type Message } from '@trellis/domain';
import type { DbOrTx, StoredApplyProvenance, StoredToolCall } from '@trellis/db';
import { isoTimestamp } from '../workspace/iso-timestamp';

/**
 * Messages of the displayed path between turns `from` and `upTo` (inclusive) in
 * ONE query, whatever the lineage depth: each thread contributes only the turns it
 * owns (docs/branching.md, "The prefix rule": turns ≤ k render under the ancestors). With `lastMessages`, only
 * the newest that many (the agent's working-context budget), still in order.
 */
export async function readPathMessages(
  db: DbOrTx,
  lineage: readonly LineageEntry[],
  range: { from: number; upTo: number; lastMessages?: number },
): Promise<Message[]> {
  const ranges = lineageTurnRanges(lineage, range.upTo)
    .map((r) => ({ thread_id: r.thread_id, from: Math.max(r.from, range.from), to: r.to }))
    .filter((r) => r.to >= r.from);
  if (ranges.length === 0) return [];
  const limit = range.lastMessages === undefined ? sql`` : sql`limit ${range.lastMessages}`;
  const rows = await db.execute<
    Omit<Message, 'tool_calls' | 'compacted_before' | 'kind' | 'provenance'> & {
      tool_calls: StoredToolCall[];
      compacted_before: boolean;
      kind: 'apply' | null;
      provenance: StoredApplyProvenance | null;
      seq?: number;
    }
  >(sql`
    select * from (
      select m.id::text as id, m.thread_id, m.turn_index, m.role, m.content, m.tool_calls, m.status, m.reason, m.compacted_before,
        m.kind, m.provenance, ${isoTimestamp(sql`m.created_at`)} as created_at, m.seq
      from jsonb_to_recordset(${JSON.stringify(ranges)}::jsonb) as r(thread_id text, "from" int, "to" int)
      join messages m on m.thread_id = r.thread_id and m.turn_index between r."from" and r."to"
      order by m.turn_index desc, m.seq desc
      ${limit}
    ) page order by turn_index, seq`);
  // The flag and an apply entry's fields travel only where they are set; most messages carry neither.
  return rows.map(({ seq: _seq, compacted_before: compactedBefore, kind, provenance, ...row }) => ({
    ...row,
    ...(compactedBefore && { compacted_before: true }),
    ...(kind !== null && { kind }),
    ...(provenance !== null && { provenance }),
  }));
}
