// The document's versions as a live editor receives them, read back from the change log: every
// document and title change of the path after a version, oldest first, with the length of the text
// each applies to (walked back from the live text, so no body is ever stored twice).
import { sql } from 'drizzle-orm';
import { patchLengthDelta, type DocPatch, type DocumentUpdate } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { lineageWalk } from '../lineage/load-lineage';

interface UpdateRow extends Record<string, unknown> {
  kind: string;
  version: number;
  after: { patch?: DocPatch; title?: string; client_id?: string };
}

/**
 * The updates that take the document from `since` to `current` on this path (a branch's own changes
 * and its ancestors' up to each cut), or null when the log has no contiguous run of versions there
 * (a version from before the log).
 */
export async function readDocumentUpdates(
  db: DbOrTx,
  threadId: string,
  current: { content: string; version: number },
  since: number,
): Promise<DocumentUpdate[] | null> {
  if (since >= current.version) return [];
  const rows = await db.execute<UpdateRow>(sql`
    ${lineageWalk(threadId)}
    select w.kind, (w.after->>'version')::int as version, w.after
    from up
    left join up child on child.depth = up.depth - 1
    join workspace_changes w on w.thread_id = up.thread_id and (up.depth = 0 or w.seq <= child.parent_change_seq)
    where w.kind in ('document', 'document_title') and (w.after->>'version')::int > ${since}
    order by (w.after->>'version')::int asc`);
  if (rows.length !== current.version - since) return null;
  const updates: DocumentUpdate[] = [];
  let length = current.content.length;
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (Number(row.version) !== since + 1 + i) return null;
    const patch = row.kind === 'document' ? (row.after.patch ?? []) : [];
    length -= patchLengthDelta(patch);
    if (length < 0) return null;
    updates.push({
      version: Number(row.version),
      client_id: row.after.client_id ?? null,
      length,
      patch,
      ...(row.kind === 'document_title' && typeof row.after.title === 'string'
        ? { title: row.after.title }
        : {}),
    });
  }
  return updates.reverse();
}
