import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleFamilyGraph, type FamilyThreadRow, type TurnMetaRow } from './assemble';
import { FamilyGraphSchema, type FamilyGraph } from './contracts';
import {
  exportFamilyGraph,
  graphToDot,
  graphToGraphML,
  graphToMermaid,
  GRAPH_EXPORT_CONTENT_TYPES,
} from './export';
import { cleanText } from './export-text';

// ---------------------------------------------------------------------------------------------------
// Strict little readers for the three formats: they reject anything malformed and decode the values,
// so a test can check both well-formedness and that every value survives the round trip.

type XmlElement = { name: string; attributes: Record<string, string>; children: XmlElement[]; text: string };

const ENTITY = /^&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(raw: string): string {
  for (let i = raw.indexOf('&'); i >= 0; i = raw.indexOf('&', i + 1)) {
    if (!ENTITY.test(raw.slice(i))) throw new Error(`bare & at ${i}`);
  }
  return raw.replace(/&(#x?)?([0-9a-zA-Z]+);/g, (_, hash: string | undefined, body: string) =>
    hash === undefined ? NAMED[body]! : String.fromCodePoint(parseInt(body, hash === '#x' ? 16 : 10)),
  );
}

function parseXml(source: string): XmlElement {
  let at = 0;
  const expect_ = (pattern: RegExp): RegExpExecArray => {
    pattern.lastIndex = at;
    const match = pattern.exec(source);
    if (match === null || match.index !== at)
      throw new Error(`malformed XML at ${at}: ${source.slice(at, at + 30)}`);
    at += match[0].length;
    return match;
  };
  const element = (): XmlElement => {
    const open = expect_(/<([A-Za-z_][\w.:-]*)/y);
    const node: XmlElement = { name: open[1]!, attributes: {}, children: [], text: '' };
    for (;;) {
      const attribute = /\s+([A-Za-z_][\w.:-]*)="([^"<]*)"/y;
      attribute.lastIndex = at;
      const match = attribute.exec(source);
      if (match === null) break;
      at += match[0].length;
      if (match[1]! in node.attributes) throw new Error(`duplicate attribute ${match[1]}`);
      // Attribute-value normalisation: a raw tab or newline is read back as a space.
      node.attributes[match[1]!] = decodeXml(match[2]!.replace(/[\t\n\r]/g, ' '));
    }
    if (expect_(/\s*(\/?)>/y)[1] === '/') return node;
    for (;;) {
      const text = expect_(/[^<]*/y)[0];
      node.text += decodeXml(text);
      if (source.startsWith('</', at)) {
        expect_(new RegExp(`</${node.name}\\s*>`, 'y'));
        return node;
      }
      node.children.push(element());
    }
  };
  expect_(/<\?xml version="1\.0" encoding="UTF-8"\?>\s*/y);
  const root = element();
  expect_(/\s*$/y);
  return root;
}

type DotToken =
  { kind: 'string'; value: string } | { kind: 'word'; value: string } | { kind: 'punct'; value: string };

function tokenizeDot(source: string): DotToken[] {
  const tokens: DotToken[] = [];
  const pattern = /\s+|"((?:[^"\\\n]|\\.)*)"|([A-Za-z_][\w]*|[0-9]+)|(->|[{}[\];,=])/y;
  while (pattern.lastIndex < source.length) {
    const start = pattern.lastIndex;
    const match = pattern.exec(source);
    if (match === null) throw new Error(`malformed DOT at ${start}: ${source.slice(start, start + 30)}`);
    if (match[1] !== undefined) {
      const value = match[1].replace(/\\(.)/g, (_, char: string) => (char === 'n' ? '\n' : char));
      tokens.push({ kind: 'string', value });
    } else if (match[2] !== undefined) tokens.push({ kind: 'word', value: match[2] });
    else if (match[3] !== undefined) tokens.push({ kind: 'punct', value: match[3] });
  }
  return tokens;
}

/** Node label (decoded) by node id, and edges with their attributes, from a DOT document. */
function readDot(source: string) {
  const tokens = tokenizeDot(source);
  let depth = 0;
  for (const token of tokens) {
    if (token.value === '{' && token.kind === 'punct') depth++;
    if (token.value === '}' && token.kind === 'punct') depth--;
    if (depth < 0) throw new Error('unbalanced braces');
  }
  if (depth !== 0) throw new Error('unbalanced braces');
  const labels = new Map<string, string>();
  const edges: { source: string; target: string; attributes: Record<string, string> }[] = [];
  const attributesAt = (start: number): [Record<string, string>, number] => {
    const attributes: Record<string, string> = {};
    let i = start;
    if (tokens[i]?.value !== '[') return [attributes, i];
    for (i++; tokens[i]?.value !== ']'; i++) {
      const key = tokens[i]!.value;
      if (tokens[i + 1]?.value !== '=') throw new Error('expected =');
      const value = tokens[i + 2]!;
      attributes[key] = value.kind === 'string' ? value.value.replace(/&amp;/g, '&') : value.value;
      i += 2;
      if (tokens[i + 1]?.value === ',') i++;
    }
    return [attributes, i + 1];
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind !== 'string' || tokens[i - 1]?.value === 'subgraph' || tokens[i - 1]?.value === 'digraph')
      continue;
    if (tokens[i + 1]?.value === '->') {
      const target = tokens[i + 2]!;
      const [attributes, next] = attributesAt(i + 3);
      edges.push({ source: token.value, target: target.value, attributes });
      i = next;
    } else if (tokens[i + 1]?.value === '[') {
      const [attributes, next] = attributesAt(i + 1);
      labels.set(token.value, attributes.label ?? '');
      i = next;
    }
  }
  return { labels, edges };
}

const MERMAID_TEXT = /^(?:[A-Za-z0-9 .,_()!?'+=/-]|\P{ASCII}|#[0-9]+;|<br\/>)*$/u;

function decodeMermaid(text: string): string {
  if (!MERMAID_TEXT.test(text)) throw new Error(`unescaped Mermaid text: ${text}`);
  return text
    .replace(/<br\/>/g, '\n')
    .replace(/#([0-9]+);/g, (_, code: string) => String.fromCodePoint(Number(code)));
}

/** Node text by Mermaid name, edges, and subgraph titles, from a Mermaid flowchart. */
function readMermaid(source: string) {
  const lines = source.split('\n');
  if (lines[0] !== 'flowchart LR' || lines[lines.length - 1] !== '') throw new Error('bad frame');
  const nodes = new Map<string, string>();
  const titles: string[] = [];
  const edges: { source: string; target: string; kind: string; text: string | null }[] = [];
  for (const line of lines.slice(1, -1)) {
    let match: RegExpExecArray | null;
    if ((match = /^ {2}subgraph t[0-9]+\["([^"]*)"\]$/.exec(line))) titles.push(decodeMermaid(match[1]!));
    else if ((match = /^ {4}(n[0-9]+)\["([^"]*)"\]$/.exec(line)))
      nodes.set(match[1]!, decodeMermaid(match[2]!));
    else if ((match = /^ {2}(n[0-9]+) (-->|-\.->)(?:\|"([^"]*)"\|)? (n[0-9]+)$/.exec(line))) {
      const text = match[3] === undefined ? null : decodeMermaid(match[3]);
      edges.push({
        source: match[1]!,
        kind: match[2] === '-->' ? 'turn' : 'branch',
        text,
        target: match[4]!,
      });
    } else if (
      !/^ {2}end$|^ {2}classDef active stroke-width:3px$|^ {2}class n[0-9]+(,n[0-9]+)* active$/.test(line)
    ) {
      throw new Error(`unexpected Mermaid line: ${line}`);
    }
  }
  return { nodes, titles, edges };
}

// ---------------------------------------------------------------------------------------------------

/** A two-thread family whose ids, titles, messages and reason are the given strings. */
function familyWith(text: {
  rootId: string;
  branchId: string;
  title: string;
  message: string;
  reason: string;
}): FamilyGraph {
  const thread = (overrides: Partial<FamilyThreadRow>): FamilyThreadRow => ({
    thread_id: text.rootId,
    parent_thread_id: null,
    branch_point_turn: null,
    reason: null,
    title: text.title,
    created_at: '2025-01-01T00:00:00Z',
    deleted_at: null,
    ...overrides,
  });
  const turn = (threadId: string, turnIndex: number, second: number): TurnMetaRow => ({
    thread_id: threadId,
    turn_index: turnIndex,
    user_message: turnIndex === 2 ? null : text.message,
    reply_preview: text.message,
    tool_count: 1,
    captured_at: `2025-01-01T00:00:0${second}Z`,
    artifact_count: 0,
  });
  return FamilyGraphSchema.parse(
    assembleFamilyGraph({
      requestedThreadId: text.branchId,
      threads: [
        thread({}),
        thread({
          thread_id: text.branchId,
          parent_thread_id: text.rootId,
          branch_point_turn: 1,
          reason: text.reason,
          created_at: '2025-01-01T00:00:03Z',
        }),
      ],
      turns: [turn(text.rootId, 1, 1), turn(text.rootId, 2, 2), turn(text.branchId, 2, 4)],
    }),
  );
}

const NASTY = {
  rootId: 'th_"root"<&>',
  branchId: "th_b\\ranch\n'x'",
  title: 'Title with "quotes", <tags> & ampersands\nand a second line; #hash: |pipe| [br] {x} `tick`',
  message: 'Say "hi" <b>now</b> & \\n then\r\nnext line\ttab \u0007bell \uD800lone 😀 é',
  reason: 'because "a < b" & c\nd',
};

function expectRoundTrip(graph: FamilyGraph): void {
  const clean = (value: string | null) => (value === null ? null : cleanText(value));
  const nodeText = (node: FamilyGraph['nodes'][number]) =>
    node.user_message === null ? node.label : `${node.label}\n${clean(node.user_message)}`;

  const xml = parseXml(graphToGraphML(graph));
  expect(xml.name).toBe('graphml');
  const xmlGraph = xml.children.find((child) => child.name === 'graph')!;
  const data = (element: XmlElement): Record<string, string> =>
    Object.fromEntries(
      element.children
        .filter((c) => c.name === 'data')
        .map((c): [string, string] => [c.attributes.key!, c.text]),
    );
  const xmlNodes = xmlGraph.children.filter((child) => child.name === 'node');
  expect(xmlNodes.map((node) => node.attributes.id)).toEqual(graph.nodes.map((node) => clean(node.id)));
  graph.nodes.forEach((node, index) => {
    const values = data(xmlNodes[index]!);
    expect(values.node_label).toBe(node.label);
    expect(values.node_user_message).toBe(clean(node.user_message) ?? undefined);
    expect(values.node_thread_title).toBe(
      clean(graph.threads.find((t) => t.thread_id === node.thread_id)!.title),
    );
  });
  const xmlEdges = xmlGraph.children.filter((child) => child.name === 'edge');
  expect(
    xmlEdges.map((edge) => [edge.attributes.source, edge.attributes.target, data(edge).edge_reason]),
  ).toEqual(
    graph.edges.map((edge) => [clean(edge.source), clean(edge.target), clean(edge.reason) ?? undefined]),
  );

  const dot = readDot(graphToDot(graph));
  expect([...dot.labels.entries()]).toEqual(graph.nodes.map((node) => [clean(node.id), nodeText(node)]));
  expect(dot.edges.map((edge) => [edge.source, edge.target, edge.attributes.label])).toEqual(
    graph.edges.map((edge) => [clean(edge.source), clean(edge.target), clean(edge.reason) ?? undefined]),
  );

  const mermaid = readMermaid(graphToMermaid(graph));
  expect([...mermaid.nodes.values()]).toEqual(graph.nodes.map(nodeText));
  const names = [...mermaid.nodes.keys()];
  expect(mermaid.edges.map((edge) => [edge.source, edge.target, edge.kind, edge.text])).toEqual(
    graph.edges.map((edge) => [
      names[graph.nodes.findIndex((node) => node.id === edge.source)],
      names[graph.nodes.findIndex((node) => node.id === edge.target)],
      edge.kind,
      clean(edge.reason),
    ]),
  );
  expect(mermaid.titles).toEqual(
    graph.threads
      .filter((t) => graph.nodes.some((n) => n.thread_id === t.thread_id))
      .map((t) => clean(t.title)),
  );
}

describe('graph exports', () => {
  it('write well-formed GraphML, DOT and Mermaid that keep every value, labels included', () => {
    const graph = familyWith(NASTY);
    expect(graph.nodes.map((node) => node.label)).toEqual(['1', '2', '2.1']);
    expectRoundTrip(graph);
  });

  it('escape quotes, angle brackets, ampersands and newlines for each format', () => {
    const graph = familyWith(NASTY);
    const graphml = graphToGraphML(graph);
    expect(graphml).toContain('<node id="th_&quot;root&quot;&lt;&amp;&gt;:1">');
    expect(graphml).toContain('<data key="edge_reason">because &quot;a &lt; b&quot; &amp; c&#10;d</data>');
    expect(graphml).not.toContain('\u0007');

    const dot = graphToDot(graph);
    expect(dot).toContain('"th_\\"root\\"<&>:1" -> "th_\\"root\\"<&>:2";');
    expect(dot).toContain('label="because \\"a < b\\" &amp; c\\nd"');
    expect(dot).toContain('"th_b\\\\ranch\\n\'x\':2"');

    const mermaid = graphToMermaid(graph);
    expect(mermaid).toContain('|"because #34;a #60; b#34; #38; c<br/>d"|');
    expect(mermaid).toContain(
      'n0["1<br/>Say #34;hi#34; #60;b#62;now#60;/b#62; #38; #92;n then<br/>next line#9;tab bell lone 😀 é"]',
    );
  });

  it('mark the branch edges and the active path', () => {
    const graph = familyWith({ rootId: 'r', branchId: 'b', title: 'T', message: 'm', reason: 'why' });
    expect(graphToMermaid(graph)).toContain('  n0 -.->|"why"| n2\n');
    expect(graphToMermaid(graph)).toContain('  class n0,n2 active\n');
    expect(graphToDot(graph)).toContain('  "r:1" -> "b:2" [style=dashed, label="why"];\n');
    expect(graphToDot(graph)).toContain('"r:1" [label="1\\nm", penwidth=2];');
    expect(graphToGraphML(graph)).toContain('<data key="node_is_on_active_path">true</data>');
  });

  it('draw an apply edge apart from the branch edges (thick in Mermaid, dotted in DOT) and keep its kind in GraphML', () => {
    const base = familyWith({ rootId: 'r', branchId: 'b', title: 'T', message: 'm', reason: 'why' });
    const graph: FamilyGraph = {
      ...base,
      edges: [...base.edges, { id: 'apply:b:2->r:2', source: 'b:2', target: 'r:2', kind: 'apply', reason: 'section Findings' }],
    };
    expect(graphToMermaid(graph)).toContain('  n2 ==>|"section Findings"| n1\n');
    expect(graphToDot(graph)).toContain('  "b:2" -> "r:2" [style=dotted, constraint=false, label="section Findings"];\n');
    expect(graphToGraphML(graph)).toContain('<edge id="apply:b:2-&gt;r:2" source="b:2" target="r:2">');
    expect(graphToGraphML(graph)).toContain('<data key="edge_kind">apply</data>');
  });

  it('pairs every format with its content type', () => {
    const graph = familyWith({ rootId: 'r', branchId: 'b', title: 'T', message: 'm', reason: 'why' });
    for (const format of ['graphml', 'mermaid', 'dot'] as const) {
      const exported = exportFamilyGraph(graph, format);
      expect(exported.contentType).toBe(GRAPH_EXPORT_CONTENT_TYPES[format]);
      expect(exported.body.length).toBeGreaterThan(0);
    }
    expect(exportFamilyGraph(graph, 'dot').contentType).toBe('text/vnd.graphviz; charset=utf-8');
  });

  it('round-trip arbitrary text, control characters and unpaired surrogates included', () => {
    const text = fc.string({ unit: 'binary', maxLength: 24 });
    fc.assert(
      fc.property(text, text, text, text, text, (rootId, branchId, title, message, reason) => {
        expectRoundTrip(
          familyWith({ rootId: `r${rootId}`, branchId: `b${branchId}`, title, message, reason }),
        );
      }),
      { numRuns: 200 },
    );
  });
});
