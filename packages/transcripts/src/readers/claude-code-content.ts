// Claude Code message content → ChatRecord parts: text stays text, thinking becomes
// a thought part, tool_use a functionCall, tool_result a functionResponse. Other blocks (images,
// server tool results …) are carried as opaque parts, which never reach a summary.
import type { ChatPart } from '../types';
import { isJsonObject, stringField, type JsonObject } from './jsonl';

export interface MappedContent {
  parts: ChatPart[];
  toolUseIds: string[];
  toolResultIds: string[];
  /** Every block is a tool_result (and there is at least one). */
  isOnlyToolResults: boolean;
}

const TOOL_USE_BLOCKS: ReadonlySet<string> = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/** `toolNames` maps tool_use ids seen so far to tool names, to name the responses. */
export function mapContent(content: unknown, toolNames: Map<string, string>): MappedContent {
  const mapped: MappedContent = { parts: [], toolUseIds: [], toolResultIds: [], isOnlyToolResults: false };
  if (typeof content === 'string') {
    mapped.parts.push({ text: content });
    return mapped;
  }
  if (!Array.isArray(content)) return mapped;
  let toolResults = 0;
  for (const block of content) {
    if (!isJsonObject(block)) continue;
    const part = mapBlock(block, mapped, toolNames);
    if (block.type === 'tool_result') toolResults++;
    mapped.parts.push(part);
  }
  mapped.isOnlyToolResults = toolResults > 0 && toolResults === mapped.parts.length;
  return mapped;
}

function mapBlock(block: JsonObject, mapped: MappedContent, toolNames: Map<string, string>): ChatPart {
  const type = stringField(block, 'type');
  if (type === 'text') return { text: stringField(block, 'text') ?? '' };
  if (type === 'thinking') return { text: stringField(block, 'thinking') ?? '', thought: true };
  if (type === 'redacted_thinking') return { thought: true };
  if (type !== undefined && TOOL_USE_BLOCKS.has(type)) {
    const id = stringField(block, 'id');
    const name = stringField(block, 'name');
    if (id !== undefined) {
      mapped.toolUseIds.push(id);
      if (name !== undefined) toolNames.set(id, name);
    }
    return { functionCall: { id, name, args: block.input } };
  }
  if (type === 'tool_result') {
    const id = stringField(block, 'tool_use_id');
    if (id !== undefined) mapped.toolResultIds.push(id);
    const name = id === undefined ? undefined : toolNames.get(id);
    return {
      functionResponse: { id, name, response: { output: block.content, isError: block.is_error === true } },
    };
  }
  return { claudeCodeBlock: block };
}
