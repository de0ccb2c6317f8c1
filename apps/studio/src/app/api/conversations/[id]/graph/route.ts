import { z } from 'zod';
import { FamilyGraphSchema, IncludeArchivedSchema, PathIdSchema, exportFamilyGraph, safeFilename } from '@trellis/domain';
import { getFamilyGraph } from '@trellis/services';
import { attachmentResponse } from '@/server/attachment';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

const GRAPH_FILE_EXTENSIONS = { graphml: 'graphml', mermaid: 'mmd', dot: 'dot' } as const;

/** The family graph as JSON (React Flow-ready) or GraphML / Mermaid / DOT for analysis tools. */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/graph',
    access: 'read',
    tag: 'branches',
    summary: 'The family graph (format=json|graphml|mermaid|dot)',
    params: { id: PathIdSchema },
    query: z.object({ format: z.enum(['json', 'graphml', 'mermaid', 'dot']).default('json'), include_archived: IncludeArchivedSchema }),
    response: FamilyGraphSchema,
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ params, query, ctx, actor }) => {
    const graph = await getFamilyGraph(ctx.deps, actor, { threadId: params.id, includeArchived: query.include_archived });
    if (query.format === 'json') return graph;
    const { contentType, body } = exportFamilyGraph(graph, query.format);
    const title = graph.threads.find((thread) => thread.thread_id === graph.thread_id)?.title ?? '';
    const filename = safeFilename(`${title} graph`, GRAPH_FILE_EXTENSIONS[query.format]);
    return attachmentResponse({ filename, contentType, body });
  },
);
