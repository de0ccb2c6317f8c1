// `GET /api/conversations/{id}/export`: which export a (validated) query names, in one place.
import { exportPart, type ConversationExportQuery } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { exportAuthorshipReport } from '../authorship/export-authorship-report';
import { exportDataset, type DatasetExport } from './export-dataset';
import { exportDocument } from './export-document';
import { exportFamilyZip, exportPathMarkdown, type ExportedFile, type StreamedFile } from './export-markdown';

/** The contract has refused the combinations that name nothing; each remaining query names one export. */
export function exportConversation(
  deps: Pick<ServiceDeps, 'db' | 'docxJobs'>,
  actor: ThreadActor,
  input: { threadId: string; query: ConversationExportQuery },
): Promise<ExportedFile | StreamedFile | DatasetExport> {
  const { threadId, query } = input;
  if (query.format === 'dataset') return exportDataset(deps, actor, { threadId, pseudonymize: query.pseudonymize });
  if (query.format === 'authorship') return exportAuthorshipReport(deps, actor, { threadId });
  if (query.scope === 'family') return exportFamilyZip(deps, actor, { threadId });
  if (exportPart(query) === 'document') return exportDocument(deps, actor, { threadId, format: query.format, turn: query.turn });
  return exportPathMarkdown(deps, actor, { threadId });
}
