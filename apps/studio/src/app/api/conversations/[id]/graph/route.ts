import { z } from 'zod';
import { exportFamilyGraph } from '@trellis/domain';
import { getFamilyGraph } from '@trellis/services';
import { authed, parseParam } from '@/server/http';

export const dynamic = 'force-dynamic';

const FormatSchema = z.enum(['json', 'graphml', 'mermaid', 'dot']).default('json');

/** The family graph as JSON (React Flow-ready) or GraphML / Mermaid / DOT for analysis tools. */
export const GET = authed<{ id: string }>(async ({ request, params, ctx, actor }) => {
  const format = parseParam(FormatSchema, new URL(request.url).searchParams.get('format') ?? undefined);
  const graph = await getFamilyGraph(ctx.deps, actor, { threadId: params.id });
  if (format === 'json') return graph;
  const { contentType, body } = exportFamilyGraph(graph, format);
  return new Response(body, { headers: { 'content-type': `${contentType}; charset=utf-8` } });
});
