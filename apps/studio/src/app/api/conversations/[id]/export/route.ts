import { z } from 'zod';
import { PathIdSchema, attachmentDisposition } from '@trellis/domain';
import { exportAuthorshipReport, exportFamilyZip, exportPathMarkdown } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/**
 * The displayed path as Markdown, or (`scope=family`) a zip of every path plus the graph as Mermaid;
 * `format=authorship`: the authorship report of the path's final document (Markdown).
 */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/export',
    tag: 'branches',
    summary:
      'The displayed path as Markdown (an attachment named after its title); scope=family: a zip of every path plus the graph as Mermaid; ' +
      'format=authorship: who wrote the final document (words by person, agent, agent-edited, per section; the agent’s steps and prompts; applied text)',
    params: { id: PathIdSchema },
    query: z.object({ format: z.enum(['markdown', 'authorship']), scope: z.enum(['path', 'family']).default('path') }),
    contentType: 'text/markdown',
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ params, query, ctx, actor }) => {
    const file =
      query.format === 'authorship'
        ? await exportAuthorshipReport(ctx.deps, actor, { threadId: params.id })
        : query.scope === 'family'
        ? await exportFamilyZip(ctx.deps, actor, { threadId: params.id })
        : await exportPathMarkdown(ctx.deps, actor, { threadId: params.id });
    const body = typeof file.body === 'string' ? file.body : new Blob([new Uint8Array(file.body)]);
    return new Response(body, {
      headers: { 'content-type': file.contentType, 'content-disposition': attachmentDisposition(file.filename) },
    });
  },
);
