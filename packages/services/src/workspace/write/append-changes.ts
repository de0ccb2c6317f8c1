import { sql, type SQL } from 'drizzle-orm';
import type { ChangeAuthor, ChangeDraft } from './context';

/**
 * The drafts as change rows, numbered after the thread's last `seq` (gapless: the caller holds the
 * thread's lock, so nobody else numbers meanwhile; the unique (thread_id, seq) index is the
 * backstop), at the thread's current turn: a CTE named `changes` returning their `seq`s, for the
 * statement that also publishes them (appendAndPublishChanges).
 */
export function appendChangesCte(
  threadId: string,
  author: ChangeAuthor,
  drafts: readonly ChangeDraft[],
  /**
   * For a statement that writes the item itself too: `join`, from-items of its earlier CTEs (no row
   * is appended unless they answer one), and `before`, a jsonb expression over them that is merged
   * into every draft's `before`.
   */
  options: { join?: SQL; before?: SQL } = {},
): SQL {
  const rows = JSON.stringify(drafts.map((draft, i) => ({ ...draft, ord: i + 1 })));
  const before = options.before ? sql`nullif(r.before, 'null'::jsonb) || ${options.before}` : sql`nullif(r.before, 'null'::jsonb)`;
  return sql`changes as (
    insert into workspace_changes (thread_id, seq, turn, actor, actor_id, via, via_source, kind, key, op, before, after)
    select c.thread_id, last.seq + r.ord, c.turn_index, ${author.actor}, ${author.actorId}, ${author.via}, ${author.viaSource ?? null},
      r.kind, r.key, r.op, ${before}, nullif(r.after, 'null'::jsonb)
    from conversations c${options.join ? sql` cross join ${options.join}` : sql``}
    cross join (select coalesce(max(seq), 0) as seq from workspace_changes where thread_id = ${threadId}) last
    cross join jsonb_to_recordset(${rows}::jsonb) as r(kind text, key text, op text, before jsonb, after jsonb, ord int)
    where c.thread_id = ${threadId}
    order by r.ord
    returning seq
  ),`;
}
