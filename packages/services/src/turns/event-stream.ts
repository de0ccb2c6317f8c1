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

/** How often an idle stream sends an SSE comment, so proxies keep a slow model's connection open. */
export const KEEP_ALIVE_MS = 15_000;

/**
 * A turn's events as a `text/event-stream` body. Cancelling the stream (the
 * client went away) returns the iterator, which interrupts the turn. While no
 * event arrives for KEEP_ALIVE_MS, a `: keep-alive` comment is sent (clients ignore it).
 */
export function toEventStream(events: AsyncIterable<TurnEvent>, keepAliveMs = KEEP_ALIVE_MS): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      timer = setInterval(() => controller.enqueue(encoder.encode(': keep-alive\n\n')), keepAliveMs);
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(formatServerSentEvent(next.value)));
      } finally {
        clearInterval(timer);
      }
    },
    async cancel() {
      clearInterval(timer);
      await iterator.return?.();
    },
  });
}
