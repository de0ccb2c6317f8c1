import { describe, expect, it, vi } from 'vitest';
import type { TurnEvent } from '@trellis/domain';
import { ApiError } from '../api/http';
import { TurnStore, type TurnSource } from './turn-store';

function scripted(events: TurnEvent[], options: { hangAfter?: number } = {}): TurnSource {
  return async function* (_thread, _content, signal) {
    for (const [i, event] of events.entries()) {
      if (options.hangAfter !== undefined && i === options.hangAfter) {
        await new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      }
      yield event;
    }
  };
}

describe('TurnStore', () => {
  it('accumulates tokens and tools, reports each tool, and ends done', async () => {
    const onTool = vi.fn();
    const onEnd = vi.fn();
    const store = new TurnStore(
      scripted([
        { event: 'turn', data: { turn_index: 3, thread_id: 't' } },
        { event: 'tool', data: { name: 'add_todo', args: { text: 'a' }, result: 'added', is_error: false } },
        { event: 'token', data: { text: 'Do' } },
        { event: 'token', data: { text: 'ne.' } },
        { event: 'done', data: { turn_index: 3, message_id: 'm1' } },
      ]),
      { onTool, onEnd },
    );
    const run = await store.start('t', 'todo: a');
    expect(run).toMatchObject({ phase: 'done', turnIndex: 3, messageId: 'm1', text: 'Done.' });
    expect(run.tools.map((t) => t.name)).toEqual(['add_todo']);
    expect(onTool).toHaveBeenCalledTimes(1);
    expect(onEnd).toHaveBeenCalledWith(run);
  });

  it('turns a 409 refusal into a failed run that was never committed', async () => {
    const store = new TurnStore(async function* () {
      yield* [];
      throw new ApiError(409, 'turn_in_progress', 'busy');
    });
    const run = await store.start('t', 'hello');
    expect(run).toMatchObject({
      phase: 'failed',
      turnIndex: null,
      error: { status: 409, code: 'turn_in_progress' },
    });
  });

  it('stop aborts the stream and keeps what arrived', async () => {
    const store = new TurnStore(
      scripted(
        [
          { event: 'turn', data: { turn_index: 1, thread_id: 't' } },
          { event: 'token', data: { text: 'partial' } },
          { event: 'done', data: { turn_index: 1, message_id: 'm' } },
        ],
        { hangAfter: 2 },
      ),
    );
    const running = store.start('t', 'x');
    await vi.waitFor(() => expect(store.get('t')?.text).toBe('partial'));
    expect(store.isActive('t')).toBe(true);
    store.stop('t');
    const run = await running;
    expect(run).toMatchObject({ phase: 'stopped', text: 'partial', turnIndex: 1 });
  });

  it('a stream that ends without done is a failure, and dismiss forgets only the named run', async () => {
    const store = new TurnStore(scripted([{ event: 'turn', data: { turn_index: 1, thread_id: 't' } }]));
    const run = await store.start('t', 'x');
    expect(run.phase).toBe('failed');
    store.dismiss('t', run.runId + 1);
    expect(store.get('t')).toBeDefined();
    store.dismiss('t', run.runId);
    expect(store.get('t')).toBeUndefined();
  });
});
