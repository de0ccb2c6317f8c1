// The turns this process is running, owned by the server rather than by the request that started
// them (docs/architecture.md, "A live family"): the request's SSE response is one subscriber, a tab
// that opens the path later is another (it first receives the reply so far), and closing either
// never stops the model. Stop is its own request (stop-turn.ts); the drain interrupts the rest.
import { EventChannel } from '@trellis/agent';
import { pieceEnd, type TurnEvent } from '@trellis/domain';
import { REASON_STOPPED, TurnInterruption } from '../turns/turn-gate';
import type { Logger } from '../logger';
import type { FamilyHub, FamilyNotification } from './family-hub';

export { REASON_STOPPED };

/** How often a turn that another process's tab watches sends its new text over the channel. */
const PROGRESS_EVERY_MS = 200;
/** NOTIFY payloads are capped at 8,000 bytes: text is sent in pieces of at most this many UTF-16 units. */
const PROGRESS_CHUNK = 1_800;

export class LiveTurn {
  /** The events so far, with consecutive tokens merged (a late subscriber gets the text in one piece). */
  readonly #history: TurnEvent[] = [];
  readonly #subscribers = new Set<EventChannel<TurnEvent>>();
  #text = '';
  #isEnded = false;
  /** Progress over the channel, for a tab served by another process; starts when one asks. */
  #published = 0;
  #publisher: NodeJS.Timeout | undefined;

  constructor(
    readonly threadId: string,
    readonly turnIndex: number,
    private readonly interrupt: (reason: TurnInterruption) => void,
    private readonly hub: FamilyHub | null,
    private readonly familyId: string | null,
  ) {}

  get text(): string {
    return this.#text;
  }

  /** The reply so far, as a page rendered now shows it: its text and its tool calls, in order. */
  soFar(): { text: string; tools: Extract<TurnEvent, { event: 'tool' }>['data'][] } {
    const tools = this.#history.flatMap((event) => (event.event === 'tool' ? [event.data] : []));
    return { text: this.#text, tools };
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  push(event: TurnEvent): void {
    if (this.#isEnded) return;
    const last = this.#history.at(-1);
    if (event.event === 'token') {
      this.#text += event.data.text;
      if (last?.event === 'token') this.#history[this.#history.length - 1] = { event: 'token', data: { text: last.data.text + event.data.text } };
      else this.#history.push({ event: 'token', data: { text: event.data.text } });
    } else {
      this.#history.push(event);
    }
    for (const subscriber of this.#subscribers) subscriber.push(event);
  }

  /** The events so far, then the live ones; ending the iteration only unsubscribes. */
  subscribe(): AsyncIterableIterator<TurnEvent> {
    const channel: EventChannel<TurnEvent> = new EventChannel<TurnEvent>(() => this.#subscribers.delete(channel));
    for (const event of this.#history) channel.push(event);
    if (this.#isEnded) channel.close();
    else this.#subscribers.add(channel);
    return channel;
  }

  stop(reason: string): void {
    this.interrupt(new TurnInterruption(reason));
  }

  /** Another process's tab watches this turn: send the text from `offset`, then what follows, until the end. */
  publishFrom(offset: number): void {
    if (!this.hub || !this.familyId || this.#isEnded) return;
    this.#published = Math.min(this.#published, Math.max(0, offset));
    void this.#publish();
    this.#publisher ??= setInterval(() => void this.#publish(), PROGRESS_EVERY_MS);
    this.#publisher.unref();
  }

  async #publish(): Promise<void> {
    const hub = this.hub;
    const family = this.familyId;
    if (!hub || !family) return;
    while (this.#published < this.#text.length) {
      const offset = this.#published;
      // never split a surrogate pair between two notifications
      const end = pieceEnd(this.#text, offset, PROGRESS_CHUNK);
      this.#published = end;
      const notification: FamilyNotification = {
        family,
        thread: this.threadId,
        kind: 'turn_progress',
        turn: this.turnIndex,
        offset,
        text: this.#text.slice(offset, end),
      };
      await hub.notify(notification).catch(() => undefined);
    }
  }

  end(): void {
    if (this.#isEnded) return;
    clearInterval(this.#publisher);
    void this.#publish();
    this.#isEnded = true;
    for (const subscriber of this.#subscribers) subscriber.close();
    this.#subscribers.clear();
  }
}

/** The running turns of this process, by thread (one turn per thread: the lease). */
export class LiveTurns {
  readonly #turns = new Map<string, LiveTurn>();

  constructor(
    private readonly hub: FamilyHub | null,
    private readonly logger?: Logger,
  ) {
    hub?.onNotification((n) => this.#onNotification(n));
  }

  open(threadId: string, turnIndex: number, familyId: string | null, interrupt: (reason: TurnInterruption) => void): LiveTurn {
    // A Stop pressed on a tab another process serves arrives over the channel: listen (once, off the hot path).
    this.hub?.start().catch((error: unknown) => this.logger?.warn({ err: error }, 'family channel: could not listen'));
    const turn = new LiveTurn(threadId, turnIndex, interrupt, this.hub, familyId);
    this.#turns.set(threadId, turn);
    return turn;
  }

  close(turn: LiveTurn): void {
    turn.end();
    if (this.#turns.get(turn.threadId) === turn) this.#turns.delete(turn.threadId);
  }

  get(threadId: string, turnIndex?: number): LiveTurn | undefined {
    const turn = this.#turns.get(threadId);
    return turn && (turnIndex === undefined || turn.turnIndex === turnIndex) ? turn : undefined;
  }

  get size(): number {
    return this.#turns.size;
  }

  /** Stops this process's turn `turnIndex` of the thread; false when it does not run here. */
  stop(threadId: string, turnIndex: number, reason = REASON_STOPPED): boolean {
    const turn = this.get(threadId, turnIndex);
    if (!turn) return false;
    turn.stop(reason);
    return true;
  }

  #onNotification(notification: FamilyNotification): void {
    // Stop pressed on a tab another process serves: the turn runs here.
    if (notification.kind === 'stop_requested' && typeof notification.turn === 'number') {
      this.stop(notification.thread, notification.turn);
      return;
    }
    if (notification.kind === 'turn_replay' && typeof notification.turn === 'number') {
      this.get(notification.thread, notification.turn)?.publishFrom(notification.offset ?? 0);
    }
  }
}
