/**
 * Mermaid flowchart. Node ids like `th_…:3` are not safe Mermaid identifiers (`:` and `-` are syntax),
 * so nodes are named `n0, n1, …` in graph order and threads `t0, t1, …`; the real ids live in the
 * labels' source graph. Text goes inside double quotes, where only `"` ends the string; everything
 * Mermaid or the HTML renderer could read as syntax — `" # & < > ; : | [ ] { } \` …` — is written as
 * a Mermaid entity code (`#34;`), and a newline becomes `<br/>`.
 */
import { isProvenanceEdge, type FamilyGraph } from './contracts';
import { cleanText } from './export-text';

/** Characters kept as they are; every other ASCII character becomes `#<code>;`. */
const PLAIN_ASCII = /[A-Za-z0-9 .,_()!?'+=/-]/;

export function escapeMermaidText(text: string): string {
  let out = '';
  for (const char of cleanText(text)) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\n') out += '<br/>';
    else if (code > 0x7f || PLAIN_ASCII.test(char)) out += char;
    else out += `#${code};`;
  }
  return out;
}

export function graphToMermaid(graph: FamilyGraph): string {
  const nodeName = new Map(graph.nodes.map((node, index) => [node.id, `n${index}`]));
  const lines = ['flowchart LR'];
  graph.threads.forEach((thread, index) => {
    const nodes = graph.nodes.filter((node) => node.thread_id === thread.thread_id);
    if (nodes.length === 0) return;
    lines.push(`  subgraph t${index}["${escapeMermaidText(thread.title)}"]`);
    for (const node of nodes) {
      const text = node.user_message === null ? node.label : `${node.label}\n${node.user_message}`;
      lines.push(`    ${nodeName.get(node.id)}["${escapeMermaidText(text)}"]`);
    }
    lines.push('  end');
  });
  for (const edge of graph.edges) {
    const source = nodeName.get(edge.source);
    const target = nodeName.get(edge.target);
    if (source === undefined || target === undefined) continue;
    // A branch is dotted; an apply (items brought from another step, not a parent link) is thick.
    // A citation (another path's step the reply read) is drawn like an apply.
    const arrow = edge.kind === 'branch' ? '-.->' : isProvenanceEdge(edge.kind) ? '==>' : '-->';
    const text = edge.reason === null ? '' : `|"${escapeMermaidText(edge.reason)}"|`;
    lines.push(`  ${source} ${arrow}${text} ${target}`);
  }
  const active = graph.nodes.filter((node) => node.is_on_active_path).map((node) => nodeName.get(node.id));
  if (active.length > 0) {
    lines.push('  classDef active stroke-width:3px');
    lines.push(`  class ${active.join(',')} active`);
  }
  return `${lines.join('\n')}\n`;
}
