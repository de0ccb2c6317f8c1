// Objective and document edits of the write path. The document body's change is a patch
// (`DocumentBodyAfter`) plus the texts it deleted (`DocumentBodyBefore`), never two copies of the
// body; every change of the row (body or title) bumps its version by one.
import { sql } from 'drizzle-orm';
import {
  AppError,
  deletedTexts,
  makeDocPatch,
  type DocPatch,
  type DocumentBodyAfter,
  type DocumentBodyBefore,
} from '@trellis/domain';
import { replaceMarkdownSection } from '@trellis/agent';
import type { PreparedDocument } from '../stale-save/prepare-document-save';
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
  | {
      kind: 'document';
      title?: string | undefined;
      content?: string | undefined;
      baseVersion?: number | undefined;
      /** The edit already merged onto the live text (see stale-save/prepare-document-save.ts). */
      prepared?: PreparedDocument | undefined;
    }
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
    const next = textToSave(current, edit);
    title = next.title;
    content = next.content;
    const body = edit.prepared?.body;
    if (body) return saveDocument(ctx, current, { title, content }, { ...options, body });
  }
  return saveDocument(ctx, current, { title, content }, options);
}

async function saveDocument(
  ctx: WriteContext,
  current: LiveDocument,
  next: { title: string; content: string },
  options: { change?: DocumentChangeMaker | undefined; body?: { patch: DocPatch; deleted: string[] } },
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
    // A merge prepared outside the lock brings the patch it made against this very text; an apply
    // brings its own patch and the authors of what it inserts.
    const made = options.body ? undefined : options.change?.(current.content, next.content);
    const patch: DocPatch = options.body?.patch ?? made?.patch ?? makeDocPatch(current.content, next.content);
    const deleted = options.body?.deleted ?? deletedTexts(current.content, patch);
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
 * itself; a merge prepared outside the lock (stale-save/) when it was merged onto the current
 * version. A stale base that was not merged onto the current version is `DocumentMovedOn`: the
 * caller merges again, outside the lock — a merge never runs under it.
 */
function textToSave(current: LiveDocument, edit: Extract<DocumentEdit, { kind: 'document' }>): { title: string; content: string } {
  if (edit.prepared) {
    if (edit.prepared.onVersion !== current.version) throw new DocumentMovedOn(current.version);
    return { title: edit.prepared.title, content: edit.prepared.content };
  }
  const base = edit.baseVersion;
  if (base === undefined || base === current.version) {
    return { title: edit.title ?? current.title, content: edit.content ?? current.content };
  }
  if (base > current.version) {
    throw AppError.validation(
      [{ path: 'document.base_version', message: `is newer than the document (version ${current.version})` }],
      'The base version does not exist yet',
    );
  }
  throw new DocumentMovedOn(current.version);
}

/** A whole-text save whose base is older than the live document, met under the lock. */
export class DocumentMovedOn extends Error {
  constructor(readonly version: number) {
    super(`the document is at version ${version}: merge outside the lock and write again`);
  }
}
