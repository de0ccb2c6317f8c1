import type { LiveWorkspace, PatchWorkspace } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { editorAuthor, writeWorkspace } from './write-workspace';
import type { WorkspaceEdit } from './write-workspace';

/**
 * A person's edit between turns: it lands in the live rows, hence in the next snapshot. A document
 * saved on an older `base_version` is merged onto the current text, or refused with 409 when the
 * edits overlap (never a silent overwrite); without a base version it replaces the current text.
 */
export async function patchWorkspace(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; patch: PatchWorkspace },
): Promise<LiveWorkspace> {
  const { objective, document } = input.patch;
  const edits: WorkspaceEdit[] = [];
  if (objective !== undefined) edits.push({ kind: 'objective', text: objective });
  if (document) edits.push({ kind: 'document', title: document.title, content: document.content, baseVersion: document.base_version });
  const { workspace } = await writeWorkspace({ db: deps.db, actor }, {
    threadId: input.threadId,
    author: editorAuthor(actor),
    edits,
    readBack: true,
  });
  return workspace!;
}
