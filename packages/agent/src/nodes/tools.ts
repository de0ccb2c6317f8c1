// The `tools` node: runs the last assistant message's tool calls one after the
// other, in the order the model gave them (a later call may depend on an
// earlier one, e.g. add a todo then complete it), against the workspace port.
// Each result is streamed as a custom `tool` event the moment it exists.
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import type { AgentState, AgentUpdate } from '../state';
import { findTool, type ToolOutcome } from '../tools/index';
import { workspaceOf, type AgentRunConfig } from './context';

/** The custom stream payload the tools node writes for every executed call. */
export interface ToolEventPayload {
  kind: 'trellis.tool';
  id: string;
  name: string;
  args: Record<string, unknown>;
  result: string;
  isError: boolean;
}

export function isToolEventPayload(value: unknown): value is ToolEventPayload {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'trellis.tool';
}

export async function toolsNode(state: AgentState, config: AgentRunConfig): Promise<AgentUpdate> {
  const last = state.messages.at(-1);
  if (last === undefined || !AIMessage.isInstance(last)) return { messages: [] };
  const workspace = workspaceOf(config);
  const results: ToolMessage[] = [];

  for (const call of last.tool_calls ?? []) {
    config.signal?.throwIfAborted();
    const id = call.id ?? `call_${results.length}`;
    const tool = findTool(call.name);
    const outcome: ToolOutcome =
      tool === undefined
        ? { result: `Unknown tool "${call.name}".`, isError: true }
        : await tool.execute(workspace, call.args);
    results.push(toolMessage(id, call.name, outcome));
    emit(config, { kind: 'trellis.tool', id, name: call.name, args: call.args, ...outcome });
  }
  for (const call of last.invalid_tool_calls ?? []) {
    const id = call.id ?? `call_${results.length}`;
    const name = call.name ?? 'unknown';
    const outcome = { result: `Invalid arguments: ${call.error ?? 'not valid JSON'}`, isError: true };
    results.push(toolMessage(id, name, outcome));
    emit(config, { kind: 'trellis.tool', id, name, args: {}, ...outcome });
  }
  return { messages: results };
}

function toolMessage(id: string, name: string, outcome: ToolOutcome): ToolMessage {
  return new ToolMessage({
    tool_call_id: id,
    name,
    content: outcome.result,
    status: outcome.isError ? 'error' : 'success',
  });
}

function emit(config: AgentRunConfig, payload: ToolEventPayload): void {
  config.writer?.(payload);
}
