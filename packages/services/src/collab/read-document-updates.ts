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
  from_version: number;
  after: { patch?: DocPatch; title?: string; client_id?: string };
}

/**
 * A change row as the updates it stands for: a live editor's batch of n updates is one row spanning
 * n versions, read back as its whole patch at the first version and n − 1 empty updates, all under
 * the editor's id — what every editor needs to count versions and recognise its own, and the same
 * text as the updates one by one.
 */
export function expandBatch(row: {
  fromVersion: number;
  toVersion: number;
  clientId: string | null;
  length: number;
  patch: DocPatch;
  newLength: number;
  title?: string | undefined;
}): DocumentUpdate[] {
  const out: DocumentUpdate[] = [
    {
      version: row.fromVersion + 1,
      client_id: row.clientId,
      length: row.length,
      patch: row.patch,
      ...(row.title !== undefined ? { title: row.title } : {}),
    },
  ];
  for (let version = row.fromVersion + 2; version <= row.toVersion; version++) {
    out.push({ version, client_id: row.clientId, length: row.newLength, patch: [] });
  }
  return out;
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
    select w.kind, (w.after->>'version')::int as version, (w.before->>'version')::int as from_version, w.after
    from up
    left join up child on child.depth = up.depth - 1
    join workspace_changes w on w.thread_id = up.thread_id and (up.depth = 0 or w.seq <= child.parent_change_seq)
    where w.kind in ('document', 'document_title') and (w.after->>'version')::int > ${since}
    order by (w.after->>'version')::int asc`);
  // Newest first, walking the length back from the live text; each row must start where the one
  // before it ended, and the first must start at `since`.
  const batches: DocumentUpdate[][] = [];
  let length = current.content.length;
  let expected = current.version;
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (Number(row.version) !== expected) return null;
    const fromVersion = Number(row.from_version);
    if (!(fromVersion < expected)) return null;
    const patch = row.kind === 'document' ? (row.after.patch ?? []) : [];
    const newLength = length;
    length -= patchLengthDelta(patch);
    if (length < 0) return null;
    batches.push(
      expandBatch({
        fromVersion,
        toVersion: expected,
        clientId: row.after.client_id ?? null,
        length,
        patch,
        newLength,
        title:
          row.kind === 'document_title' && typeof row.after.title === 'string' ? row.after.title : undefined,
      }),
    );
    expected = fromVersion;
  }
  if (expected !== since) return null;
  return batches.reverse().flat();
}
