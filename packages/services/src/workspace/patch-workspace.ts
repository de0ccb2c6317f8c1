import type { LiveWorkspace, PatchWorkspace } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { overlapping, prepareDocumentSave, readLiveDocumentText, type PreparedDocument } from './stale-save/prepare-document-save';
import { DocumentMovedOn } from './write/document-mutations';
import { editorAuthor, writeWorkspace } from './write-workspace';
import type { WorkspaceEdit } from './write-workspace';

/** Merges onto a document that moved on again before the write: then the save is a 409. */
const MAX_MERGE_ATTEMPTS = 3;

/**
 * A person's edit between turns: it lands in the live rows, hence in the next snapshot. A document
 * saved on an older `base_version` is merged onto the current text (outside the transaction, off
 * the request thread), or refused with 409 when the edits overlap or are too many to merge (never
 * a silent overwrite); without a base version it replaces the current text.
 */
export async function patchWorkspace(
  deps: Pick<ServiceDeps, 'db' | 'mergeJobs'>,
  actor: ThreadActor,
  input: { threadId: string; patch: PatchWorkspace },
): Promise<LiveWorkspace> {
  const { objective, document } = input.patch;
  let prepared: PreparedDocument | undefined;
  for (let attempt = 1; ; attempt++) {
    const edits: WorkspaceEdit[] = [];
    if (objective !== undefined) edits.push({ kind: 'objective', text: objective });
    if (document) {
      edits.push({ kind: 'document', title: document.title, content: document.content, baseVersion: document.base_version, prepared });
    }
    try {
      const { workspace } = await writeWorkspace(
        { db: deps.db, actor },
        { threadId: input.threadId, author: editorAuthor(actor), edits, readBack: true },
      );
      return workspace!;
    } catch (error) {
      if (!(error instanceof DocumentMovedOn) || !document || document.base_version === undefined) throw error;
      if (attempt >= MAX_MERGE_ATTEMPTS) {
        throw overlapping(await readLiveDocumentText(deps.db, input.threadId));
      }
      const base = { title: document.title, content: document.content, baseVersion: document.base_version };
      prepared = (await prepareDocumentSave(deps.db, actor, input.threadId, base, deps.mergeJobs)) ?? undefined;
    }
  }
}
