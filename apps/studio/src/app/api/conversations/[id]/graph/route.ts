import { z } from 'zod';
import { getFamilyGraph } from '@trellis/services';
import { exportFamilyGraph } from '@/server/graph-export';
import { authed, parseParam } from '@/server/http';

export const dynamic = 'force-dynamic';

const FormatSchema = z.enum(['json', 'graphml', 'mermaid', 'dot']).default('json');

/** The family graph as JSON (React Flow-ready) or GraphML / Mermaid / DOT for analysis tools. */
export const GET = authed<{ id: string }>(async ({ request, params, ctx, actor }) => {
  const format = parseParam(FormatSchema, new URL(request.url).searchParams.get('format') ?? undefined);
  const graph = await getFamilyGraph(ctx.deps, actor, { threadId: params.id });
  return format === 'json' ? graph : exportFamilyGraph(graph, format);
});
