// Objective and document edits of the write path. The document body's change is a patch
// (`DocumentBodyAfter`) plus the texts it deleted (`DocumentBodyBefore`), never two copies of the
// body; every change of the row (body or title) bumps its version by one.
import { sql } from 'drizzle-orm';
import {
  AppError,
  deletedTexts,
  makeDocPatch,
  mergeDocumentText,
  revertDocPatch,
  type DocPatch,
  type DocumentBodyAfter,
  type DocumentBodyBefore,
  type DocumentConflictDetails,
} from '@trellis/domain';
import { replaceMarkdownSection } from '@trellis/agent';
import { lineageWalk } from '../../lineage/load-lineage';
import type { Tx } from '../thread-lock';
import type { WriteContext } from './context';

export interface LiveDocument {
  title: string;
  content: string;
  version: number;
}

/**
 * How an apply's document change is made: the patch from the current text to the new one and the
 * authors of what it inserts (see `applyDocumentChange` in domain). Without it, the plain diff.
 */
export type DocumentChangeMaker = (current: string, next: string) => { patch: DocPatch; attribution: NonNullable<DocumentBodyAfter['attribution']> };

export type DocumentEdit =
  | { kind: 'document'; title?: string | undefined; content?: string | undefined; baseVersion?: number | undefined }
  | { kind: 'document_append'; text: string }
  | { kind: 'document_section'; heading: string; content: string };

export async function setObjective(ctx: WriteContext, objective: string | null): Promise<void> {
  const [row] = await ctx.tx.execute<{ before: string | null }>(sql`
    update conversations c set objective = ${objective}
    from (select objective from conversations where thread_id = ${ctx.threadId}) old
    where c.thread_id = ${ctx.threadId}
    returning old.objective as before`);
  if (row && row.before !== objective) {
    ctx.drafts.push({ kind: 'objective', key: null, op: 'set', before: { text: row.before }, after: { text: objective } });
  }
}

/** Applies a document edit (whole text, append or section) and returns the document as saved. */
export async function editDocument(
  ctx: WriteContext,
  edit: DocumentEdit,
  options: { change?: DocumentChangeMaker | undefined } = {},
): Promise<LiveDocument> {
  const current = await readDocumentForUpdate(ctx.tx, ctx.threadId);
  let title = current.title;
  let content = current.content;
  if (edit.kind === 'document_append') {
    const body = current.content.replace(/\n+$/, '');
    content = body === '' ? edit.text : `${body}\n\n${edit.text}`;
  } else if (edit.kind === 'document_section') {
    content = replaceMarkdownSection(current.content, edit.heading, edit.content);
  } else {
    const merged = await mergeOntoCurrent(ctx.tx, ctx.threadId, current, edit);
    title = merged.title;
    content = merged.content;
  }
  return saveDocument(ctx, current, { title, content }, options);
}

async function saveDocument(
  ctx: WriteContext,
  current: LiveDocument,
  next: { title: string; content: string },
  options: { change?: DocumentChangeMaker | undefined },
): Promise<LiveDocument> {
  let version = current.version;
  if (next.title !== current.title) {
    ctx.drafts.push({
      kind: 'document_title',
      key: null,
      op: 'set',
      before: { version, title: current.title },
      after: { version: version + 1, title: next.title },
    });
    version++;
  }
  if (next.content !== current.content) {
    const made = options.change?.(current.content, next.content);
    const patch: DocPatch = made?.patch ?? makeDocPatch(current.content, next.content);
    const deleted = deletedTexts(current.content, patch);
    const before: DocumentBodyBefore = deleted.length > 0 ? { version, deleted } : { version };
    const attribution = made && made.attribution.length > 0 ? { attribution: made.attribution } : {};
    const after: DocumentBodyAfter = { version: version + 1, patch, ...attribution };
    ctx.drafts.push({ kind: 'document', key: null, op: 'patch', before: { ...before }, after: { ...after } });
    version++;
  }
  if (version === current.version) return current;
  // Upsert: a thread created without a document row (an older branch) still gets one.
  await ctx.tx.execute(sql`
    insert into documents (thread_id, title, content, version) values (${ctx.threadId}, ${next.title}, ${next.content}, ${version})
    on conflict (thread_id) do update set title = excluded.title, content = excluded.content, version = excluded.version, updated_at = now()`);
  return { title: next.title, content: next.content, version };
}

async function readDocumentForUpdate(tx: Tx, threadId: string): Promise<LiveDocument> {
  const [row] = await tx.execute<LiveDocument & Record<string, unknown>>(sql`
    select title, content, version from documents where thread_id = ${threadId} for update`);
  return row ?? { title: '', content: '', version: 0 };
}

/**
 * The text to save for a whole-text edit: without a base version (or on the current one) the edit
 * itself; on an older one, the three-way merge of the base (rebuilt from the change log), the edit
 * and the current text — or a 409 `conflict` with the current document when the edits overlap.
 */
async function mergeOntoCurrent(
  tx: Tx,
  threadId: string,
  current: LiveDocument,
  edit: Extract<DocumentEdit, { kind: 'document' }>,
): Promise<{ title: string; content: string }> {
  const wanted = { title: edit.title ?? current.title, content: edit.content ?? current.content };
  const base = edit.baseVersion;
  if (base === undefined || base === current.version) return wanted;
  if (base > current.version) {
    throw AppError.validation(
      [{ path: 'document.base_version', message: `is newer than the document (version ${current.version})` }],
      'The base version does not exist yet',
    );
  }
  const conflict = () =>
    new AppError('conflict', 'The document changed since this copy was loaded and the edits overlap: merge them and save again', {
      details: { document: current } satisfies DocumentConflictDetails,
    });
  const rebuilt = await rebuildDocument(tx, threadId, current, base);
  if (!rebuilt) throw conflict();
  let title = current.title;
  if (edit.title !== undefined && edit.title !== rebuilt.title) {
    if (current.title !== rebuilt.title && current.title !== edit.title) throw conflict();
    title = edit.title;
  }
  let content = current.content;
  if (edit.content !== undefined) {
    const merged = mergeDocumentText(rebuilt.content, edit.content, current.content);
    if (!merged.isClean) throw conflict();
    content = merged.text;
  }
  return { title, content };
}

/**
 * The document as it was at `version` on this path: walks back from the live text over the
 * document changes made since (newest first), undoing each patch with the text it deleted. Its
 * cost follows the number of changes since that version, not the length of the log. Null when the
 * log cannot rebuild it (a version from before the log).
 */
async function rebuildDocument(tx: Tx, threadId: string, current: LiveDocument, version: number): Promise<LiveDocument | null> {
  const rows = await tx.execute<{ kind: string; before: Record<string, unknown>; after: Record<string, unknown> }>(sql`
    ${lineageWalk(threadId)}
    select w.kind, w.before, w.after
    from up
    left join up child on child.depth = up.depth - 1
    join workspace_changes w on w.thread_id = up.thread_id and (up.depth = 0 or w.seq <= child.parent_change_seq)
    where w.kind in ('document', 'document_title') and (w.after->>'version')::int > ${version}
    order by up.depth asc, w.seq desc`);
  let { title, content } = current;
  let reached = current.version;
  try {
    for (const row of rows) {
      if (row.kind === 'document') {
        const before = row.before as unknown as DocumentBodyBefore;
        const after = row.after as unknown as DocumentBodyAfter;
        content = revertDocPatch(content, after.patch, before.deleted ?? []);
      } else {
        title = typeof row.before.title === 'string' ? row.before.title : '';
      }
      reached = Number(row.before.version);
    }
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
  return reached === version ? { title, content, version } : null;
}
