import { z } from 'zod';
import { attachmentDisposition, exportFamilyGraph, IncludeArchivedSchema, safeFilename } from '@trellis/domain';
import { getFamilyGraph } from '@trellis/services';
import { authed, parseParam } from '@/server/http';

export const dynamic = 'force-dynamic';

const FormatSchema = z.enum(['json', 'graphml', 'mermaid', 'dot']).default('json');
const GRAPH_FILE_EXTENSIONS = { graphml: 'graphml', mermaid: 'mmd', dot: 'dot' } as const;

/** The family graph as JSON (React Flow-ready) or GraphML / Mermaid / DOT for analysis tools. */
export const GET = authed<{ id: string }>(async ({ request, params, ctx, actor }) => {
  const query = new URL(request.url).searchParams;
  const format = parseParam(FormatSchema, query.get('format') ?? undefined);
  const includeArchived = parseParam(IncludeArchivedSchema, query.get('include_archived') ?? undefined);
  const graph = await getFamilyGraph(ctx.deps, actor, { threadId: params.id, includeArchived });
  if (format === 'json') return graph;
  const { contentType, body } = exportFamilyGraph(graph, format);
  const title = graph.threads.find((thread) => thread.thread_id === graph.thread_id)?.title ?? '';
  const filename = safeFilename(`${title} graph`, GRAPH_FILE_EXTENSIONS[format]);
  return new Response(body, {
    headers: { 'content-type': contentType, 'content-disposition': attachmentDisposition(filename) },
  });
});
