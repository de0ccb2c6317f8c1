import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth';

/**
 * Who has a family open, one row per open tab (`client_id`), kept fresh by the tab's heartbeats:
 * the path (`thread_id`) and step it shows and whether the person is typing in the document. A row
 * older than the presence window is someone who left without saying so (a closed laptop); readers
 * ignore it and the next heartbeat of the family prunes it. In PostgreSQL, not in a process's
 * memory, so every studio process answers the same people.
 */
export const presence = pgTable(
  'presence',
  {
    familyId: text('family_id').notNull(),
    clientId: text('client_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    threadId: text('thread_id').notNull(),
    turnIndex: integer('turn_index'),
    isTyping: boolean('is_typing').notNull().default(false),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.familyId, t.clientId] }), index('presence_family_seen_idx').on(t.familyId, t.seenAt)],
);
