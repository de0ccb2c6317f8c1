import { z } from 'zod';
import { PathIdSchema, attachmentDisposition } from '@trellis/domain';
import { exportFamilyZip, exportPathMarkdown } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** The displayed path as Markdown, or (`scope=family`) a zip of every path plus the graph as Mermaid. */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/export',
    tag: 'branches',
    summary: 'The displayed path as Markdown (an attachment named after its title); scope=family: a zip of every path plus the graph as Mermaid',
    params: { id: PathIdSchema },
    query: z.object({ format: z.literal('markdown'), scope: z.enum(['path', 'family']).default('path') }),
    contentType: 'text/markdown',
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ params, query, ctx, actor }) => {
    const file =
      query.scope === 'family'
        ? await exportFamilyZip(ctx.deps, actor, { threadId: params.id })
        : await exportPathMarkdown(ctx.deps, actor, { threadId: params.id });
    const body = typeof file.body === 'string' ? file.body : new Blob([new Uint8Array(file.body)]);
    return new Response(body, {
      headers: { 'content-type': file.contentType, 'content-disposition': attachmentDisposition(file.filename) },
    });
  },
);
