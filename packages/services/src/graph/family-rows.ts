import { sql, type SQL } from 'drizzle-orm';
import type { FamilyGraphScope, FamilyThreadRow, LabelTurnRow, TurnMetaRow } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { REASON_DISCONNECTED, REASON_STOPPED } from '../turns/turn-gate';

export interface FamilyThreadRows {
  /** Every thread of the family. */
  readonly threads: FamilyThreadRow[];
  /** The label witnesses of every branch (see `AssembleFamilyGraphInput.labelTurns`). */
  readonly labelTurns: LabelTurnRow[];
}

interface ThreadRecord extends FamilyThreadRow {
  readonly next_turn: number | null;
  readonly next_captured_at: string | null;
  readonly prior_turn: number | null;
  readonly prior_captured_at: string | null;
}

/**
 * Every thread of the family of `threadId` — any member, the root or a branch — in one query keyed by
 * the immutable family root: the root and ACTIVE branches, soft-deleted ones too (the domain decides
 * what to show). A branch of P at k comes with the turns of P the label rules need: P's first owned
 * turn above k and — only when that one was not captured before the branch was created (compared in
 * milliseconds, like the domain) — the first one above k that was. The first is one probe of the
 * (thread_id, turn_index) key (turn k + 1); the second scans only for a tip continuation whose
 * parent moved on. The roots are found once and the first witness is a key probe, so the cost stays
 * one index step per branch even on a plan cached while the family was small or before the tables
 * were analysed (an ordered walk can then be planned as a scan and sort of the parent's turns).
 */
export async function loadFamilyThreads(db: DbOrTx, threadId: string): Promise<FamilyThreadRows> {
  const families = await loadFamiliesThreads(db, [threadId]);
  return families.values().next().value ?? { threads: [], labelTurns: [] };
}

/** {@link loadFamilyThreads} for the families of several threads at once, in one query, keyed by family root. */
export async function loadFamiliesThreads(db: DbOrTx, threadIds: readonly string[]): Promise<Map<string, FamilyThreadRows>> {
  const rows = await db.execute<ThreadRecord & { root_thread_id: string } & Record<string, unknown>>(sql`
    select c.root_thread_id, c.thread_id, b.parent_thread_id, b.branch_point_turn, b.reason, c.title, c.created_at, c.deleted_at,
      c.is_starred, c.is_archived,
      nt.turn_index as next_turn, nt.captured_at as next_captured_at,
      pt.turn_index as prior_turn, pt.captured_at as prior_captured_at
    from conversations c
    left join conversation_branches b on b.thread_id = c.thread_id
    left join conversation_branches pb on pb.thread_id = b.parent_thread_id
    left join lateral (
      -- turns are gapless, so P's first owned turn above k is k + 1: one probe of the unique
      -- (thread_id, turn_index) key, planned the same whatever the statistics say; the ordered walk
      -- behind it runs only when that turn is missing (either branch answers the same when both do)
      (select s.turn_index, s.captured_at from workspace_snapshots s
        where s.thread_id = b.parent_thread_id
          and s.turn_index = greatest(coalesce(b.branch_point_turn, 0), pb.branch_point_turn) + 1)
      union all
      (select s.turn_index, s.captured_at from workspace_snapshots s
        where s.thread_id = b.parent_thread_id and s.turn_index > coalesce(b.branch_point_turn, 0)
          and (pb.branch_point_turn is null or s.turn_index > pb.branch_point_turn)
        order by s.turn_index limit 1)
      limit 1
    ) nt on true
    left join lateral (
      select s.turn_index, s.captured_at from workspace_snapshots s
      where s.thread_id = b.parent_thread_id and s.turn_index > nt.turn_index
        and (pb.branch_point_turn is null or s.turn_index > pb.branch_point_turn)
        -- captured in an earlier millisecond: t < trunc(c) is trunc(t) < trunc(c), with no per-row trunc
        and s.captured_at < date_trunc('milliseconds', c.created_at)
        -- only when P's first turn above k is no witness itself (a one-time filter: usually no scan at all)
        and nt.captured_at >= date_trunc('milliseconds', c.created_at)
      order by s.turn_index limit 1
    ) pt on true
    -- the family roots first, once (a correlated semi-join rescans the family for every thread)
    where c.root_thread_id = any (array(select f.root_thread_id from conversations f
        where f.thread_id = any (array(select jsonb_array_elements_text(${JSON.stringify(threadIds)}::jsonb)))))
      and (b.status = 'active' or (b.thread_id is null and c.thread_id = c.root_thread_id))`);
  const families = new Map<string, { threads: FamilyThreadRow[]; labelTurns: LabelTurnRow[] }>();
  for (const { root_thread_id, next_turn, next_captured_at, prior_turn, prior_captured_at, ...thread } of rows) {
    let family = families.get(root_thread_id);
    if (family === undefined) families.set(root_thread_id, (family = { threads: [], labelTurns: [] }));
    const { threads, labelTurns } = family;
    threads.push(thread);
    if (thread.parent_thread_id === null) continue;
    if (next_turn !== null && next_captured_at !== null) {
      labelTurns.push({ thread_id: thread.parent_thread_id, turn_index: next_turn, captured_at: next_captured_at });
    }
    if (prior_turn !== null && prior_captured_at !== null) {
      labelTurns.push({ thread_id: thread.parent_thread_id, turn_index: prior_turn, captured_at: prior_captured_at });
    }
  }
  return families;
}

/**
 * The graph's `reply_status` of the assistant message `m`, read from the row the reply preview already
 * reads: an explicit Stop (or, before replies outlived their tab, a closed page) reads `stopped`.
 */
export const replyStatusSql = sql`case when m.status = 'interrupted' and m.reason in (${REASON_DISCONNECTED}, ${REASON_STOPPED})
  then 'stopped' else m.status end`;

/**
 * The reply preview of `m`. An apply step's `system` entry stands where a reply would (so the step
 * reads as complete) but has no reply text: the entry itself is the step's user_message.
 */
/**
 * An apply step's provenance (`source_node_id`, `items`) for the turn row aliased `turn`, null on
 * other steps: one step of the partial index of apply entries (a summary step has a reply too, so
 * the reply lateral's row is not the entry).
 */
export function applyProvenanceSql(turn: 'n' | 's'): SQL {
  const t = sql.raw(turn);
  return sql`(select m.provenance from messages m where m.thread_id = ${t}.thread_id and m.turn_index = ${t}.turn_index
    and m.kind = 'apply' order by m.seq limit 1)`;
}

export const replyPreviewSql = sql`case when m.role = 'system' then null else left(m.content, 240) end`;

/**
 * Turn metadata of a whole family in one query — snapshot previews, a reply
 * preview, tool and artifact counts; never a document body. Every row: for
 * callers that need arbitrary turns (siblings); the graph reads only the newest.
 */
export async function loadFamilyTurns(db: DbOrTx, rootThreadId: string): Promise<TurnMetaRow[]> {
  return db.execute<TurnMetaRow & Record<string, unknown>>(sql`
    select s.thread_id, s.turn_index, s.user_message, s.captured_at,
      r.reply_preview, r.reply_status, ${applyProvenanceSql('s')} as apply_provenance, r.citations, coalesce(r.tool_count, 0)::int as tool_count,
      coalesce(a.artifact_count, 0)::int as artifact_count,
      (select jsonb_build_object('words_added', sc.words_added, 'words_removed', sc.words_removed,
          'items_added', sc.items_added, 'items_removed', sc.items_removed, 'items_edited', sc.items_edited)
        from step_changes sc where sc.thread_id = s.thread_id and sc.turn_index = s.turn_index) as change_summary,
      (select count(*) from discarded_items d where d.thread_id = s.thread_id and d.turn_index = s.turn_index)::int
        as discarded_count
    from workspace_snapshots s
    join conversations c on c.thread_id = s.thread_id
    left join conversation_branches b on b.thread_id = c.thread_id
    left join lateral (
      select ${replyPreviewSql} as reply_preview, jsonb_array_length(m.tool_calls) as tool_count,
        ${replyStatusSql} as reply_status, m.citations
      from messages m
      where m.thread_id = s.thread_id and m.turn_index = s.turn_index and m.role <> 'user'
      order by m.seq desc limit 1
    ) r on true
    left join lateral (
      select count(*) as artifact_count from artifacts x
      where x.thread_id = s.thread_id and x.turn_index = s.turn_index
    ) a on true
    where c.root_thread_id = ${rootThreadId} and (b.status = 'active' or (b.thread_id is null and c.thread_id = ${rootThreadId}))`);
}

export interface NewestFamilyTurns {
  /** The newest visible turns, each with `previous_turn_index`. */
  readonly turns: TurnMetaRow[];
  /** Turns each visible thread owns, counted over all its rows (0 for a stub). */
  readonly ownedTurnCounts: ReadonlyMap<string, number>;
}

interface NewestTurnRecord extends TurnMetaRow {
  /** Set on the per-thread count rows only (their turn_index is null). */
  readonly owned_turn_count: number | null;
}

/**
 * The newest `maxNodes` turns the graph can show — owned turns of the scope's visible threads, newest
 * by captured_at, with every row of the last one's millisecond (the domain breaks ties by node id) —
 * and how many turns each visible thread owns, in one query whose cost follows `maxNodes`, not the
 * family: the cut walks the family's (root, captured_at) index newest first and stops at the
 * `maxNodes`-th visible turn; the kept rows are one range of that index; the counts come from each
 * thread's turn clock (turns are gapless: turn k of a thread has snapshot k, branch point excluded).
 * Only the rows kept pay for their previous turn, user message, reply preview and artifact count,
 * each a step of an index.
 */
export async function loadNewestFamilyTurns(
  db: DbOrTx,
  scope: FamilyGraphScope,
  maxNodes: number,
): Promise<NewestFamilyTurns> {
  const visible = JSON.stringify(scope.visibleThreads);
  // thread → the turn its owned turns start after (-1: the root owns them all)
  const visibleMap = JSON.stringify(Object.fromEntries(scope.visibleThreads.map((t) => [t.thread_id, t.branch_point_turn ?? -1])));
  const rows = await db.execute<NewestTurnRecord & Record<string, unknown>>(sql`
    with scope as materialized (
      select v.thread_id, v.branch_point_turn
      from jsonb_to_recordset(${visible}::jsonb) as v(thread_id text, branch_point_turn int)
    ), cut as (
      -- the maxNodes-th newest visible turn: one walk down the (root, captured_at) index that stops
      -- there (a function planned so that it walks the index whatever the statistics say)
      select family_newest_cut(${scope.rootThreadId}, ${visibleMap}::jsonb, ${maxNodes}::bigint) as captured_at
    ), newest as (
      -- in or after the millisecond of the maxNodes-th newest (t >= trunc(x) is trunc(t) >= trunc(x))
      select s.id, s.thread_id, s.turn_index, s.captured_at, v.branch_point_turn,
        lag(s.turn_index) over (partition by s.thread_id order by s.turn_index) as kept_before
      from workspace_snapshots s
      join scope v on v.thread_id = s.thread_id
      where ${maxNodes}::bigint > 0 and s.family_root_thread_id = ${scope.rootThreadId}
        and (v.branch_point_turn is null or s.turn_index > v.branch_point_turn)
        and s.captured_at >= coalesce((select date_trunc('milliseconds', x.captured_at) from cut x), '-infinity')
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
    select v.thread_id, null, null, null, null, null, null, null::jsonb, null::jsonb, 0, 0, null, 0,
      greatest(c.turn_index - coalesce(v.branch_point_turn, 0), 0)::int
    from scope v join conversations c on c.thread_id = v.thread_id`);
  const turns: TurnMetaRow[] = [];
  const ownedTurnCounts = new Map(scope.visibleThreads.map((thread) => [thread.thread_id, 0]));
  for (const { owned_turn_count, ...turn } of rows) {
    if (owned_turn_count === null) turns.push(turn);
    else ownedTurnCounts.set(turn.thread_id, owned_turn_count);
  }
  return { turns, ownedTurnCounts };
}
