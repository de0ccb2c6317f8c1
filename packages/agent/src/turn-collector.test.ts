import { AIMessage, AIMessageChunk, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import type { ToolEventPayload } from './nodes/tool-journal';
import { TurnCollector, type AgentEvent } from './turn-collector';

const chat = (step: number) => ({ langgraph_node: 'chat', langgraph_step: step });
const chunk = (text: string, id = 'same-id') => new AIMessageChunk({ id, content: text });
const tool = (seq: number, name = 'add_todo'): ToolEventPayload => ({
  kind: 'trellis.tool',
  seq,
  id: `call_${seq}`,
  name,
  args: { text: 'x' },
  result: 'ok',
  isError: false,
});

function feed(collector: TurnCollector, parts: [string, unknown][]): AgentEvent[] {
  return parts.flatMap(([mode, payload]) => [...collector.accept(mode, payload)]);
}

describe('TurnCollector', () => {
  it('streams chunks as tokens and separates model calls by graph step, whatever their ids', () => {
    const collector = new TurnCollector();
    const events = feed(collector, [
      ['messages', [chunk('Adding '), chat(1)]],
      ['messages', [chunk('it.'), chat(1)]],
      ['custom', tool(0)],
      ['messages', [new ToolMessage({ tool_call_id: 'call_0', content: 'ok' }), { langgraph_node: 'tools', langgraph_step: 2 }]],
      ['messages', [chunk('Done.'), chat(3)]],
    ]);
    expect(events).toEqual([
      { type: 'token', text: 'Adding ' },
      { type: 'token', text: 'it.' },
      { type: 'tool', name: 'add_todo', args: { text: 'x' }, result: 'ok', isError: false },
      { type: 'token', text: '\n\n' },
      { type: 'token', text: 'Done.' },
    ]);
    expect(collector.result(false).content).toBe('Adding it.\n\nDone.');
  });

  it('ignores the node output echoed after its chunks, and takes a whole message from a model that did not stream', () => {
    const collector = new TurnCollector();
    const events = feed(collector, [
      ['messages', [chunk('Hello'), chat(1)]],
      ['messages', [new AIMessage({ id: 'other-id', content: 'Hello' }), chat(1)]],
      ['messages', [new AIMessage({ id: 'x', content: 'Whole reply' }), chat(3)]],
      ['messages', [new AIMessage({ id: 'y', content: 'Whole reply' }), chat(3)]],
    ]);
    expect(events.map((e) => (e.type === 'token' ? e.text : e.name))).toEqual(['Hello', '\n\n', 'Whole reply']);
  });

  it('reports a tool call once, whether it arrives from the stream, the journal or both', () => {
    const collector = new TurnCollector();
    const events = feed(collector, [
      ['custom', tool(0)],
      ['custom', tool(0)],
      ['custom', tool(1, 'set_objective')],
      ['custom', { something: 'else' }],
    ]);
    expect(events.map((e) => (e.type === 'tool' ? e.name : e.text))).toEqual(['add_todo', 'set_objective']);
    expect(collector.result(true)).toMatchObject({ interrupted: true, toolCalls: [{ id: 'call_0' }, { id: 'call_1' }] });
  });

  it('knows which text no checkpoint holds yet', () => {
    const collector = new TurnCollector();
    feed(collector, [
      ['messages', [chunk('saved'), chat(1)]],
      ['messages', [chunk('cut sh'), chat(3)]],
    ]);
    expect(collector.unsavedText(1)).toEqual(['cut sh']);
    expect(collector.unsavedText(3)).toEqual([]);
  });
});
