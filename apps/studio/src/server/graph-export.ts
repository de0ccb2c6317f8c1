import { graphToDot, graphToGraphML, graphToMermaid, type FamilyGraph, type GraphExportFormat } from '@trellis/domain';

const EXPORTS: Record<GraphExportFormat, { render: (g: FamilyGraph) => string; contentType: string; extension: string }> = {
  graphml: { render: graphToGraphML, contentType: 'application/graphml+xml; charset=utf-8', extension: 'graphml' },
  mermaid: { render: graphToMermaid, contentType: 'text/vnd.mermaid; charset=utf-8', extension: 'mmd' },
  dot: { render: graphToDot, contentType: 'text/vnd.graphviz; charset=utf-8', extension: 'dot' },
};

export function exportFamilyGraph(graph: FamilyGraph, format: GraphExportFormat): Response {
  const { render, contentType, extension } = EXPORTS[format];
  return new Response(render(graph), {
    headers: {
      'content-type': contentType,
      'content-disposition': `inline; filename="trellis-${graph.thread_id}.${extension}"`,
    },
  });
}
