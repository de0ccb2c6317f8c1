import { z } from 'zod';
import { PG_INT_MAX } from './common';

const PseudonymizeSchema = z
  .enum(['true', 'false'])
  .optional()
  .transform((value) => value === 'true')
  .describe('With `format=dataset`: user ids and emails replaced by salted hashes (message text is kept verbatim)');

/** `GET /api/export`: every family of the caller as the research dataset. */
export const DatasetExportQuerySchema = z.object({ format: z.literal('dataset'), pseudonymize: PseudonymizeSchema });

/**
 * `GET /api/conversations/{id}/export`. The combinations that name nothing (a Word file of a path,
 * a version of a path, a family of documents) are 422s naming the field, like any other bad query.
 */
export const ConversationExportQuerySchema = z
  .object({
    format: z
      .enum(['markdown', 'docx', 'authorship', 'dataset'])
      .default('markdown')
      .describe(
        '`markdown` (the default); `docx` (a Word file of the document: `part=document` only); `authorship` (who wrote the final document, Markdown); `dataset` (the family as a Frictionless Data Package: a zip of CSV tables, streamed)',
      ),
    part: z
      .enum(['path', 'document'])
      .optional()
      .describe('`document`: the document alone; `path` (the default for Markdown): the document first, then how it was made, step by step'),
    scope: z.enum(['path', 'family']).default('path').describe('`family`: a zip of every path (Markdown, `part=path`) plus the graph as Mermaid'),
    turn: z.coerce.number().int().nonnegative().max(PG_INT_MAX, 'must be at most 2147483647').optional().describe('With `part=document`: the document as it stood after step k (the restore rule)'),
    pseudonymize: PseudonymizeSchema,
  })
  .superRefine((query, ctx) => {
    if (query.format === 'authorship' || query.format === 'dataset') return;
    const part = exportPart(query);
    if (part === 'path' && query.format === 'docx') ctx.addIssue({ code: 'custom', path: ['part'], message: 'A Word file holds the document alone: use part=document' });
    if (query.turn !== undefined && part !== 'document') ctx.addIssue({ code: 'custom', path: ['turn'], message: 'turn selects a document version: use part=document' });
    if (query.scope === 'family' && part === 'document') ctx.addIssue({ code: 'custom', path: ['scope'], message: 'A family export holds paths: use scope=path with part=document' });
  });
export type ConversationExportQuery = z.output<typeof ConversationExportQuerySchema>;

/** The part a Markdown or Word export holds when the query names none: a Word file is the document alone. */
export function exportPart(query: Pick<ConversationExportQuery, 'format' | 'part'>): 'path' | 'document' {
  return query.part ?? (query.format === 'docx' ? 'document' : 'path');
}
