/**
 * Exports of the family graph for REST clients (`?format=graphml|mermaid|dot`), labels included.
 * The content types are one exhaustive table, so a new format does not compile without one.
 */
import type { FamilyGraph, GraphExportFormat } from './contracts';
import { graphToDot } from './export-dot';
import { graphToGraphML } from './export-graphml';
import { graphToMermaid } from './export-mermaid';

export { graphToDot, quoteDotId, quoteDotLabel } from './export-dot';
export { escapeXml, graphToGraphML } from './export-graphml';
export { escapeMermaidText, graphToMermaid } from './export-mermaid';

export const GRAPH_EXPORT_CONTENT_TYPES: Record<GraphExportFormat, string> = {
  // No registered type exists for GraphML; this is the one its tools use.
  graphml: 'application/graphml+xml; charset=utf-8',
  // The type Mermaid recommends for its sources.
  mermaid: 'text/vnd.mermaid; charset=utf-8',
  // IANA-registered.
  dot: 'text/vnd.graphviz; charset=utf-8',
};

const RENDERERS: Record<GraphExportFormat, (graph: FamilyGraph) => string> = {
  graphml: graphToGraphML,
  mermaid: graphToMermaid,
  dot: graphToDot,
};

export function exportFamilyGraph(
  graph: FamilyGraph,
  format: GraphExportFormat,
): { contentType: string; body: string } {
  return { contentType: GRAPH_EXPORT_CONTENT_TYPES[format], body: RENDERERS[format](graph) };
}
