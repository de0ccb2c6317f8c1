import { describe, expect, it } from 'vitest';
import type { TokenEventPayload, ToolEventPayload } from './nodes/stream-payloads';
import { TurnCollector, type AgentEvent } from './turn-collector';

const token = (step: number, text: string): [string, TokenEventPayload] => ['custom', { kind: 'trellis.token', step, text }];
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
  it('streams text as tokens and separates model calls by graph step', () => {
    const collector = new TurnCollector();
    const events = feed(collector, [token(1, 'Adding '), token(1, 'it.'), ['custom', tool(0)], token(3, ''), token(3, 'Done.')]);
    expect(events).toEqual([
      { type: 'token', text: 'Adding ' },
      { type: 'token', text: 'it.' },
      { type: 'tool', name: 'add_todo', args: { text: 'x' }, result: 'ok', isError: false },
      { type: 'token', text: '\n\n' },
      { type: 'token', text: 'Done.' },
    ]);
    expect(collector.result(false).content).toBe('Adding it.\n\nDone.');
  });

  it('ignores other stream parts and payloads it does not know', () => {
    const collector = new TurnCollector();
    const events = feed(collector, [
      ['messages', [{ content: 'not ours' }, { langgraph_node: 'chat', langgraph_step: 1 }]],
      ['updates', { chat: {} }],
      ['custom', { kind: 'something.else', text: 'x' }],
      token(1, 'Hello'),
    ]);
    expect(events).toEqual([{ type: 'token', text: 'Hello' }]);
  });

  it('reports a tool call once, whether it arrives from the stream, the journal or both', () => {
    const collector = new TurnCollector();
    const events = feed(collector, [
      ['custom', tool(0)],
      ['custom', tool(0)],
      ['custom', tool(1, 'set_objective')],
      ['custom', { something: 'else' }],
    ]);
    expect(events.map((e) => (e.type === 'tool' ? e.name : e.type))).toEqual(['add_todo', 'set_objective']);
    expect(collector.result(true)).toMatchObject({ interrupted: true, toolCalls: [{ id: 'call_0' }, { id: 'call_1' }] });
  });

  it('knows which text no checkpoint holds yet', () => {
    const collector = new TurnCollector();
    feed(collector, [token(1, 'saved'), token(3, 'cut sh')]);
    expect(collector.unsavedText(1)).toEqual(['cut sh']);
    expect(collector.unsavedText(3)).toEqual([]);
  });
});
