import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { conversations } from './conversations';

/**
 * Notes on a step, a message or a passage of a path's document (docs/comments.md). Not workspace
 * changes: no step, no change row, no authorship. A comment belongs to the path (`thread_id`) it
 * was made on; `family_id` is its family's root, for the family's lists and events.
 *
 * A passage's `start`/`end` are cached: they are current as of the thread's change `anchor_seq`,
 * and a read carries them through the document changes after it (then stores the result), so a
 * list costs the changes since it was last read, not the path's history. `orphaned_at_turn` is set
 * once every unit of the passage is gone; the quote stays readable.
 */
export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    familyId: text('family_id').notNull(),
    threadId: text('thread_id')
      .notNull()
      .references(() => conversations.threadId, { onDelete: 'cascade' }),
    authorId: text('author_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id'),
    anchorKind: text('anchor_kind', { enum: ['step', 'message', 'passage'] }).notNull(),
    turn: integer('turn'),
    messageId: uuid('message_id'),
    start: integer('start'),
    end: integer('end'),
    quote: text('quote'),
    anchorSeq: bigint('anchor_seq', { mode: 'number' }),
    orphanedAtTurn: integer('orphaned_at_turn'),
    body: text('body').notNull(),
    /** The people of the family the body names with `@name` (user ids), told through the family channel. */
    mentions: jsonb('mentions').$type<string[]>().notNull().default([]),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: text('resolved_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('comments_thread_idx').on(t.threadId, t.createdAt), index('comments_family_idx').on(t.familyId)],
);
