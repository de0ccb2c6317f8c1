// A studio process tells its open family streams who is here (`presence` signals). A heartbeat that
// changes something notifies the channel, and every process with subscribers of that family reads
// the family's presence once and hands it to them. A tab that vanishes without a word (a crash, a
// laptop shut) sends nothing: each process re-reads its families every few seconds and signals when
// the list changed, so a tab is gone from every screen within the window plus one sweep (20 + 5 s).
import type { Db } from '@trellis/db';
import type { Logger } from '../logger';
import type { FamilyHub } from '../live/family-hub';
import { PRESENCE_WINDOW_SECONDS, presenceKey, readPresence } from './presence-store';

export interface PresenceWatchOptions {
  windowSeconds?: number;
  sweepMs?: number;
}

export class PresenceWatch {
  readonly windowSeconds: number;
  readonly #hub: FamilyHub;
  readonly #db: Db;
  readonly #logger: Logger;
  readonly #lastKey = new Map<string, string>();
  /** Families being read, and whether a notification asked for another read meanwhile. */
  readonly #reading = new Map<string, boolean>();
  readonly #timer: NodeJS.Timeout;
  readonly #stopListening: () => void;

  constructor(hub: FamilyHub, db: Db, logger: Logger, options: PresenceWatchOptions = {}) {
    this.#hub = hub;
    this.#db = db;
    this.#logger = logger;
    this.windowSeconds = options.windowSeconds ?? PRESENCE_WINDOW_SECONDS;
    this.#stopListening = hub.onNotification((notification) => {
      if (notification.kind === 'presence') void this.#refresh(notification.family, true);
    });
    this.#timer = setInterval(() => this.#sweep(), options.sweepMs ?? 5_000);
    this.#timer.unref();
  }

  close(): void {
    clearInterval(this.#timer);
    this.#stopListening();
  }

  #sweep(): void {
    const families = new Set(this.#hub.subscribedFamilies());
    for (const familyId of this.#lastKey.keys()) if (!families.has(familyId)) this.#lastKey.delete(familyId);
    for (const familyId of families) void this.#refresh(familyId, false);
  }

  /** Reads the family's presence and signals it when it changed (or always, after a notification). */
  async #refresh(familyId: string, isNotified: boolean): Promise<void> {
    if (!this.#hub.subscribedFamilies().includes(familyId)) return;
    if (this.#reading.has(familyId)) {
      if (isNotified) this.#reading.set(familyId, true);
      return;
    }
    this.#reading.set(familyId, false);
    try {
      const presence = await readPresence(this.#db, familyId, this.windowSeconds);
      const key = presenceKey(presence);
      if (!isNotified && this.#lastKey.get(familyId) === key) return;
      this.#lastKey.set(familyId, key);
      this.#hub.signal(familyId, { event: 'presence', data: presence });
    } catch (error) {
      this.#logger.warn({ err: error, familyId }, 'presence: reading the family failed');
    } finally {
      const isAskedAgain = this.#reading.get(familyId) === true;
      this.#reading.delete(familyId);
      if (isAskedAgain) void this.#refresh(familyId, true);
    }
  }
}
