// Objective and document edits of the write path. The document body's change is a patch
// (`DocumentBodyAfter`) plus the texts it deleted (`DocumentBodyBefore`), never two copies of the
// body; every change of the row (body or title) bumps its version by one.
import { sql } from 'drizzle-orm';
import { rebaseUpdates } from '@codemirror/collab';
import { ChangeSet } from '@codemirror/state';
import {
  AppError,
  applyDocPatch,
  changeSetJsonToDocPatch,
  deletedTexts,
  docPatchToChangeSetJson,
  makeDocPatch,
  type ChangeSetJson,
  type DocPatch,
  type DocumentConflictDetails,
  type DocumentUpdate,
  type DocumentBodyAfter,
  type DocumentBodyBefore,
} from '@trellis/domain';
import { replaceMarkdownSection } from '@trellis/agent';
import { expandBatch, readDocumentUpdates } from '../../collab/read-document-updates';
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
  | { kind: 'document_section'; heading: string; content: string }
  /** A live editor's unconfirmed updates, made on `baseVersion`: see `applyDocumentUpdates`. */
  | { kind: 'document_updates'; baseVersion: number; clientId: string; patches: readonly DocPatch[] };

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
): Promise<LiveDocument & { updates?: DocumentUpdate[] }> {
  const current = await readDocumentForUpdate(ctx.tx, ctx.threadId);
  if (edit.kind === 'document_updates') return applyDocumentUpdates(ctx, current, edit);
  if (edit.kind !== 'document') return saveDocument(ctx, current, documentTextAfter(current, edit), options);
  const next = textToSave(current, edit);
  const body = edit.prepared?.body;
  return saveDocument(ctx, current, next, body ? { ...options, body } : options);
}

/** The document an append or a section's replacement makes of `current` (a heading it lacks is added at the end). */
export function documentTextAfter(
  current: { title: string; content: string },
  edit: Extract<DocumentEdit, { kind: 'document_append' | 'document_section' }>,
): { title: string; content: string } {
  if (edit.kind === 'document_section') return { title: current.title, content: replaceMarkdownSection(current.content, edit.heading, edit.content) };
  const body = current.content.replace(/\n+$/, '');
  return { title: current.title, content: body === '' ? edit.text : `${body}\n\n${edit.text}` };
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
    ctx.documentUpdates.push({ version, client_id: null, length: current.content.length, patch: [], title: next.title });
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
    ctx.documentUpdates.push({ version, client_id: null, length: current.content.length, patch });
  }
  if (version === current.version) return current;
  // Upsert: a thread created without a document row (an older branch) still gets one.
  await ctx.tx.execute(sql`
    insert into documents (thread_id, title, content, version) values (${ctx.threadId}, ${next.title}, ${next.content}, ${version})
    on conflict (thread_id) do update set title = excluded.title, content = excluded.content, version = excluded.version, updated_at = now()`);
  return { title: next.title, content: next.content, version };
}

/**
 * A live editor's updates (CodeMirror's collaboration model, docs/architecture.md "Two people in
 * one document"): the server is the one authority that orders the document's versions. Updates made
 * on the current version apply as they are; on an older one they are rebased over the updates
 * accepted since — anyone's, the agent's appends and applies included — the way the editor rebases
 * its own unconfirmed typing (`rebaseUpdates`), and the ones already accepted from this editor (a
 * retried request) are dropped. Each update is one version, so the editor recognises its own when
 * they come back, in order; the batch is one change row carrying the editor's id and spanning those
 * versions (its first update holds the whole patch, the others are empty).
 */
async function applyDocumentUpdates(
  ctx: WriteContext,
  current: LiveDocument,
  edit: Extract<DocumentEdit, { kind: 'document_updates' }>,
): Promise<LiveDocument & { updates: DocumentUpdate[] }> {
  if (edit.baseVersion > current.version) {
    throw AppError.validation(
      [{ path: 'version', message: `is newer than the document (version ${current.version})` }],
      'The base version does not exist yet',
    );
  }
  let patches = edit.patches;
  let since: DocumentUpdate[] = [];
  if (edit.baseVersion < current.version) {
    const read = await readDocumentUpdates(ctx.tx, ctx.threadId, current, edit.baseVersion);
    if (!read) {
      throw new AppError(
        'conflict',
        'The document’s history since this editor’s version is not in the change log: reload it',
        {
          details: { document: current } satisfies DocumentConflictDetails,
        },
      );
    }
    since = read;
    try {
      patches = rebasePatches(edit.clientId, patches, since);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw AppError.validation(
        [{ path: 'updates', message: 'do not fit the document at their version' }],
        'The updates do not fit the document',
      );
    }
  }
  if (patches.length === 0) return { ...current, updates: since };
  // The batch is one change row: the composition of its updates, spanning their versions (a burst of
  // typing is one change of the log, as one save was, not one per keystroke).
  const composed = composePatches(patches, current.content.length);
  if (!composed) {
    throw AppError.validation(
      [{ path: 'updates', message: 'do not fit the document at this version' }],
      'The updates do not fit the document',
    );
  }
  const { patch } = composed;
  const content = applyDocPatch(current.content, patch);
  const deleted = deletedTexts(current.content, patch);
  const version = current.version + patches.length;
  ctx.drafts.push({
    kind: 'document',
    key: null,
    op: 'patch',
    before: deleted.length > 0 ? { version: current.version, deleted } : { version: current.version },
    after: { version, patch, client_id: edit.clientId },
  });
  const accepted = expandBatch({
    fromVersion: current.version,
    toVersion: version,
    clientId: edit.clientId,
    length: current.content.length,
    patch,
    newLength: content.length,
  });
  ctx.documentUpdates.push(...accepted);
  since.push(...accepted);
  await ctx.tx.execute(sql`
    insert into documents (thread_id, title, content, version) values (${ctx.threadId}, ${current.title}, ${content}, ${version})
    on conflict (thread_id) do update set content = excluded.content, version = excluded.version, updated_at = now()`);
  return { title: current.title, content, version, updates: since };
}

/** Patches, each on the text the previous one made, as one patch of a text of `length`; null when they do not fit it. */
export function composePatches(patches: readonly DocPatch[], length: number): { patch: DocPatch; newLength: number } | null {
  try {
    let composed = ChangeSet.empty(length);
    let at = length;
    for (const patch of patches) {
      const changes = ChangeSet.fromJSON(docPatchToChangeSetJson(patch, at));
      composed = composed.compose(changes);
      at = changes.newLength;
    }
    return { patch: changeSetJsonToDocPatch(composed.toJSON() as ChangeSetJson), newLength: composed.newLength };
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/** The pushed patches (each on the text the previous one made, the first on the base version) moved over `since`. */
function rebasePatches(
  clientId: string,
  patches: readonly DocPatch[],
  since: readonly DocumentUpdate[],
): DocPatch[] {
  let length = since[0]?.length ?? 0;
  const pushed = patches.map((patch) => {
    const changes = ChangeSet.fromJSON(docPatchToChangeSetJson(patch, length));
    length = changes.newLength;
    return { changes, clientID: clientId };
  });
  const over = since.map((update) => ({
    changes: ChangeSet.fromJSON(docPatchToChangeSetJson(update.patch, update.length)),
    clientID: update.client_id ?? '',
  }));
  return rebaseUpdates(pushed, over).map((update) =>
    changeSetJsonToDocPatch(update.changes.toJSON() as ChangeSetJson),
  );
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
