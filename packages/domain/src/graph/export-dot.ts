/**
 * Graphviz DOT. Every id and label is a double-quoted string, where `\` and `"` are escaped with a
 * backslash and a newline becomes the `\n` line break; labels also escape `&` as `&amp;` because
 * Graphviz decodes HTML entities in labels. One cluster per thread, titled with the thread's title.
 */
import { isProvenanceEdge, type FamilyGraph } from './contracts';
import { cleanText } from './export-text';

export function quoteDotId(text: string): string {
  return `"${cleanText(text).replace(/[\\"]/g, '\\$&').replace(/\n/g, '\\n')}"`;
}

export function quoteDotLabel(text: string): string {
  return quoteDotId(cleanText(text).replace(/&/g, '&amp;'));
}

export function graphToDot(graph: FamilyGraph): string {
  const lines = [`digraph ${quoteDotId('family')} {`, '  rankdir=LR;', '  node [shape=box];'];
  graph.threads.forEach((thread, index) => {
    const nodes = graph.nodes.filter((node) => node.thread_id === thread.thread_id);
    if (nodes.length === 0) return;
    lines.push(`  subgraph ${quoteDotId(`cluster_${index}`)} {`, `    label=${quoteDotLabel(thread.title)};`);
    for (const node of nodes) {
      const text = node.user_message === null ? node.label : `${node.label}\n${node.user_message}`;
      const emphasis = node.is_on_active_path ? ', penwidth=2' : '';
      lines.push(`    ${quoteDotId(node.id)} [label=${quoteDotLabel(text)}${emphasis}];`);
    }
    lines.push('  }');
  });
  for (const edge of graph.edges) {
    const attributes = [
      ...(edge.kind === 'branch' ? ['style=dashed'] : isProvenanceEdge(edge.kind) ? ['style=dotted', 'constraint=false'] : []),
      ...(edge.reason === null ? [] : [`label=${quoteDotLabel(edge.reason)}`]),
    ];
    const suffix = attributes.length === 0 ? '' : ` [${attributes.join(', ')}]`;
    lines.push(`  ${quoteDotId(edge.source)} -> ${quoteDotId(edge.target)}${suffix};`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
