/**
 * GraphML (the XML graph format Gephi, yEd, Cytoscape and networkx read). Every value is escaped for
 * XML: `& < > " '` as entities, and tab/newline as character references so attribute-value
 * normalisation cannot turn them into spaces. Null values are omitted.
 */
import type { FamilyGraph, GraphEdge, GraphNode } from './contracts';
import { cleanText } from './export-text';

type Domain = 'graph' | 'node' | 'edge';
type KeyType = 'string' | 'int' | 'boolean';
type Key = { readonly id: string; readonly type: KeyType };

const GRAPH_KEYS = [
  { id: 'requested_thread_id', type: 'string' },
  { id: 'root_thread_id', type: 'string' },
  { id: 'truncated', type: 'boolean' },
] as const satisfies readonly Key[];

const NODE_KEYS = [
  { id: 'label', type: 'string' },
  { id: 'thread_id', type: 'string' },
  { id: 'thread_title', type: 'string' },
  { id: 'turn_index', type: 'int' },
  { id: 'user_message', type: 'string' },
  { id: 'reply_preview', type: 'string' },
  { id: 'tool_count', type: 'int' },
  { id: 'artifact_count', type: 'int' },
  { id: 'captured_at', type: 'string' },
  { id: 'is_on_active_path', type: 'boolean' },
] as const satisfies readonly Key[];

const EDGE_KEYS = [
  { id: 'kind', type: 'string' },
  { id: 'reason', type: 'string' },
] as const satisfies readonly Key[];

type Values<K extends readonly Key[]> = { readonly [P in K[number]['id']]: string | number | boolean | null };

export function escapeXml(text: string): string {
  return cleanText(text).replace(/[&<>"'\t\n]/g, (char) => XML_ESCAPES[char] ?? char);
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
};

export function graphToGraphML(graph: FamilyGraph): string {
  const titles = new Map(graph.threads.map((thread) => [thread.thread_id, thread.title]));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
    ...keyLines('graph', GRAPH_KEYS),
    ...keyLines('node', NODE_KEYS),
    ...keyLines('edge', EDGE_KEYS),
    '  <graph id="family" edgedefault="directed">',
    ...dataLines('graph', '    ', {
      requested_thread_id: graph.thread_id,
      root_thread_id: graph.root_thread_id,
      truncated: graph.truncated,
    } satisfies Values<typeof GRAPH_KEYS>),
    ...graph.nodes.flatMap((node) => nodeLines(node, titles.get(node.thread_id) ?? null)),
    ...graph.edges.flatMap(edgeLines),
    '  </graph>',
    '</graphml>',
  ];
  return `${lines.join('\n')}\n`;
}

/** Key ids are prefixed by their domain so a node key and an edge key can share an attribute name. */
function keyLines(domain: Domain, keys: readonly Key[]): string[] {
  return keys.map(
    (key) =>
      `  <key id="${domain}_${key.id}" for="${domain}" attr.name="${key.id}" attr.type="${key.type}"/>`,
  );
}

function dataLines(
  domain: Domain,
  indent: string,
  values: Record<string, string | number | boolean | null>,
): string[] {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== null)
    .map(([key, value]) => `${indent}<data key="${domain}_${key}">${escapeXml(String(value))}</data>`);
}

function nodeLines(node: GraphNode, threadTitle: string | null): string[] {
  const values: Values<typeof NODE_KEYS> = {
    label: node.label,
    thread_id: node.thread_id,
    thread_title: threadTitle,
    turn_index: node.turn_index,
    user_message: node.user_message,
    reply_preview: node.reply_preview,
    tool_count: node.tool_count,
    artifact_count: node.artifact_count,
    captured_at: node.captured_at,
    is_on_active_path: node.is_on_active_path,
  };
  return [`    <node id="${escapeXml(node.id)}">`, ...dataLines('node', '      ', values), '    </node>'];
}

function edgeLines(edge: GraphEdge): string[] {
  const values: Values<typeof EDGE_KEYS> = { kind: edge.kind, reason: edge.reason };
  return [
    `    <edge id="${escapeXml(edge.id)}" source="${escapeXml(edge.source)}" target="${escapeXml(edge.target)}">`,
    ...dataLines('edge', '      ', values),
    '    </edge>',
  ];
}
