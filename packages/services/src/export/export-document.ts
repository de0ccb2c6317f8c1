// The document itself, taken out: as Markdown or as a Word file, as it stands on a path
// or as it stood after step k (the restore rule), and nothing else.
import { AppError, documentToMarkdown, safeFilename, displayedDocumentTitle } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { readRestoreState } from '../branching/restore-state';
import { loadLineage } from '../lineage/load-lineage';
import { readLiveWorkspace } from '../workspace/read-live-workspace';
import { markdownToDocx } from './markdown-to-docx';
import type { ExportedFile } from './export-markdown';

export type DocumentExportFormat = 'markdown' | 'docx';

export async function exportDocument(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; format: DocumentExportFormat; turn?: number | undefined },
): Promise<ExportedFile> {
  const { conversation } = await requireThreadAccess(deps.db, actor, input.threadId, 'read');
  let document: { title: string; content: string };
  if (input.turn === undefined) {
    document = (await readLiveWorkspace(deps.db, input.threadId, { artifactContent: false })).document;
  } else {
    if (input.turn > conversation.turnIndex) throw AppError.notFound(`Step ${input.turn}`);
    document = (await readRestoreState(deps.db, await loadLineage(deps.db, input.threadId), input.turn)).state.document;
  }
  const markdown = documentToMarkdown({ pathTitle: conversation.title, document });
  const title = displayedDocumentTitle(document.title, document.content) ?? conversation.title;
  if (input.format === 'markdown') {
    return { filename: safeFilename(title, 'md'), contentType: 'text/markdown; charset=utf-8', body: markdown };
  }
  return {
    filename: safeFilename(title, 'docx'),
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    body: await markdownToDocx(markdown, { title }),
  };
}
