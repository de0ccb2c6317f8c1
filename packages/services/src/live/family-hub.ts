// One studio process's ear on the family channel (docs/architecture.md, "A live family"): ONE
// dedicated PostgreSQL connection LISTENs on `trellis_family`; a notification names a family and an
// event id, the hub reads that family's new rows (once, however many subscribers it has) and fans
// them out in memory. When the connection drops it reconnects with a backoff and reads every
// subscribed family's rows after the last id it delivered, so nothing committed meanwhile is lost.
import postgres from 'postgres';
import type { FamilyEvent } from '@trellis/domain';
import type { Db } from '@trellis/db';
import type { Logger } from '../deps';
import { FAMILY_CHANNEL, lastFamilyEventId, readFamilyEvents } from './family-events';
import { FamilySubscription, type SubscriptionOptions } from './family-subscription';

/** A notification on the channel. `event` names a `family_events` row; other shapes carry their own data. */
export interface FamilyNotification {
  family: string;
  thread: string;
  kind: string;
  /** A `family_events` id (this module's events). */
  event?: number;
  /** The write path's change seq: its own row, not a family event (workspace changes are covered by `workspace_changed`). */
  seq?: number;
  /** `turn_progress` / `turn_replay`: the turn, the reply's UTF-16 offset and the text from there. */
  turn?: number;
  offset?: number;
  text?: string;
}

export interface FamilyHubOptions {
  databaseUrl: string;
  db: Db;
  logger: Logger;
  /** A subscriber with more queued events than this is ended as slow (default 1,000). */
  maxQueued?: number;
  /** First and longest wait between reconnection attempts. */
  reconnectMs?: { first: number; max: number };
}

type NotificationListener = (notification: FamilyNotification) => void;

interface FamilyState {
  subscribers: Set<FamilySubscription>;
  /** The newest id this process has read for the family (rows after it are read on the next notification). */
  cursor: number;
  ready: Promise<void>;
  reading: boolean;
  readAgain: boolean;
}

const PAGE = 500;

export class FamilyHub {
  readonly #options: FamilyHubOptions;
  readonly #families = new Map<string, FamilyState>();
  readonly #listeners = new Set<NotificationListener>();
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
   * from the database, in order, then the live ones; without, only events from now on.
   */
  async subscribe(familyId: string, lastEventId: number | null, options: SubscriptionOptions = {}): Promise<FamilySubscription> {
    await this.start();
    const family = this.#family(familyId);
    await family.ready;
    const subscription = new FamilySubscription(
      familyId,
      lastEventId ?? family.cursor,
      this.#options.maxQueued ?? 1_000,
      (s) => this.#unsubscribe(s),
      options,
    );
    family.subscribers.add(subscription);
    if (lastEventId !== null && lastEventId < family.cursor) {
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

  /** Every notification on the channel (turn progress, stop requests…), whoever it concerns. */
  onNotification(listener: NotificationListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
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
    for (const family of this.#families.values()) for (const s of [...family.subscribers]) s.end('hub_closed');
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
    const { first, max } = this.#options.reconnectMs ?? { first: 50, max: 5_000 };
    const wait = Math.min(max, first * 2 ** attempt);
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
    }, wait);
    this.#reconnectTimer.unref();
  }

  #onPayload(payload: string): void {
    let notification: FamilyNotification;
    try {
      notification = JSON.parse(payload) as FamilyNotification;
    } catch {
      return;
    }
    if (typeof notification.family !== 'string') return;
    for (const listener of this.#listeners) {
      try {
        listener(notification);
      } catch (error) {
        this.#options.logger.warn({ err: error }, 'family channel: a listener failed');
      }
    }
    // Only rows of this module's table are read; the write path's `seq` notifications name its own
    // change rows, which `workspace_changed` events already announce.
    if (typeof notification.event === 'number' && this.#families.has(notification.family)) this.#read(notification.family);
  }

  #family(familyId: string): FamilyState {
    let family = this.#families.get(familyId);
    if (!family) {
      const state: FamilyState = { subscribers: new Set(), cursor: 0, ready: Promise.resolve(), reading: false, readAgain: false };
      state.ready = lastFamilyEventId(this.#options.db, familyId).then((id) => {
        state.cursor = Math.max(state.cursor, id);
      });
      state.ready.catch(() => this.#families.get(familyId) === state && this.#families.delete(familyId));
      family = state;
      this.#families.set(familyId, family);
    }
    return family;
  }

  #unsubscribe(subscription: FamilySubscription): void {
    const family = this.#families.get(subscription.familyId);
    if (!family) return;
    family.subscribers.delete(subscription);
    if (family.subscribers.size === 0 && !family.reading) this.#families.delete(subscription.familyId);
  }

  /** Reads the family's rows after its cursor and fans them out; one read at a time per family. */
  #read(familyId: string): void {
    const family = this.#families.get(familyId);
    if (!family) return;
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
      } catch (error) {
        this.#options.logger.warn({ err: error, familyId }, 'family channel: reading events failed');
      } finally {
        family.reading = false;
        if (family.subscribers.size === 0 && this.#families.get(familyId) === family) this.#families.delete(familyId);
      }
    })();
  }

  #fanOut(family: FamilyState, events: readonly FamilyEvent[]): void {
    for (const subscription of [...family.subscribers]) for (const event of events) subscription.offer(event);
  }
}
