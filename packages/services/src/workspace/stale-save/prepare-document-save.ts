// A document save on a stale base is merged before the write path's transaction, never inside it:
// read the live document and the changes since the base (plain reads, no lock), merge in the merge
// worker, then hand the write path the merged text with the version it was merged onto. Under the
// lock the write path only checks that version still holds (else the caller merges again onto the
// newer text) and writes. The thread's lock is held for a write, never for a merge.
import { sql } from 'drizzle-orm';
import { AppError, type DocPatch, type DocumentChanger, type DocumentConflictDetails } from '@trellis/domain';
import type { Db } from '@trellis/db';
import { userNames } from '../../members/user-names';
import { requireThreadAccess, type ThreadActor } from '../../conversations/conversation-access';
import { lineageWalk } from '../../lineage/load-lineage';
import type { DocumentChangeRow, LiveDocumentText } from './merge-job';
import { mergeInWorker, type MergeJobOptions } from './run-merge-job';

/** A whole-text document edit merged onto the live text at `onVersion`, ready to write. */
export interface PreparedDocument {
  onVersion: number;
  title: string;
  content: string;
  body?: { patch: DocPatch; deleted: string[] } | undefined;
}

export interface StaleDocumentEdit {
  title?: string | undefined;
  content?: string | undefined;
  baseVersion: number;
}

/**
 * The merged edit, or null when the base is the live version (or newer: the write path answers
 * that with 422) and there is nothing to merge. Throws 409 `conflict` with the live document when
 * the edits overlap or are too many to merge within the budget.
 */
export async function prepareDocumentSave(
  db: Db,
  actor: ThreadActor,
  threadId: string,
  edit: StaleDocumentEdit,
  options: MergeJobOptions = {},
): Promise<PreparedDocument | null> {
  await requireThreadAccess(db, actor, threadId, 'edit');
  const current = await readLiveDocumentText(db, threadId);
  if (edit.baseVersion >= current.version) return null;
  const changes = await readDocumentChanges(db, threadId, edit.baseVersion, current.version);
  const outcome = await mergeInWorker(
    { current, baseVersion: edit.baseVersion, changes, edit: { title: edit.title, content: edit.content } },
    options,
  );
  if (!outcome.ok) {
    const changedBy = await changersOf(db, changes);
    throw outcome.reason === 'too_complex' ? tooManyChanges(current, changedBy) : overlapping(current, changedBy);
  }
  return { onVersion: current.version, title: outcome.title, content: outcome.content, body: outcome.body };
}

export function overlapping(current: LiveDocumentText, changedBy?: DocumentChanger[]): AppError {
  return new AppError('conflict', 'The document changed since this copy was loaded and the edits overlap: merge them and save again', {
    details: conflictDetails(current, changedBy),
  });
}

function tooManyChanges(current: LiveDocumentText, changedBy: DocumentChanger[]): AppError {
  return new AppError(
    'conflict',
    'The document has too many overlapping changes to merge automatically since this copy was loaded: merge them and save again',
    { details: conflictDetails(current, changedBy) },
  );
}

function conflictDetails(current: LiveDocumentText, changedBy: DocumentChanger[] | undefined): DocumentConflictDetails {
  return changedBy === undefined ? { document: current } : { document: current, changed_by: changedBy };
}

/** A document change with who made it (the merge reads the change alone). */
interface AuthoredChange extends DocumentChangeRow {
  actor: string;
  actor_id: string | null;
}

/**
 * Each author of the changes once, newest first (the system's own changes are no one's), people
 * named: read only for a refusal, so a save that merges pays nothing for it.
 */
async function changersOf(db: Db, changes: readonly AuthoredChange[]): Promise<DocumentChanger[]> {
  const seen = new Map<string, DocumentChanger>();
  for (const change of changes) {
    if (change.actor !== 'agent' && change.actor !== 'person') continue;
    const key = change.actor === 'agent' ? 'agent' : `person:${change.actor_id ?? ''}`;
    if (!seen.has(key)) seen.set(key, { kind: change.actor, user_id: change.actor === 'agent' ? null : change.actor_id, name: null });
  }
  const names = await userNames(db, [...seen.values()].flatMap((c) => (c.user_id === null ? [] : [c.user_id])));
  for (const changer of seen.values()) if (changer.user_id !== null) changer.name = names.get(changer.user_id) ?? null;
  return [...seen.values()];
}

export async function readLiveDocumentText(db: Db, threadId: string): Promise<LiveDocumentText> {
  const [row] = await db.execute<LiveDocumentText & Record<string, unknown>>(sql`
    select title, content, version from documents where thread_id = ${threadId}`);
  return row ? { title: row.title, content: row.content, version: row.version } : { title: '', content: '', version: 0 };
}

/**
 * The document's changes on this path after version `from` up to `to` (the live version as read:
 * a change committed since is not in that text), newest first: found through the index on the
 * changes' version, so the cost follows the changes since the base, not the log.
 */
async function readDocumentChanges(db: Db, threadId: string, from: number, to: number): Promise<AuthoredChange[]> {
  const rows = await db.execute<AuthoredChange & Record<string, unknown>>(sql`
    ${lineageWalk(threadId)}
    select w.kind, w.before, w.after, w.actor, w.actor_id
    from up
    left join up child on child.depth = up.depth - 1
    join workspace_changes w on w.thread_id = up.thread_id and (up.depth = 0 or w.seq <= child.parent_change_seq)
    where w.kind in ('document', 'document_title') and (w.after->>'version')::int > ${from} and (w.after->>'version')::int <= ${to}
    order by up.depth asc, w.seq desc`);
  return rows.map((row) => ({ kind: row.kind, before: row.before, after: row.after, actor: row.actor, actor_id: row.actor_id }));
}
