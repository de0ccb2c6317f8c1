import type { ToolMessage } from '@langchain/core/messages';
import { AIMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { createInMemoryWorkspace } from '../testing/in-memory-workspace';
import { READ_PATH_TOOL } from '../tools/read-path';
import { toolSpecs } from './chat';
import type { AgentRunConfig } from './context';
import { toolsNode } from './tools';

describe("a study condition's tools", () => {
  it('limit the workspace tools and keep read_path on a turn with refs', () => {
    expect(toolSpecs(['add_todo'], { withReadPath: true }).map((t) => t.name)).toEqual(['add_todo', READ_PATH_TOOL]);
    expect(toolSpecs(['add_todo']).map((t) => t.name)).toEqual(['add_todo']);
    expect(toolSpecs([], { withReadPath: true }).map((t) => t.name)).toEqual([READ_PATH_TOOL]);
  });

  it('do not refuse read_path when the turn has a paths port, and still refuse a tool taken away', async () => {
    const message = new AIMessage({
      content: '',
      tool_calls: [
        { id: 'a', name: READ_PATH_TOOL, args: { thread_id: 'other', turn: 1 } },
        { id: 'b', name: 'set_objective', args: { text: 'x' } },
      ],
    });
    const paths = { read: () => Promise.resolve('the step') };
    const config: AgentRunConfig = { context: { workspace: createInMemoryWorkspace(), paths, condition: { tools: ['add_todo'] } } };
    const { messages } = await toolsNode({ messages: [message] }, config);
    const results = (messages as ToolMessage[]).map((m) => [m.name, m.content, m.status]);
    expect(results).toEqual([
      [READ_PATH_TOOL, 'the step', 'success'],
      ['set_objective', 'The tool "set_objective" is not available here.', 'error'],
    ]);
  });
});
