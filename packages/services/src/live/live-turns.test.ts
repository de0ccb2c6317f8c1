import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '@trellis/domain';
import { LiveTurns } from './live-turns';

async function collect(events: AsyncIterableIterator<TurnEvent>): Promise<TurnEvent[]> {
  const out: TurnEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('LiveTurn', () => {
  it("gives the reply so far (its text and tool calls in order), as a later subscriber's replay carries them", async () => {
    const turns = new LiveTurns(null);
    const turn = turns.open('th_a', 3, null, () => undefined);
    expect(turn.soFar()).toEqual({ text: '', tools: [] });
    const add = { name: 'add_todo', args: { text: 'Water daily' }, result: 'Todo added', is_error: false };
    const edit = { name: 'write_document', args: { text: '# Plan' }, result: 'Written', is_error: false };
    turn.push({ event: 'turn', data: { turn_index: 3, thread_id: 'th_a' } });
    turn.push({ event: 'tool', data: add });
    turn.push({ event: 'token', data: { text: 'Added ' } });
    turn.push({ event: 'token', data: { text: 'one todo' } });
    turn.push({ event: 'tool', data: edit });
    turn.push({ event: 'token', data: { text: ' and a plan.' } });
    expect(turns.get('th_a', 3)?.soFar()).toEqual({ text: 'Added one todo and a plan.', tools: [add, edit] });

    const replay = turn.subscribe();
    turn.end();
    const events = await collect(replay);
    const text = events.flatMap((e) => (e.event === 'token' ? [e.data.text] : [])).join('');
    const tools = events.flatMap((e) => (e.event === 'tool' ? [e.data] : []));
    expect({ text, tools }).toEqual(turn.soFar());
  });
});
