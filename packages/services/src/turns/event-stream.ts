import type { TurnEvent } from '@trellis/domain';

export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

/** One server-sent event: `event: <name>\ndata: <json>\n\n` (JSON never spans lines). */
export function formatServerSentEvent(event: TurnEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/**
 * A turn's events as a `text/event-stream` body. Cancelling the stream (the
 * client went away) returns the iterator, which interrupts the turn.
 */
export function toEventStream(events: AsyncIterable<TurnEvent>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(formatServerSentEvent(next.value)));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
