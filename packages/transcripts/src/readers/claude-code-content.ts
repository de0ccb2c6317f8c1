// Claude Code message content → ChatRecord parts: text stays text, thinking becomes
// a thought part, tool_use a functionCall, tool_result a functionResponse. Other blocks (images,
// server tool results …) are carried as opaque parts, which never reach a summary.
import type { ChatPart } from '../types';
import { isJsonObject, stringField, type JsonObject } from './jsonl';

export interface MappedContent {
  parts: ChatPart[];
  toolUseIds: readonly string[];
  toolResultIds: readonly string[];
  /** Every block is a tool_result (and there is at least one). */
  isOnlyToolResults: boolean;
}

const TOOL_USE_BLOCKS: ReadonlySet<string> = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);
/** Shared by every record without tool ids; nothing writes to a mapped record's ids. */
const NO_IDS: readonly string[] = Object.freeze([]);

/** `toolNames` maps tool_use ids seen so far to tool names, to name the responses. */
export function mapContent(content: unknown, toolNames: Map<string, string>): MappedContent {
  if (typeof content === 'string') {
    return {
      parts: [{ text: content }],
      toolUseIds: NO_IDS,
      toolResultIds: NO_IDS,
      isOnlyToolResults: false,
    };
  }
  if (!Array.isArray(content)) {
    return { parts: [], toolUseIds: NO_IDS, toolResultIds: NO_IDS, isOnlyToolResults: false };
  }
  const parts: ChatPart[] = [];
  const toolUseIds: string[] = [];
  const toolResultIds: string[] = [];
  let toolResults = 0;
  for (const block of content) {
    if (!isJsonObject(block)) continue;
    parts.push(mapBlock(block, toolUseIds, toolResultIds, toolNames));
    if (block.type === 'tool_result') toolResults++;
  }
  return {
    parts: exactCopy(parts),
    toolUseIds: toolUseIds.length === 0 ? NO_IDS : exactCopy(toolUseIds),
    toolResultIds: toolResultIds.length === 0 ? NO_IDS : exactCopy(toolResultIds),
    isOnlyToolResults: toolResults > 0 && toolResults === parts.length,
  };
}

/**
 * An array grown by push keeps room for sixteen elements, which every record of a long session
 * would carry through each garbage collection: the arrays a record keeps are exact copies. One
 * element, nearly every record's, is copied as a literal, which V8 soon allocates with the
 * long-lived objects instead of copying it out of the young generation.
 */
function exactCopy<T>(items: T[]): T[] {
  return items.length === 1 ? [items[0]!] : items.slice();
}

function mapBlock(
  block: JsonObject,
  toolUseIds: string[],
  toolResultIds: string[],
  toolNames: Map<string, string>,
): ChatPart {
  const type = stringField(block, 'type');
  if (type === 'text') return { text: stringField(block, 'text') ?? '' };
  if (type === 'thinking') return { text: stringField(block, 'thinking') ?? '', thought: true };
  if (type === 'redacted_thinking') return { thought: true };
  if (type !== undefined && TOOL_USE_BLOCKS.has(type)) {
    const id = stringField(block, 'id');
    const name = stringField(block, 'name');
    if (id !== undefined) {
      toolUseIds.push(id);
      if (name !== undefined) toolNames.set(id, name);
    }
    return { functionCall: { id, name, args: block.input } };
  }
  if (type === 'tool_result') {
    const id = stringField(block, 'tool_use_id');
    if (id !== undefined) toolResultIds.push(id);
    const name = id === undefined ? undefined : toolNames.get(id);
    return {
      functionResponse: { id, name, response: { output: block.content, isError: block.is_error === true } },
    };
  }
  return { claudeCodeBlock: block };
}
