import { z } from 'zod';
import { attachmentDisposition } from '@trellis/domain';
import { exportFamilyZip, exportPathMarkdown } from '@trellis/services';
import { authed, parseParam } from '@/server/http';

export const dynamic = 'force-dynamic';

const ExportQuerySchema = z.object({
  format: z.literal('markdown'),
  scope: z.enum(['path', 'family']).default('path'),
});

/** The displayed path as Markdown, or (`scope=family`) a zip of every path plus the graph as Mermaid. */
export const GET = authed<{ id: string }>(async ({ request, params, ctx, actor }) => {
  const query = new URL(request.url).searchParams;
  const { scope } = parseParam(ExportQuerySchema, { format: query.get('format') ?? undefined, scope: query.get('scope') ?? undefined });
  const file =
    scope === 'family'
      ? await exportFamilyZip(ctx.deps, actor, { threadId: params.id })
      : await exportPathMarkdown(ctx.deps, actor, { threadId: params.id });
  const body = typeof file.body === 'string' ? file.body : new Blob([new Uint8Array(file.body)]);
  return new Response(body, {
    headers: { 'content-type': file.contentType, 'content-disposition': attachmentDisposition(file.filename) },
  });
});
