// The graph's newest-turns rule as it was first written — every owned turn of the family sorted
// to find the newest `maxNodes` and counted per thread — kept as the reference the indexed
// query (family-rows.ts) is tested against on random families. Test-only.
import { sql } from 'drizzle-orm';
import type { FamilyGraphScope, TurnMetaRow } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { applyProvenanceSql, replyPreviewSql, replyStatusSql, type NewestFamilyTurns } from './family-rows';

interface NewestTurnRecord extends TurnMetaRow {
  readonly owned_turn_count: number | null;
}

/** The reference implementation: sorts and counts the whole family. */
export async function loadNewestFamilyTurnsBySorting(
  db: DbOrTx,
  scope: FamilyGraphScope,
  maxNodes: number,
): Promise<NewestFamilyTurns> {
  const visible = JSON.stringify(scope.visibleThreads);
  const rows = await db.execute<NewestTurnRecord & Record<string, unknown>>(sql`
    with scope as (
      select v.thread_id, v.branch_point_turn
      from jsonb_to_recordset(${visible}::jsonb) as v(thread_id text, branch_point_turn int)
    ), owned as materialized (
      select s.id, s.thread_id, s.turn_index, s.captured_at, v.branch_point_turn
      from scope v
      join workspace_snapshots s on s.thread_id = v.thread_id
      where v.branch_point_turn is null or s.turn_index > v.branch_point_turn
    ), newest as (
      -- in or after the millisecond of the maxNodes-th newest (t >= trunc(x) is trunc(t) >= trunc(x))
      select o.*, lag(o.turn_index) over (partition by o.thread_id order by o.turn_index) as kept_before
      from owned o
      where ${maxNodes}::bigint > 0 and o.captured_at >= coalesce((
        select date_trunc('milliseconds', x.captured_at) from owned x
        order by x.captured_at desc offset greatest(${maxNodes}::bigint - 1, 0) limit 1
      ), '-infinity')
    )
    select n.thread_id, n.turn_index, n.captured_at,
      -- the kept row just before, when it is turn - 1 (nothing can lie between); else one index step
      case when n.kept_before = n.turn_index - 1 then n.kept_before else (
        select max(p.turn_index) from workspace_snapshots p
        where p.thread_id = n.thread_id and p.turn_index < n.turn_index
          and (n.branch_point_turn is null or p.turn_index > n.branch_point_turn)
      ) end as previous_turn_index,
      (select s.user_message from workspace_snapshots s where s.id = n.id) as user_message,
      r.reply_preview, r.reply_status, ${applyProvenanceSql('n')} as apply_provenance, r.citations, coalesce(r.tool_count, 0)::int as tool_count,
      coalesce(a.artifact_count, 0)::int as artifact_count,
      (select jsonb_build_object('words_added', sc.words_added, 'words_removed', sc.words_removed,
          'items_added', sc.items_added, 'items_removed', sc.items_removed, 'items_edited', sc.items_edited)
        from step_changes sc where sc.thread_id = n.thread_id and sc.turn_index = n.turn_index) as change_summary,
      (select count(*) from discarded_items d where d.thread_id = n.thread_id and d.turn_index = n.turn_index)::int
        as discarded_count,
      null::int as owned_turn_count
    from newest n
    left join lateral (
      select ${replyPreviewSql} as reply_preview, jsonb_array_length(m.tool_calls) as tool_count,
        ${replyStatusSql} as reply_status, m.citations
      from messages m
      where m.thread_id = n.thread_id and m.turn_index = n.turn_index and m.role <> 'user'
      order by m.seq desc limit 1
    ) r on true
    left join lateral (
      select count(*) as artifact_count from artifacts x
      where x.thread_id = n.thread_id and x.turn_index = n.turn_index
    ) a on true
    union all
    select o.thread_id, null, null, null, null, null, null, null::jsonb, null::jsonb, 0, 0, null, 0, count(*)::int
    from owned o group by o.thread_id`);
  const turns: TurnMetaRow[] = [];
  const ownedTurnCounts = new Map(scope.visibleThreads.map((thread) => [thread.thread_id, 0]));
  for (const { owned_turn_count, ...turn } of rows) {
    if (owned_turn_count === null) turns.push(turn);
    else ownedTurnCounts.set(turn.thread_id, owned_turn_count);
  }
  return { turns, ownedTurnCounts };
}
