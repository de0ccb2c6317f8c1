// The document itself, taken out: as Markdown or as a Word file, as it stands on a path
// or as it stood after step k (the restore rule), and nothing else. The Word file is built off the
// request thread and streams (run-docx-job.ts).
import { AppError, documentToMarkdown, safeFilename, displayedDocumentTitle } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { readRestoreState } from '../branching/restore-state';
import { loadLineage } from '../lineage/load-lineage';
import { readLiveWorkspace } from '../workspace/read-live-workspace';
import type { WorkerJobOptions } from '../jobs/job-worker';
import { docxInWorker } from './run-docx-job';
import type { ExportedFile, StreamedFile } from './export-markdown';

export type DocumentExportFormat = 'markdown' | 'docx';

type DocumentExportDeps = Pick<ServiceDeps, 'db'> & { docxJobs?: WorkerJobOptions };
type DocumentExportInput<F extends DocumentExportFormat> = { threadId: string; format: F; turn?: number | undefined };

export async function exportDocument(deps: DocumentExportDeps, actor: ThreadActor, input: DocumentExportInput<'markdown'>): Promise<ExportedFile>;
export async function exportDocument(deps: DocumentExportDeps, actor: ThreadActor, input: DocumentExportInput<DocumentExportFormat>): Promise<ExportedFile | StreamedFile>;
export async function exportDocument(
  deps: DocumentExportDeps,
  actor: ThreadActor,
  input: DocumentExportInput<DocumentExportFormat>,
): Promise<ExportedFile | StreamedFile> {
  const { conversation } = await requireThreadAccess(deps.db, actor, input.threadId, 'read');
  let document: { title: string; content: string };
  if (input.turn === undefined) {
    document = (await readLiveWorkspace(deps.db, input.threadId, { artifactContent: false })).document;
  } else {
    if (input.turn > conversation.turnIndex) throw AppError.notFound(`Step ${input.turn}`);
    document = (await readRestoreState(deps.db, await loadLineage(deps.db, input.threadId), input.turn)).state.document;
  }
  const title = displayedDocumentTitle(document.title, document.content) ?? conversation.title;
  if (input.format === 'markdown') {
    const markdown = documentToMarkdown({ pathTitle: conversation.title, document });
    return { filename: safeFilename(title, 'md'), contentType: 'text/markdown; charset=utf-8', body: markdown };
  }
  return {
    filename: safeFilename(title, 'docx'),
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    stream: await docxInWorker({ pathTitle: conversation.title, document: { title: document.title, content: document.content }, title }, deps.docxJobs),
  };
}
