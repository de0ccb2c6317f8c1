// Drain on shutdown: once a stop is asked
// for, new turns, regenerations, branch creations and imports are refused with
// `unavailable` (503 + Retry-After); what is in flight gets a grace period to
// finish, then every turn still running is aborted — it keeps its partial
// reply as `interrupted`, with the reason, and releases its lease — and only
// then may the caller stop the database.
import { AppError } from '@trellis/domain';

export const SHUTDOWN_REASON = 'the server stopped during this reply';
/**
 * A turn aborted through its `signal` by a caller that drives the turn itself (a turn no longer ends
 * with its request's connection: see live/live-turns.ts). Replies stored before this round carry it
 * for a closed page or a Stop; the graph reads it, like REASON_STOPPED, as `stopped` (family-rows.ts).
 */
export const REASON_DISCONNECTED = 'the connection closed during this reply';
/** An explicit Stop (`POST …/turns/{k}/stop`): the reason the stopped reply is stored with. */
export const REASON_STOPPED = 'you stopped this reply';
/** What a refused client is told to wait before it tries again. */
export const RESTART_RETRY_SECONDS = 5;

/**
 * Marks a TurnInterruption whichever copy of this module made it: the studio bundles its start-up
 * code (whose gate drains the turns) and its route handlers (which run them) apart, so the drain's
 * interruption is no `instanceof` of the route's class (the same reason as `isAppError`'s mark).
 */
const TURN_INTERRUPTION_MARK: unique symbol = Symbol.for('trellis.TurnInterruption');

/** An abort reason that names why a turn stopped; the turn stores `message` as the reply's reason. */
export class TurnInterruption extends Error {
  readonly [TURN_INTERRUPTION_MARK] = true;

  constructor(reason: string) {
    super(reason);
    this.name = 'TurnInterruption';
  }
}

/** True for a TurnInterruption from any copy of this module. */
export function isTurnInterruption(value: unknown): value is TurnInterruption {
  return value instanceof Error && (value as { [TURN_INTERRUPTION_MARK]?: unknown })[TURN_INTERRUPTION_MARK] === true;
}

interface InFlight {
  kind: string;
  settled: Promise<unknown>;
  abort?: (reason: TurnInterruption) => void;
}

export interface DrainReport {
  /** Operations that finished within the grace period. */
  finished: number;
  /** Turns aborted when it ran out (each stored its partial reply). */
  aborted: number;
}

export class TurnGate {
  #draining = false;
  readonly #inFlight = new Set<InFlight>();
  /** The newest follow-up of each thread (each waits for the one before it). */
  readonly #followUps = new Map<string, Promise<void>>();

  get draining(): boolean {
    return this.#draining;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Throws `unavailable` once the process is draining. */
  admit(what: string): void {
    if (!this.#draining) return;
    throw new AppError('unavailable', `The studio is restarting; ${what} was not started. Try again in a few seconds.`, {
      details: { retry_after_seconds: RESTART_RETRY_SECONDS },
    });
  }

  /**
   * Runs `operation` as one in-flight unit the drain waits for. Refused while
   * draining. `abort` (turns) lets the drain stop it when the grace runs out.
   */
  async run<T>(kind: string, operation: () => Promise<T>): Promise<T> {
    this.admit(kind);
    const settled = operation();
    const entry: InFlight = { kind, settled };
    this.#inFlight.add(entry);
    try {
      return await settled;
    } finally {
      this.#inFlight.delete(entry);
    }
  }

  /** Registers a running turn until `settled` resolves; `abort` interrupts it. */
  track(settled: Promise<unknown>, abort: (reason: TurnInterruption) => void): void {
    const entry: InFlight = { kind: 'turn', settled, abort };
    this.#inFlight.add(entry);
    void settled.finally(() => this.#inFlight.delete(entry));
  }

  /**
   * Runs `work` for `threadId` once its turn has answered (the step change summary, which is not
   * part of the turn's latency): after the thread's earlier follow-ups, and drained like a turn.
   * Never rejects; `onError` sees a failure.
   */
  followUp(threadId: string, work: () => Promise<void>, onError: (error: unknown) => void): Promise<void> {
    const previous = this.#followUps.get(threadId) ?? Promise.resolve();
    const next = previous.then(work).catch(onError);
    this.#followUps.set(threadId, next);
    const entry: InFlight = { kind: 'follow-up', settled: next };
    this.#inFlight.add(entry);
    void next.finally(() => {
      this.#inFlight.delete(entry);
      if (this.#followUps.get(threadId) === next) this.#followUps.delete(threadId);
    });
    return next;
  }

  /** Settles once the follow-ups of these threads that this process is running have ended. */
  async followUpsOf(threadIds: Iterable<string>): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const threadId of threadIds) {
      const followUp = this.#followUps.get(threadId);
      if (followUp) pending.push(followUp);
    }
    if (pending.length > 0) await Promise.all(pending);
  }

  /**
   * Refuses new work, waits up to `graceMs` for what runs, aborts the turns
   * still running and waits for them to store their replies. Idempotent.
   */
  async drain(graceMs: number): Promise<DrainReport> {
    this.#draining = true;
    const running = [...this.#inFlight];
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace'>((resolve) => {
      timer = setTimeout(() => resolve('grace'), graceMs);
    });
    await Promise.race([Promise.allSettled(running.map((e) => e.settled)), graceOver]);
    clearTimeout(timer);
    const left = [...this.#inFlight];
    const interruption = new TurnInterruption(SHUTDOWN_REASON);
    for (const entry of left) entry.abort?.(interruption);
    // Aborted turns store their partial reply and release their lease quickly;
    // anything that cannot be aborted gets the same short bound. A turn that
    // settles queues its follow-up (the step change summary) as it ends: that
    // is in flight too, and must write before the caller stops the database.
    let lastTimer: NodeJS.Timeout | undefined;
    const lastBound = new Promise<'bound'>((resolve) => {
      lastTimer = setTimeout(() => resolve('bound'), Math.max(2_000, graceMs / 2));
    });
    for (let pending = left; pending.length > 0; pending = [...this.#inFlight]) {
      if ((await Promise.race([Promise.allSettled(pending.map((e) => e.settled)), lastBound])) === 'bound') break;
    }
    clearTimeout(lastTimer);
    const aborted = left.filter((e) => e.abort !== undefined).length;
    return { finished: running.length - left.length, aborted };
  }
}
