import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { conversations } from './conversations';

/**
 * The lineage: one row per branch thread (unique child, so the family is a tree).
 * Readers only ever see `active` rows; `pending` marks a branch mid-creation
 * (docs/branching.md, "Creating a branch: three phases and the sweeper").
 */
export const conversationBranches = pgTable(
  'conversation_branches',
  {
    threadId: text('thread_id')
      .primaryKey()
      .references(() => conversations.threadId, { onDelete: 'cascade' }),
    parentThreadId: text('parent_thread_id')
      .notNull()
      .references(() => conversations.threadId, { onDelete: 'cascade' }),
    branchPointTurn: integer('branch_point_turn').notNull(),
    reason: text('reason'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'active'] })
      .notNull()
      .default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The parent's last change (`workspace_changes.seq`) the branch inherits: its change log is the
     * parent's path log up to here, then its own (a copy is not a change). Fixed at creation, so a
     * parent's later edits never leak in; 0 for branches made before the log (their own migration
     * change holds their whole text) and for imports (empty workspaces).
     */
    parentChangeSeq: integer('parent_change_seq').notNull().default(0),
  },
  (t) => [
    index('conversation_branches_parent_idx').on(t.parentThreadId),
    index('conversation_branches_user_idx').on(t.userId),
    index('conversation_branches_status_idx').on(t.status, t.createdAt),
  ],
);

/** The last viewed thread of a family, per user (docs/branching.md, "Siblings: edit and regenerate"). */
export const familyCursors = pgTable(
  'family_cursors',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    rootThreadId: text('root_thread_id').notNull(),
    threadId: text('thread_id')
      .notNull()
      .references(() => conversations.threadId, { onDelete: 'cascade' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.rootThreadId] })],
);

/**
 * When a user last viewed each thread: lets "switch to a sibling" land on the
 * step last viewed inside that sibling's subtree (docs/branching.md, "Siblings: edit and regenerate").
 */
export const threadViews = pgTable(
  'thread_views',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    threadId: text('thread_id')
      .notNull()
      .references(() => conversations.threadId, { onDelete: 'cascade' }),
    viewedAt: timestamp('viewed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.threadId] })],
);
