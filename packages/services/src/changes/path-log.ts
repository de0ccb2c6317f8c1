// A path's change log: its ancestors' changes up to each branch's cut
// (`conversation_branches.parent_change_seq`, fixed at creation), then the thread's own. A change's
// path-wide `seq` is the cuts before its thread plus its own `seq`, the numbering `GET …/changes` pages by.
import { sql, type SQL } from 'drizzle-orm';

export interface PathSegment {
  threadId: string;
  /** Position on the path, root first. */
  index: number;
  /** Added to the thread's own `seq` to give the path-wide `seq`. */
  offset: number;
  /** The last own change the path includes; null for the displayed thread (all of them). */
  cut: number | null;
}

/** The path's segments, from a lineage that carries each thread's cut (`loadPathLineage`). */
export function pathSegments(lineage: readonly { thread_id: string; parent_change_seq: number }[]): PathSegment[] {
  let offset = 0;
  return lineage.map((entry, index) => {
    const child = lineage[index + 1];
    const cut = child ? child.parent_change_seq : null;
    const segment = { threadId: entry.thread_id, index, offset, cut };
    offset += cut ?? 0;
    return segment;
  });
}

/**
 * A condition on `alias.thread_id`/`alias.seq` holding the path's rows after `from` (a segment index
 * and own `seq`; null: from the start).
 */
export function onPath(segments: readonly PathSegment[], alias: string, from: { index: number; seq: number } | null): SQL {
  const parts = segments
    .filter((segment) => !from || segment.index >= from.index)
    .map((segment) => {
      const lower = from && segment.index === from.index ? sql` and ${sql.raw(alias)}.seq > ${from.seq}` : sql``;
      const upper = segment.cut === null ? sql`` : sql` and ${sql.raw(alias)}.seq <= ${segment.cut}`;
      return sql`(${sql.raw(alias)}.thread_id = ${segment.threadId}${lower}${upper})`;
    });
  return parts.length === 0 ? sql`false` : sql`(${sql.join(parts, sql` or `)})`;
}

/** `case thread_id when … then index end`: orders a path's rows root first. */
export function pathOrder(segments: readonly PathSegment[], alias: string): SQL {
  return sql`case ${sql.raw(alias)}.thread_id ${sql.join(
    segments.map((s) => sql`when ${s.threadId} then ${s.index}`),
    sql` `,
  )} end`;
}
