import { HumanMessage, SystemMessage, type AIMessageChunk } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { toolSpecs } from '../nodes/chat';
import { createModel, receivedByOfflineModel } from './index';
import { OfflineChatModel } from './offline';

describe('OfflineChatModel', () => {
  it('binds tools on the same instance and records every input', async () => {
    const model = new OfflineChatModel();
    const bound = model.bindTools(toolSpecs());
    const input = [new SystemMessage('sys'), new HumanMessage('todo: Write\n  todo: Intro')];
    const reply = await bound.invoke(input);
    expect(reply.tool_calls?.map((c) => [c.name, c.args])).toEqual([
      ['add_todo', { text: 'Write', depth: 0 }],
      ['add_todo', { text: 'Intro', depth: 1 }],
    ]);
    expect(new Set(reply.tool_calls?.map((c) => c.id)).size).toBe(2);
    expect(model.received).toEqual([input]);
  });

  it("keeps the inputs of its last keepInputs calls only, and the studio's offline model keeps none", async () => {
    const model = new OfflineChatModel({ keepInputs: 2 });
    const asks = ['one', 'two', 'three'].map((text) => [new HumanMessage(text)]);
    for (const input of asks) await model.invoke(input);
    expect(model.received).toEqual(asks.slice(1));
    const studio = createModel({ provider: 'offline' });
    await studio.invoke(asks[0]!);
    expect(receivedByOfflineModel(studio)).toEqual([]);
  });

  it('is deterministic: the same input gives the same reply and tool call ids', async () => {
    const input = [new HumanMessage('objective: x')];
    const a = await new OfflineChatModel().bindTools(toolSpecs()).invoke(input);
    const b = await new OfflineChatModel().bindTools(toolSpecs()).invoke(input);
    expect(a.tool_calls).toEqual(b.tool_calls);
  });

  it('streams a reply in several chunks', async () => {
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await new OfflineChatModel().stream([new HumanMessage('hello')])) chunks.push(chunk);
    expect(chunks.filter((c) => c.text !== '').length).toBeGreaterThan(5);
    expect(chunks.map((c) => c.text).join('')).toMatch(/^I'm the offline model/);
  });

  it('stops streaming when aborted', async () => {
    const controller = new AbortController();
    const model = new OfflineChatModel({ chunkDelayMs: 5 });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of await model.stream([new HumanMessage('hello')], { signal: controller.signal })) {
          seen.push(chunk.text);
          if (seen.length === 2) controller.abort();
        }
      })(),
    ).rejects.toThrow();
    expect(seen.length).toBe(2);
  });
});
