import { sql, type SQL } from 'drizzle-orm';
import type { ChangeAuthor, ChangeDraft } from './context';

/**
 * The drafts as change rows, numbered after the thread's last `seq` (gapless: the caller holds the
 * thread's lock, so nobody else numbers meanwhile; the unique (thread_id, seq) index is the
 * backstop), at the thread's current turn: a CTE named `changes` returning their `seq`s, for the
 * statement that also publishes them (appendAndPublishChanges).
 */
export function appendChangesCte(threadId: string, author: ChangeAuthor, drafts: readonly ChangeDraft[]): SQL {
  const rows = JSON.stringify(drafts.map((draft, i) => ({ ...draft, ord: i + 1 })));
  return sql`changes as (
    insert into workspace_changes (thread_id, seq, turn, actor, actor_id, via, via_source, kind, key, op, before, after)
    select c.thread_id, last.seq + r.ord, c.turn_index, ${author.actor}, ${author.actorId}, ${author.via}, ${author.viaSource ?? null},
      r.kind, r.key, r.op, nullif(r.before, 'null'::jsonb), nullif(r.after, 'null'::jsonb)
    from conversations c
    cross join (select coalesce(max(seq), 0) as seq from workspace_changes where thread_id = ${threadId}) last
    cross join jsonb_to_recordset(${rows}::jsonb) as r(kind text, key text, op text, before jsonb, after jsonb, ord int)
    where c.thread_id = ${threadId}
    order by r.ord
    returning seq
  ),`;
}
