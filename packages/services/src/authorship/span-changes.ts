// What hovering an authorship span says besides its step: when the change that wrote
// it was made and, for the agent, the tool call that made it. Read for the changes the spans name only.
import { sql } from 'drizzle-orm';
import type { AuthorshipChange, AuthorshipSpan } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import type { PathSegment } from '../changes/path-log';

/**
 * The path's changes named by `spans` (applied text aside: its seq belongs to its source thread) with a
 * seq above `after`, in seq order: a reader that keeps what it has seen asks for the new ones only, so
 * a read after one edit fetches that edit's change, not one row per earlier edit. A path-wide seq maps back to one segment: the one whose own range `(offset, offset + cut]`
 * holds it. An agent's change keeps its tool call's id (`actor_id`); the call's name comes from the
 * stored reply of that step that holds the call, if any.
 */
export async function readSpanChanges(
  db: DbOrTx,
  segments: readonly PathSegment[],
  spans: readonly AuthorshipSpan[],
  after = 0,
): Promise<AuthorshipChange[]> {
  const wanted = [
    ...new Set(spans.flatMap((s) => (s.via === 'apply' || s.seq === null || s.seq <= after ? [] : [s.seq]))),
  ].sort((a, b) => a - b);
  const keys = wanted.flatMap((seq) => {
    const segment = segments.find((s) => seq > s.offset && (s.cut === null || seq <= s.offset + s.cut));
    return segment ? [{ seq, threadId: segment.threadId, own: seq - segment.offset }] : [];
  });
  if (keys.length === 0) return [];
  const byThread = new Map<string, { offset: number; seqs: number[] }>();
  for (const k of keys) {
    const entry = byThread.get(k.threadId) ?? { offset: k.seq - k.own, seqs: [] };
    entry.seqs.push(k.own);
    byThread.set(k.threadId, entry);
  }
  // One index probe per change (the thread's unique seq), an offset per thread to give back the path-wide seq.
  const onThreads = sql.join(
    [...byThread].map(
      ([threadId, { seqs }]) =>
        sql`(w.thread_id = ${threadId} and w.seq = any(${`{${seqs.join(',')}}`}::int[]))`,
    ),
    sql` or `,
  );
  const offsets = sql.join(
    [...byThread].map(([threadId, { offset }]) => sql`when ${threadId} then ${offset}::int`),
    sql` `,
  );
  const rows = await db.execute<{
    seq: number;
    turn: number;
    actor: AuthorshipChange['actor'];
    actor_id: string | null;
    via: string;
    created_at: string | Date;
    tool_name: string | null;
  }>(sql`
    select w.seq + case w.thread_id ${offsets} end as seq, w.turn, w.actor, w.actor_id, w.via, w.created_at,
      case when w.via = 'agent_tool' and w.actor_id is not null then (
        select tc->>'name' from messages m cross join lateral jsonb_array_elements(m.tool_calls) tc
        where m.thread_id = w.thread_id and m.turn_index = w.turn and m.role = 'assistant' and tc->>'id' = w.actor_id
        limit 1)
      end as tool_name
    from workspace_changes w
    where ${onThreads}
    order by 1`);
  return rows.map((row) => ({
    seq: Number(row.seq),
    turn: Number(row.turn),
    actor: row.actor,
    at: new Date(row.created_at).toISOString(),
    tool_call: row.via === 'agent_tool' && row.actor_id ? { id: row.actor_id, name: row.tool_name } : null,
  }));
}
