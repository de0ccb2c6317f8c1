// The `tools` node: runs the last assistant message's tool calls one after the
// other, in the order the model gave them (a later call may depend on an
// earlier one, e.g. add a todo then complete it), against the workspace port.
// Each result is streamed as a custom event the moment it exists and
// recorded in the run's journal (tool-journal.ts). No tool starts after the
// run was aborted.
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import type { AgentState, AgentUpdate } from '../state';
import { findTool, type ToolOutcome } from '../tools/index';
import { conditionOf, journalOf, pathsOf, workspaceOf, type AgentRunConfig } from './context';
import type { WorkspacePort } from '../workspace-port';
import { READ_PATH_TOOL, readPathTool, type PathsPort } from '../tools/read-path';
import type { ToolEventPayload } from './stream-payloads';

interface PendingCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** Set when the model's arguments could not even be parsed as JSON. */
  invalid?: string;
}

export async function toolsNode(state: AgentState, config: AgentRunConfig): Promise<AgentUpdate> {
  const last = state.messages.at(-1);
  if (last === undefined || !AIMessage.isInstance(last)) return { messages: [] };
  const workspace = workspaceOf(config);
  const journal = journalOf(config);
  const paths = pathsOf(config);
  const allowed = conditionOf(config)?.tools;
  const pending: PendingCall[] = [
    ...(last.tool_calls ?? []).map((c, i) => ({ id: c.id ?? `call_${i}`, name: c.name, args: c.args })),
    ...(last.invalid_tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `invalid_${i}`,
      name: c.name ?? 'unknown',
      args: {},
      invalid: c.error ?? 'arguments are not valid JSON',
    })),
  ];

  const results: ToolMessage[] = [];
  for (const call of pending) {
    config.signal?.throwIfAborted();
    const execute = async (): Promise<ToolEventPayload> => {
      // A tool the condition took away is refused even when a model calls it unasked. The condition
      // limits the workspace tools only: `read_path` is the turn's (its refs), not the condition's.
      const refused = allowed && !allowed.includes(call.name) && !(call.name === READ_PATH_TOOL && paths !== undefined);
      const outcome: ToolOutcome =
        refused ? { result: `The tool "${call.name}" is not available here.`, isError: true } : await runCall(workspace, paths, call);
      const payload: ToolEventPayload = {
        kind: 'trellis.tool',
        seq: journal?.nextSeq() ?? -1,
        id: call.id,
        name: call.name,
        args: call.args,
        ...outcome,
      };
      journal?.record(payload);
      return payload;
    };
    const payload = journal === undefined ? await execute() : await journal.track(execute);
    config.writer?.(payload);
    results.push(
      new ToolMessage({
        tool_call_id: call.id,
        name: call.name,
        content: payload.result,
        status: payload.isError ? 'error' : 'success',
      }),
    );
  }
  return { messages: results };
}

async function runCall(workspace: WorkspacePort, paths: PathsPort | undefined, call: PendingCall): Promise<ToolOutcome> {
  if (call.invalid !== undefined) return { result: `Invalid arguments: ${call.invalid}`, isError: true };
  // Only a turn whose message referenced other paths has the tool; anywhere else it is unknown.
  if (call.name === READ_PATH_TOOL && paths !== undefined) return readPathTool.execute(paths, call.args);
  const tool = findTool(call.name);
  if (tool === undefined) return { result: `Unknown tool "${call.name}".`, isError: true };
  return tool.execute(workspace.forToolCall?.(call.id) ?? workspace, call.args);
}
