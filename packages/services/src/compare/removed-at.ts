// The step that removed an item, for the compare's `removed_at` (docs/architecture.md, "Decision
// map"): read from the decision log along one path, for the removed items' keys only.
import { sql } from 'drizzle-orm';
import type { LineageEntry, WorkspaceComparison } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';

/** One stretch of the decision log that belongs to a path: a thread's rows over a range of turns. */
export interface DiscardRange {
  thread_id: string;
  from: number;
  to: number;
  /**
   * The thread that takes over after `to` (a branch at `to`): this thread's rows AT `to` count only
   * when they were logged before that branch was made, since later ones never reached it.
   */
  handed_to: string | null;
}

/**
 * The log rows that shaped the workspace after step `turn` of a lineage. A row carries the turn
 * index its thread had when the item was deleted, so a thread contributes its rows from its branch
 * point (edits made on a branch before its first turn) up to where the next thread branches off, or
 * up to `turn`; the same rule as "Discarded here" (`readDiscarded`), over a whole path.
 */
export function discardRanges(lineage: readonly LineageEntry[], turn: number): DiscardRange[] {
  const ranges: DiscardRange[] = [];
  lineage.forEach((entry, i) => {
    const from = entry.branch_point_turn ?? 0;
    if (from > turn) return;
    const next = lineage[i + 1];
    const isHandedOn = next?.branch_point_turn != null && next.branch_point_turn <= turn;
    ranges.push({
      thread_id: entry.thread_id,
      from,
      to: isHandedOn ? next.branch_point_turn! : turn,
      handed_to: isHandedOn ? next.thread_id : null,
    });
  });
  return ranges;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * For each removed preference and todo of a comparison, the step of b's path that deleted it (the
 * latest deletion of its key there) and who deleted it, or nothing when b's path never held it (it was added on a's
 * side after the fork). One query, driven by the removed keys (an index on the log's key) and
 * bounded by b's lineage: its cost follows the two states, not the family's history.
 */
export async function readRemovedAt(
  db: DbOrTx,
  comparison: Pick<WorkspaceComparison, 'preferences' | 'todos'>,
  b: { lineage: readonly LineageEntry[]; turn: number },
): Promise<Map<string, { turn: number; by: 'person' | 'agent' }>> {
  const keys = [...comparison.preferences, ...comparison.todos]
    .filter((item) => item.status === 'removed')
    .flatMap((item) => (item.key !== null && UUID.test(item.key) ? [item.key] : []));
  const ranges = discardRanges(b.lineage, b.turn);
  if (keys.length === 0 || ranges.length === 0) return new Map();
  const values = sql.join(
    ranges.map((r) => sql`(${r.thread_id}::text, ${r.from}::int, ${r.to}::int, ${r.handed_to}::text)`),
    sql`, `,
  );
  const rows = await db.execute<{ key: string; turn_index: number; editor: 'person' | 'agent' }>(sql`
    select distinct on (d.key) d.key::text as key, d.turn_index, d.editor
    from discarded_items d
    join (values ${values}) as r(thread_id, from_turn, to_turn, handed_to)
      on d.thread_id = r.thread_id and d.turn_index between r.from_turn and r.to_turn
    left join conversation_branches hb on hb.thread_id = r.handed_to
    where d.key = any(${`{${keys.join(',')}}`}::uuid[])
      and (d.turn_index < r.to_turn or r.handed_to is null or d.discarded_at < hb.created_at)
    order by d.key, d.turn_index desc, d.id desc`);
  return new Map(rows.map((row) => [row.key, { turn: row.turn_index, by: row.editor }]));
}
