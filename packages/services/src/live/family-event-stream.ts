import type { FamilyEvent } from '@trellis/domain';
import { KEEP_ALIVE_MS } from '../turns/event-stream';
import { FINAL_ENDS, type FamilySignal, type FamilySubscription, type StreamReset } from './family-subscription';

/** One family event as SSE: its id (for `Last-Event-ID`), its kind as the event name, the row as data. */
export function formatFamilyEvent(event: FamilyEvent): string {
  return `id: ${event.id}\nevent: ${event.kind}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** A signal as SSE: no id (it is not replayed; the last event id stays the record's), its name as the event. */
export function formatFamilySignal(signal: FamilySignal): string {
  return `event: ${signal.event}\ndata: ${JSON.stringify(signal.data)}\n\n`;
}

/**
 * The stream starts from now, not from the client's last id (it was too far behind to replay): the
 * client reloads what it shows, once, and resumes after the reset's id.
 */
export function formatReset(reset: StreamReset): string {
  return `id: ${reset.lastEventId}\nevent: reset\ndata: ${JSON.stringify({ reason: reset.reason, last_event_id: reset.lastEventId, missed: reset.missed })}\n\n`;
}

/** The stream ends for good (access ended, too many streams): the client must not reconnect on its own. */
export function formatEnd(reason: string): string {
  return `event: end\ndata: ${JSON.stringify({ reason })}\n\n`;
}

export interface FamilyStreamOptions {
  keepAliveMs?: number;
  /** Whether the caller may still read (a revoked session or token ends the stream). */
  recheck?: () => Promise<boolean>;
  recheckEveryMs?: number;
  /** How long a client waits before it reconnects (the SSE `retry:` field). */
  retryMs?: number;
}

/**
 * A family subscription as a `text/event-stream` body: a `: keep-alive` comment every
 * `keepAliveMs` (proxies close idle connections), `recheck` every `recheckEveryMs` (false ends the
 * stream), and the end of the subscription (a slow consumer, the process stopping) ends the body —
 * the client reconnects with its last id and catches up from the database.
 */
export function toFamilyEventStream(subscription: FamilySubscription, options: FamilyStreamOptions = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const timers: NodeJS.Timeout[] = [];
  let isClosed = false;
  const finish = (controller?: ReadableStreamDefaultController<Uint8Array>) => {
    if (isClosed) return;
    isClosed = true;
    for (const timer of timers) clearInterval(timer);
    subscription.end('closed');
    try {
      controller?.close();
    } catch {
      // already closed by the consumer
    }
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`retry: ${options.retryMs ?? 2_000}\n: connected\n\n`));
      if (subscription.reset) controller.enqueue(encoder.encode(formatReset(subscription.reset)));
      timers.push(
        setInterval(() => {
          if (!isClosed) controller.enqueue(encoder.encode(': keep-alive\n\n'));
        }, options.keepAliveMs ?? KEEP_ALIVE_MS),
      );
      const recheck = options.recheck;
      if (recheck) {
        // The hub asks too, at once, when a session or token of this user loses access.
        subscription.recheck = recheck;
        timers.push(
          setInterval(() => {
            recheck().then(
              (isAllowed) => !isAllowed && subscription.end('access_revoked'),
              () => undefined,
            );
          }, options.recheckEveryMs ?? 30_000),
        );
      }
      for (const timer of timers) timer.unref();
      subscription.onSignal((signal) => {
        if (!isClosed) controller.enqueue(encoder.encode(formatFamilySignal(signal)));
      });
    },
    async pull(controller) {
      const next = await subscription.next();
      if (isClosed) return;
      if (next.done) {
        const reason = subscription.ended;
        if (reason !== null && FINAL_ENDS.has(reason)) controller.enqueue(encoder.encode(formatEnd(reason)));
        finish(controller);
      }
      else controller.enqueue(encoder.encode(formatFamilyEvent(next.value)));
    },
    cancel() {
      finish();
    },
  });
}
