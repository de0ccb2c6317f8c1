import type { FamilyEvent } from '@trellis/domain';

/**
 * A message of the family stream that is not a row of the record: a live editor's document updates
 * (the change log is their record) or who is here (`presence`). Sent as it happens, never replayed.
 */
export interface FamilySignal {
  event: 'document_updates' | 'presence';
  data: Record<string, unknown>;
}

/**
 * Why a subscription ended: its consumer closed it, it fell too far behind, or the hub closed (the
 * client reconnects); an event said its subscriber's access changed (`endAfter`; the events queued
 * before still arrive); or its access ended, or its user opened too many streams (it must not).
 */
export type SubscriptionEnd = 'closed' | 'slow' | 'hub_closed' | 'access_changed' | StreamEndReason;

/** Ends after which the client must not reconnect on its own: the stream says why, then closes. */
export type StreamEndReason = 'access_revoked' | 'signed_out' | 'access_removed' | 'too_many_streams';

export const FINAL_ENDS: ReadonlySet<SubscriptionEnd> = new Set<StreamEndReason>([
  'access_revoked',
  'signed_out',
  'access_removed',
  'too_many_streams',
]);

/** Who holds a stream: the user, and the session or API token the stream was opened with. */
export interface StreamHolder {
  userId: string;
  sessionId?: string | undefined;
  tokenId?: string | undefined;
}

export interface SubscriptionOptions {
  /** An event after which this subscriber must stop listening (its role in the family changed). */
  endAfter?: ((event: FamilyEvent) => boolean) | undefined;
  /** Who holds the stream: counted against the user's streams, ended by `FamilyHub.endStreams`. */
  holder?: StreamHolder | null | undefined;
}

/** The stream was asked to resume further back than a stream replays: it starts from now instead. */
export interface StreamReset {
  reason: 'too_far_behind';
  /** The id the stream resumes after (the client's next `Last-Event-ID`). */
  lastEventId: number;
  /** How many events the client missed, at least (counting stops past the replay limit). */
  missed: number;
}

/**
 * One subscriber of a family's events: a bounded queue read as an async iterable. Events are
 * delivered at most once each and in id order (an id at or below the last one delivered is skipped),
 * so a replay from the database and the live fan-out may overlap freely. A consumer that lets more
 * than `maxQueued` events pile up is ended with `slow`: it reconnects with its last id and catches
 * up from the database, and nobody else waits for it.
 */
export class FamilySubscription implements AsyncIterableIterator<FamilyEvent> {
  #lastId: number;
  readonly #queue: FamilyEvent[] = [];
  #waiting: ((result: IteratorResult<FamilyEvent>) => void) | undefined;
  #ended: SubscriptionEnd | null = null;
  /** While replaying from the database, live events wait here (then pass the same id filter). */
  #held: FamilyEvent[] | null = [];
  readonly #onEnd: (subscription: FamilySubscription) => void;
  readonly #signalListeners = new Set<(signal: FamilySignal) => void>();
  /** Set when the stream starts from now instead of the client's last id; the stream tells it first. */
  reset: StreamReset | null = null;
  /** Whether the holder may still read (its session or token still stands); the hub asks on demand. */
  recheck: (() => Promise<boolean>) | null = null;
  readonly #endAfter: SubscriptionOptions['endAfter'];
  readonly holder: StreamHolder | null;

  constructor(
    readonly familyId: string,
    lastId: number,
    private readonly maxQueued: number,
    onEnd: (subscription: FamilySubscription) => void,
    options: SubscriptionOptions = {},
  ) {
    this.#lastId = lastId;
    this.#onEnd = onEnd;
    this.#endAfter = options.endAfter;
    this.holder = options.holder ?? null;
  }

  get lastId(): number {
    return this.#lastId;
  }

  get ended(): SubscriptionEnd | null {
    return this.#ended;
  }

  get queued(): number {
    return this.#queue.length;
  }

  /** A live event from the fan-out. */
  offer(event: FamilyEvent): void {
    if (this.#ended) return;
    if (this.#held) {
      this.#held.push(event);
      if (this.#held.length > this.maxQueued) this.end('slow');
      return;
    }
    this.#deliver(event);
  }

  /** A signal for whoever reads this subscription (the event stream writes it out at once). */
  signal(signal: FamilySignal): void {
    if (this.#ended) return;
    for (const listener of this.#signalListeners) listener(signal);
  }

  onSignal(listener: (signal: FamilySignal) => void): () => void {
    this.#signalListeners.add(listener);
    return () => this.#signalListeners.delete(listener);
  }

  /** Events read from the database while catching up (in id order). */
  replay(events: readonly FamilyEvent[]): void {
    for (const event of events) this.#deliver(event);
  }

  /** The replay is over: what the fan-out offered meanwhile follows it. */
  goLive(): void {
    const held = this.#held ?? [];
    this.#held = null;
    for (const event of held) this.#deliver(event);
  }

  #deliver(event: FamilyEvent): void {
    if (this.#ended || event.id <= this.#lastId) return;
    this.#lastId = event.id;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = undefined;
      resolve({ value: event, done: false });
    } else {
      this.#queue.push(event);
      if (this.#queue.length > this.maxQueued) {
        this.end('slow');
        return;
      }
    }
    if (this.#endAfter?.(event)) this.end('access_changed');
  }

  end(reason: SubscriptionEnd): void {
    if (this.#ended) return;
    this.#ended = reason;
    // The event that changed access is the last thing its subscriber hears; anything else drops the queue.
    if (reason !== 'access_changed') this.#queue.length = 0;
    this.#held = null;
    this.#signalListeners.clear();
    const resolve = this.#waiting;
    this.#waiting = undefined;
    resolve?.({ value: undefined, done: true });
    this.#onEnd(this);
  }

  next(): Promise<IteratorResult<FamilyEvent>> {
    const event = this.#queue.shift();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<FamilyEvent>> {
    this.end('closed');
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<FamilyEvent> {
    return this;
  }
}
