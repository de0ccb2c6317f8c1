import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { conversations } from './conversations';

/**
 * Read-only links to one path or a whole family (docs/sharing.md). Only a sha-256 of the token is
 * stored. A link names its family by the root thread and its path by `thread_id`; `turn` is the
 * pinned step, ignored while `follows_latest` is on. Revocation and expiry end a link at once: the
 * resolver reads them on every request.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    tokenHash: text('token_hash').notNull().unique(),
    rootThreadId: text('root_thread_id').notNull(),
    threadId: text('thread_id')
      .notNull()
      .references(() => conversations.threadId, { onDelete: 'cascade' }),
    scope: text('scope', { enum: ['path', 'family'] }).notNull(),
    turn: integer('turn').notNull(),
    followsLatest: boolean('follows_latest').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdBy: text('created_by')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    viewCount: integer('view_count').notNull().default(0),
    lastViewedAt: timestamp('last_viewed_at', { withTimezone: true }),
  },
  (t) => [index('share_links_root_idx').on(t.rootThreadId, t.createdAt)],
);
