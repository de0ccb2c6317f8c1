import { graphEdgeId, type FamilyGraph, type GraphEdge } from '../contracts';

/**
 * The graph with one more edge into `target`, as edge kinds that add a second incoming edge to a
 * node (apply provenance) will; the layout must keep every node where it was.
 */
export function withExtraEdge<G extends Pick<FamilyGraph, 'edges'>>(
  graph: G,
  source: string,
  target: string,
): { graph: G; edge: GraphEdge } {
  const edge: GraphEdge = { id: graphEdgeId(source, target), source, target, kind: 'branch', reason: null };
  return { graph: { ...graph, edges: [edge, ...graph.edges] }, edge };
}
