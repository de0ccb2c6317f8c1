// One studio process's ear on the family channel (docs/architecture.md, "A live family"): ONE
// dedicated PostgreSQL connection LISTENs on `trellis_family`; a notification names a family and an
// event id, the hub reads that family's new rows (once, however many subscribers it has) and fans
// them out in memory. When the connection drops it reconnects with a backoff and reads every
// subscribed family's rows after the last id it delivered, so nothing committed meanwhile is lost.
import postgres from 'postgres';
import { AppError, type FamilyEvent } from '@trellis/domain';
import type { Db } from '@trellis/db';
import type { Logger } from '../logger';
import { countFamilyEventsAfter, FAMILY_CHANNEL, lastFamilyEventId, readFamilyEvents } from './family-events';
import { FamilySubscription, type FamilySignal, type StreamEndReason, type SubscriptionOptions } from './family-subscription';

/**
 * Which open streams to end: every stream opened with a session, with an API token, every stream
 * of a user, or a user's streams of one family (a member removed from it).
 */
export type StreamMatch = { sessionId: string } | { tokenId: string } | { userId: string; familyId?: string | undefined };

/** A notification on the channel. `event` names a `family_events` row; other shapes carry their own data. */
export interface FamilyNotification {
  family: string;
  thread: string;
  kind: string;
  /** A `family_events` id (this module's events). */
  event?: number;
  /** The write path's change seq: its own row, not a family event (workspace changes are covered by `workspace_changed`). */
  seq?: number;
  /** A change's document versions (`{version, updates?}`), for the live editors of the thread. */
  doc?: { version: number; updates?: unknown[] } | null;
  /** `turn_progress` / `turn_replay`: the turn, the reply's UTF-16 offset and the text from there. */
  turn?: number;
  offset?: number;
  text?: string;
  /** `end_streams` / `recheck_streams`: which streams every process ends (or asks), and why. */
  match?: StreamMatch;
  reason?: StreamEndReason;
}

export interface FamilyHubOptions {
  databaseUrl: string;
  db: Db;
  logger: Logger;
  /**
   * A subscriber with more queued events than this is ended as slow (default 1,000); a client that
   * resumes further behind than this is reset to now (it reloads) instead of replayed.
   */
  maxQueued?: number;
  /** Streams one user may hold on this process; the oldest is closed past it (default 50). */
  maxStreamsPerUser?: number;
  /** First and longest wait between reconnection attempts, and between tries of a failed read. */
  reconnectMs?: { first: number; max: number };
}

type NotificationListener = (notification: FamilyNotification) => void;

interface FamilyState {
  subscribers: Set<FamilySubscription>;
  /** The newest id this process has read for the family (rows after it are read on the next notification). */
  cursor: number;
  ready: Promise<void>;
  /** Subscribes under way: the state stays while one is (a read finding no subscriber yet must not drop it). */
  joining: number;
  reading: boolean;
  readAgain: boolean;
  /** A failed read's next try (a backoff like the connection's), and how many failed in a row. */
  retryTimer: NodeJS.Timeout | undefined;
  failedReads: number;
}

const PAGE = 500;

export class FamilyHub {
  readonly #options: FamilyHubOptions;
  readonly #families = new Map<string, FamilyState>();
  readonly #listeners = new Set<NotificationListener>();
  /** Each user's open streams, oldest first. */
  readonly #byUser = new Map<string, Set<FamilySubscription>>();
  #connection: postgres.Sql | null = null;
  #listening: Promise<void> | null = null;
  #isClosed = false;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #reconnects = 0;

  constructor(options: FamilyHubOptions) {
    this.#options = options;
  }

  /** How many times the LISTEN connection was re-established (tests and logs). */
  get reconnects(): number {
    return this.#reconnects;
  }

  get subscriberCount(): number {
    let count = 0;
    for (const family of this.#families.values()) count += family.subscribers.size;
    return count;
  }

  /** Opens the LISTEN connection (once); resolves when the process is listening. */
  start(): Promise<void> {
    if (this.#isClosed) return Promise.reject(new Error('the family hub is closed'));
    this.#listening ??= this.#listen().catch((error: unknown) => {
      this.#listening = null;
      throw error;
    });
    return this.#listening;
  }

  /**
   * A subscriber of `familyId`'s events. With `lastEventId` it first receives every event after it
   * from the database, in order, then the live ones; without, only events from now on. A last id
   * newer than the family's newest event is a 422 (a stream that would never deliver); one more
   * than `maxQueued` events behind starts from now with `reset` set (the client reloads once).
   * A `holder` counts against its user's streams (the oldest closes past the cap) and can be ended
   * by `endStreams`.
   */
  async subscribe(familyId: string, lastEventId: number | null, options: SubscriptionOptions = {}): Promise<FamilySubscription> {
    await this.start();
    const family = this.#family(familyId);
    family.joining += 1;
    try {
      return await this.#join(family, familyId, lastEventId, options);
    } finally {
      family.joining -= 1;
      this.#forgetIfIdle(familyId, family);
    }
  }

  async #join(family: FamilyState, familyId: string, lastEventId: number | null, options: SubscriptionOptions): Promise<FamilySubscription> {
    await family.ready;
    const maxQueued = this.#options.maxQueued ?? 1_000;
    if (lastEventId !== null && lastEventId > family.cursor) {
      const newest = await lastFamilyEventId(this.#options.db, familyId);
      if (lastEventId > newest) {
        throw AppError.validation(
          [{ path: 'last_event_id', message: `is newer than the family's newest event (${newest})` }],
          'The last event id is from the future: reconnect without it',
        );
      }
    }
    let startAfter = lastEventId ?? family.cursor;
    let reset: FamilySubscription['reset'] = null;
    if (lastEventId !== null && lastEventId < family.cursor) {
      const missed = await countFamilyEventsAfter(this.#options.db, familyId, lastEventId, maxQueued + 1);
      if (missed > maxQueued) {
        startAfter = family.cursor;
        reset = { reason: 'too_far_behind', lastEventId: family.cursor, missed };
      }
    }
    const subscription = new FamilySubscription(familyId, startAfter, maxQueued, (s) => this.#unsubscribe(s), options);
    subscription.reset = reset;
    family.subscribers.add(subscription);
    this.#hold(subscription);
    if (reset === null && lastEventId !== null && lastEventId < family.cursor) {
      try {
        for (let after = lastEventId; ; ) {
          const page = await readFamilyEvents(this.#options.db, familyId, after, PAGE);
          subscription.replay(page);
          if (page.length < PAGE || subscription.ended) break;
          after = page.at(-1)!.id;
        }
      } catch (error) {
        subscription.end('closed');
        throw error;
      }
    }
    subscription.goLive();
    return subscription;
  }

  /**
   * Ends the open streams `match` names, on every studio process: here at once, elsewhere when the
   * channel delivers (a notification, well under a second). For access that ended — a revoked
   * token, a signed-out session, a changed password, a member removed from a family — so no stream
   * outlives the right that opened it. Resolves with how many streams this process ended.
   */
  async endStreams(match: StreamMatch, reason: StreamEndReason): Promise<number> {
    const ended = this.endLocalStreams(match, reason);
    await this.notify({ family: '', thread: '', kind: 'end_streams', match, reason });
    return ended;
  }

  /** `endStreams` on this process only. */
  endLocalStreams(match: StreamMatch, reason: StreamEndReason): number {
    const matching = this.#matching(match);
    for (const subscription of matching) subscription.end(reason);
    return matching.length;
  }

  #matching(match: StreamMatch): FamilySubscription[] {
    const matches = (s: FamilySubscription): boolean => {
      const holder = s.holder;
      if (!holder) return false;
      if ('sessionId' in match) return holder.sessionId === match.sessionId;
      if ('tokenId' in match) return holder.tokenId === match.tokenId;
      return holder.userId === match.userId && (match.familyId === undefined || s.familyId === match.familyId);
    };
    const candidates =
      'userId' in match ? [...(this.#byUser.get(match.userId) ?? [])] : [...this.#byUser.values()].flatMap((set) => [...set]);
    return candidates.filter(matches);
  }

  /**
   * Asks every stream `match` names whether its holder may still read, on every process, and ends
   * those that may not: after a change that ends some of a user's access but not all of it (a
   * changed password ends the other sessions; the one that changed it stays signed in).
   */
  async recheckStreams(match: StreamMatch, reason: StreamEndReason): Promise<void> {
    void this.recheckLocalStreams(match, reason);
    await this.notify({ family: '', thread: '', kind: 'recheck_streams', match, reason });
  }

  /** `recheckStreams` on this process only; resolves when every check has answered. */
  async recheckLocalStreams(match: StreamMatch, reason: StreamEndReason): Promise<void> {
    await Promise.all(
      this.#matching(match).map(async (subscription) => {
        const isAllowed = subscription.recheck ? await subscription.recheck().catch(() => false) : true;
        if (!isAllowed) subscription.end(reason);
      }),
    );
  }

  /** How many streams `userId` holds on this process. */
  streamsOf(userId: string): number {
    return this.#byUser.get(userId)?.size ?? 0;
  }

  /** Every notification on the channel (turn progress, stop requests…), whoever it concerns. */
  onNotification(listener: NotificationListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The families this process has subscribers of. */
  subscribedFamilies(): string[] {
    return [...this.#families.entries()].filter(([, family]) => family.subscribers.size > 0).map(([id]) => id);
  }

  /** Hands a signal to every subscriber of the family on this process. */
  signal(familyId: string, signal: FamilySignal): void {
    const family = this.#families.get(familyId);
    if (!family) return;
    for (const subscription of [...family.subscribers]) subscription.signal(signal);
  }

  /** Sends a notification that has no row (a turn's progress): best effort, off any transaction. */
  async notify(notification: FamilyNotification): Promise<void> {
    await this.#options.db.$client`select pg_notify(${FAMILY_CHANNEL}, ${JSON.stringify(notification)})`;
  }

  /** The backend pid of the LISTEN connection (tests terminate it). */
  async listenerPid(): Promise<number | null> {
    if (!this.#connection) return null;
    const [row] = await this.#connection<{ pid: number }[]>`select pg_backend_pid() as pid`;
    return row?.pid ?? null;
  }

  async close(): Promise<void> {
    this.#isClosed = true;
    clearTimeout(this.#reconnectTimer);
    for (const family of this.#families.values()) {
      clearTimeout(family.retryTimer);
      for (const s of [...family.subscribers]) s.end('hub_closed');
    }
    this.#families.clear();
    const connection = this.#connection;
    this.#connection = null;
    await connection?.end({ timeout: 1 });
  }

  async #listen(): Promise<void> {
    // `onnotify` is the option postgres.js's own `listen` uses; its type declarations omit it.
    const onnotify = (channel: string, payload: string) => {
      if (channel === FAMILY_CHANNEL) this.#onPayload(payload);
    };
    const connection = postgres(this.#options.databaseUrl, {
      ...({ onnotify } as object),
      max: 1,
      idle_timeout: 0,
      max_lifetime: null,
      fetch_types: false,
      onnotice: () => undefined,
      connection: { application_name: 'trellis-family-listen' },
      onclose: () => {
        if (!this.#isClosed && this.#connection === connection) this.#scheduleReconnect(connection);
      },
    });
    this.#connection = connection;
    await connection.unsafe(`listen ${FAMILY_CHANNEL}`);
  }

  #scheduleReconnect(connection: postgres.Sql, attempt = 0): void {
    this.#reconnectTimer = setTimeout(() => {
      if (this.#isClosed) return;
      // The same client reconnects on its next query; LISTEN is per session, so it is sent again.
      connection.unsafe(`listen ${FAMILY_CHANNEL}`).then(
        () => {
          this.#reconnects += 1;
          this.#options.logger.info({ attempt }, 'family channel: listening again; catching up');
          for (const familyId of this.#families.keys()) this.#read(familyId);
        },
        (error: unknown) => {
          this.#options.logger.warn({ err: error, attempt }, 'family channel: reconnection failed');
          this.#scheduleReconnect(connection, attempt + 1);
        },
      );
    }, this.#backoff(attempt));
    this.#reconnectTimer.unref();
  }

  /** The wait before try `attempt` + 1 (from 0): doubling from the first wait up to the longest. */
  #backoff(attempt: number): number {
    const { first, max } = this.#options.reconnectMs ?? { first: 50, max: 5_000 };
    return Math.min(max, first * 2 ** attempt);
  }

  #onPayload(payload: string): void {
    let notification: FamilyNotification;
    try {
      notification = JSON.parse(payload) as FamilyNotification;
    } catch {
      return;
    }
    if (typeof notification.family !== 'string') return;
    if (notification.kind === 'end_streams' && notification.match && notification.reason) {
      this.endLocalStreams(notification.match, notification.reason);
      return;
    }
    if (notification.kind === 'recheck_streams' && notification.match && notification.reason) {
      void this.recheckLocalStreams(notification.match, notification.reason);
      return;
    }
    for (const listener of this.#listeners) {
      try {
        listener(notification);
      } catch (error) {
        this.#options.logger.warn({ err: error }, 'family channel: a listener failed');
      }
    }
    // A change's document versions go to the live editors as they are: the version orders them, so
    // an editor that missed one reads the gap from the change log.
    if (notification.kind === 'change' && notification.doc && this.#families.has(notification.family)) {
      this.signal(notification.family, { event: 'document_updates', data: { thread_id: notification.thread, ...notification.doc } });
    }
    // Only rows of this module's table are read; the write path's `seq` notifications name its own
    // change rows, which `workspace_changed` events already announce.
    if (typeof notification.event === 'number' && this.#families.has(notification.family)) this.#read(notification.family);
  }

  #family(familyId: string): FamilyState {
    let family = this.#families.get(familyId);
    if (!family) {
      const state: FamilyState = {
        subscribers: new Set(),
        cursor: 0,
        ready: Promise.resolve(),
        joining: 0,
        reading: false,
        readAgain: false,
        retryTimer: undefined,
        failedReads: 0,
      };
      state.ready = lastFamilyEventId(this.#options.db, familyId).then((id) => {
        state.cursor = Math.max(state.cursor, id);
      });
      state.ready.catch(() => this.#families.get(familyId) === state && this.#families.delete(familyId));
      family = state;
      this.#families.set(familyId, family);
    }
    return family;
  }

  /** Counts the stream against its user's; past the cap the user's oldest stream is closed. */
  #hold(subscription: FamilySubscription): void {
    const userId = subscription.holder?.userId;
    if (userId === undefined) return;
    let held = this.#byUser.get(userId);
    if (!held) {
      held = new Set();
      this.#byUser.set(userId, held);
    }
    held.add(subscription);
    const max = this.#options.maxStreamsPerUser ?? 50;
    for (const oldest of held) {
      if (held.size <= max) break;
      oldest.end('too_many_streams');
    }
  }

  #unsubscribe(subscription: FamilySubscription): void {
    const userId = subscription.holder?.userId;
    if (userId !== undefined) {
      const held = this.#byUser.get(userId);
      held?.delete(subscription);
      if (held?.size === 0) this.#byUser.delete(userId);
    }
    const family = this.#families.get(subscription.familyId);
    if (!family) return;
    family.subscribers.delete(subscription);
    this.#forgetIfIdle(subscription.familyId, family);
  }

  /** Drops a family's state once nothing holds it: no subscriber, none joining, no read running. */
  #forgetIfIdle(familyId: string, family: FamilyState): void {
    if (family.subscribers.size > 0 || family.joining > 0 || family.reading) return;
    clearTimeout(family.retryTimer);
    if (this.#families.get(familyId) === family) this.#families.delete(familyId);
  }

  /**
   * Reads the family's rows after its cursor and fans them out; one read at a time per family. A read
   * that fails (the database restarting, a dropped connection) is tried again after a backoff: the
   * family may hear no other notification for a long while, and its streams must not wait for one.
   */
  #read(familyId: string): void {
    const family = this.#families.get(familyId);
    if (!family) return;
    clearTimeout(family.retryTimer);
    family.retryTimer = undefined;
    if (family.reading) {
      family.readAgain = true;
      return;
    }
    family.reading = true;
    void (async () => {
      try {
        await family.ready;
        do {
          family.readAgain = false;
          for (;;) {
            const page = await readFamilyEvents(this.#options.db, familyId, family.cursor, PAGE);
            if (page.length === 0) break;
            family.cursor = page.at(-1)!.id;
            this.#fanOut(family, page);
            if (page.length < PAGE) break;
          }
        } while (family.readAgain);
        family.failedReads = 0;
      } catch (error) {
        this.#options.logger.warn({ err: error, familyId, attempt: family.failedReads }, 'family channel: reading events failed');
        if (!this.#isClosed) {
          family.retryTimer = setTimeout(() => this.#read(familyId), this.#backoff(family.failedReads));
          family.retryTimer.unref();
          family.failedReads += 1;
        }
      } finally {
        family.reading = false;
        this.#forgetIfIdle(familyId, family);
      }
    })();
  }

  #fanOut(family: FamilyState, events: readonly FamilyEvent[]): void {
    for (const subscription of [...family.subscribers]) for (const event of events) subscription.offer(event);
  }
}
