import { z } from 'zod';
import { AppError, PathIdSchema, attachmentDisposition } from '@trellis/domain';
import { exportAuthorshipReport, exportDataset, exportDocument, exportFamilyZip, exportPathMarkdown } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

const ExportQuerySchema = z.object({
  format: z
    .enum(['markdown', 'docx', 'authorship', 'dataset'])
    .describe(
      '`markdown`; `docx` (a Word file of the document: `part=document` only); `authorship` (who wrote the final document, Markdown); `dataset` (the family as a Frictionless Data Package: a zip of CSV tables, streamed)',
    ),
  part: z
    .enum(['path', 'document'])
    .optional()
    .describe('`document`: the document alone; `path` (the default for Markdown): the document first, then how it was made, step by step'),
  scope: z.enum(['path', 'family']).default('path').describe('`family`: a zip of every path (Markdown, `part=path`) plus the graph as Mermaid'),
  turn: z.coerce.number().int().nonnegative().optional().describe('With `part=document`: the document as it stood after step k (the restore rule)'),
  pseudonymize: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .describe('With `format=dataset`: user ids and emails replaced by salted hashes (message text is kept verbatim)'),
});

/** The document, the displayed path with its steps, every path as a zip, or the authorship report. */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/export',
    tag: 'branches',
    summary: 'The document alone (Markdown or Word), the path with its steps (Markdown), every path as a zip, or the authorship report',
    description:
      'Attachments named after the full plain title. `part=document` answers the document as it stands on this path (`&turn=k`: as it stood after step k), as Markdown or (`format=docx`) a Word file; `part=path` (the default) the document first, then "How this document was made"; `scope=family` a zip with one Markdown file per path and the graph as Mermaid; `format=authorship` who wrote the final document (words by person, agent, agent-edited, per section; the agent’s steps and prompts; applied text).',
    params: { id: PathIdSchema },
    query: ExportQuerySchema,
    contentType: 'text/markdown',
    alsoContent: {
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'format=docx: the document as a Word file',
      'application/zip': 'scope=family: every path as Markdown and the graph as Mermaid; format=dataset: datapackage.json and one CSV per table',
    },
    errors: [...OWNED, 'validation_failed', 'conflict'],
  },
  async ({ params, query, ctx, actor }) => {
    if (query.format === 'dataset') {
      const dataset = await exportDataset(ctx.deps, actor, { threadId: params.id, pseudonymize: query.pseudonymize });
      return new Response(dataset.stream, {
        headers: { 'content-type': dataset.contentType, 'content-disposition': attachmentDisposition(dataset.filename) },
      });
    }
    const file = await exportFile(ctx.deps, actor, params.id, { ...query, format: query.format });
    const body = typeof file.body === 'string' ? file.body : new Blob([new Uint8Array(file.body)]);
    return new Response(body, {
      headers: { 'content-type': file.contentType, 'content-disposition': attachmentDisposition(file.filename) },
    });
  },
);

type ExportDeps = Parameters<typeof exportDocument>[0];
type ExportActor = Parameters<typeof exportDocument>[1];

function exportFile(
  deps: ExportDeps,
  actor: ExportActor,
  threadId: string,
  query: z.output<typeof ExportQuerySchema> & { format: 'markdown' | 'docx' | 'authorship' },
) {
  if (query.format === 'authorship') return exportAuthorshipReport(deps, actor, { threadId });
  const part = query.part ?? (query.format === 'docx' ? 'document' : 'path');
  if (part === 'path' && query.format === 'docx') throw AppError.validation([{ path: 'part', message: 'A Word file holds the document alone: use part=document' }]);
  if (query.turn !== undefined && part !== 'document') throw AppError.validation([{ path: 'turn', message: 'turn selects a document version: use part=document' }]);
  if (query.scope === 'family' && part === 'document') throw AppError.validation([{ path: 'scope', message: 'A family export holds paths: use scope=path with part=document' }]);
  if (query.scope === 'family') return exportFamilyZip(deps, actor, { threadId });
  if (part === 'document') return exportDocument(deps, actor, { threadId, format: query.format, turn: query.turn });
  return exportPathMarkdown(deps, actor, { threadId });
}
