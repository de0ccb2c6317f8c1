import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent';
import { OfflineChatModel } from '../models/offline';
import { OFFLINE_HELP } from '../models/offline-directives';
import { drain, tokensOf } from '../testing/drain';
import { createInMemoryWorkspace } from '../testing/in-memory-workspace';

/** A provider without streaming: only `_generate`. */
class WholeReplyModel extends BaseChatModel {
  override _llmType(): string {
    return 'whole-reply';
  }

  override bindTools() {
    return this.withConfig({});
  }

  override async _generate(_messages: BaseMessage[]): Promise<ChatResult> {
    const message = new AIMessage('The whole reply at once.');
    return { generations: [{ text: message.text, message }] };
  }
}

describe('the chat node', () => {
  it('streams the reply in the order the model produced it, and the reply is exactly the streamed text', async () => {
    const agent = createAgent({ checkpointer: new MemorySaver(), model: new OfflineChatModel() });
    const { events, result } = await drain(agent.runTurn({ threadId: 't', userMessage: 'hello', workspace: createInMemoryWorkspace() }));
    const tokens = tokensOf(events);
    expect(tokens.length).toBeGreaterThan(5);
    expect(tokens.join('')).toBe(OFFLINE_HELP);
    expect(result.content).toBe(OFFLINE_HELP);
  });

  it('streams the whole reply once from a model that does not stream', async () => {
    const agent = createAgent({ checkpointer: new MemorySaver(), model: new WholeReplyModel({}) });
    const { events, result } = await drain(agent.runTurn({ threadId: 't', userMessage: 'hello', workspace: createInMemoryWorkspace() }));
    expect(tokensOf(events)).toEqual(['The whole reply at once.']);
    expect(result.content).toBe('The whole reply at once.');
  });

  it('separates the text of two model calls of one turn (text, tools, more text)', async () => {
    const agent = createAgent({ checkpointer: new MemorySaver(), model: new OfflineChatModel() });
    const workspace = createInMemoryWorkspace();
    const { events, result } = await drain(agent.runTurn({ threadId: 't', userMessage: 'todo: Outline', workspace }));
    expect(events.map((e) => e.type === 'tool' ? `tool:${e.name}` : 'token').filter((e, i, all) => e !== all[i - 1])).toEqual(['tool:add_todo', 'token']);
    expect(result.content).toBe('Added 1 todo.');
    expect(workspace.state.todos.map((t) => t.text)).toEqual(['Outline']);
  });
});
