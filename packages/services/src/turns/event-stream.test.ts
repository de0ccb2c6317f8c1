import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '@trellis/domain';
import { EventChannel } from '@trellis/agent';
import { formatServerSentEvent, toEventStream } from './event-stream';

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('server-sent events', () => {
  it('formats one event per block, JSON on a single line', () => {
    const event: TurnEvent = { event: 'token', data: { text: 'two\nlines' } };
    expect(formatServerSentEvent(event)).toBe('event: token\ndata: {"text":"two\\nlines"}\n\n');
  });

  it('streams every event of the iterable, in order, then ends', async () => {
    const channel = new EventChannel<TurnEvent>();
    channel.push({ event: 'turn', data: { turn_index: 3, thread_id: 'th_a' } });
    const body = readAll(toEventStream(channel));
    channel.push({ event: 'token', data: { text: 'hi' } });
    channel.push({ event: 'done', data: { turn_index: 3, message_id: 'm1', status: 'complete', reason: null } });
    channel.close();
    expect(await body).toBe(
      'event: turn\ndata: {"turn_index":3,"thread_id":"th_a"}\n\n' +
        'event: token\ndata: {"text":"hi"}\n\n' +
        'event: done\ndata: {"turn_index":3,"message_id":"m1","status":"complete","reason":null}\n\n',
    );
  });

  it('sends a keep-alive comment while a slow model is silent, then the events', async () => {
    const channel = new EventChannel<TurnEvent>();
    const reader = toEventStream(channel, 10).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while ((text.match(/: keep-alive\n\n/g)?.length ?? 0) < 2) {
      const { value } = await reader.read();
      text += decoder.decode(value);
    }
    expect(text).toBe(': keep-alive\n\n: keep-alive\n\n');
    channel.push({ event: 'token', data: { text: 'late' } });
    channel.close();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value);
    expect(text.endsWith('event: token\ndata: {"text":"late"}\n\n')).toBe(true);
  });

  it('tells the producer when the client cancels the stream', async () => {
    let isCancelled = false;
    const channel = new EventChannel<TurnEvent>(() => {
      isCancelled = true;
    });
    channel.push({ event: 'token', data: { text: 'a' } });
    const reader = toEventStream(channel).getReader();
    await reader.read();
    await reader.cancel();
    expect(isCancelled).toBe(true);
    channel.push({ event: 'token', data: { text: 'late' } });
    expect(await channel.next()).toEqual({ value: undefined, done: true });
  });
});
