import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { conversations } from './conversations';

/**
 * Authorship spans cached per document change: the document body and its spans
 * right after the change `(thread_id, seq)` of the change log. Keyed by the change, not by the path
 * reading it, so a branch reads its parent's rows up to its cut. A read starts from the newest row on
 * its path and advances over the changes after it: its cost follows the changes since, not the
 * history. A cache: dropping rows loses nothing but time.
 */
export const authorshipCache = pgTable(
  'authorship_cache',
  {
    threadId: text('thread_id')
      .notNull()
      .references(() => conversations.threadId, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    /** The step of that change: `?turn=k` reads only rows with turn ≤ k. */
    turn: integer('turn').notNull(),
    version: integer('version').notNull(),
    body: text('body').notNull(),
    spans: jsonb('spans').notNull(),
    summary: jsonb('summary').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.seq] }), index('authorship_cache_thread_turn_idx').on(t.threadId, t.turn, t.seq)],
);
