import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { user } from './auth';
import { conversations } from './conversations';

/** A member's role on a family; the owner is not a member row (it is the root's `user_id`). */
export const MEMBER_ROLES = ['viewer', 'commenter', 'editor'] as const;

/**
 * The people a family is shared with (docs/architecture.md, "People in a family"). Access is per
 * family: every thread of it — a branch made later too — answers to the root's members, so a row
 * names the root thread only.
 */
export const familyMembers = pgTable(
  'family_members',
  {
    familyId: text('family_id')
      .notNull()
      .references(() => conversations.threadId, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    role: text('role', { enum: MEMBER_ROLES }).notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.familyId, t.userId] }), index('family_members_user_idx').on(t.userId)],
);

/**
 * An invitation to a family: only a sha-256 of its token is stored (the link is shown once). One
 * use: accepting stamps `accepted_at`; past `expires_at` or with `revoked_at` it opens nothing.
 */
export const familyInvitations = pgTable(
  'family_invitations',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    familyId: text('family_id')
      .notNull()
      .references(() => conversations.threadId, { onDelete: 'cascade' }),
    role: text('role', { enum: MEMBER_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdBy: text('created_by')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedBy: text('accepted_by').references(() => user.id, { onDelete: 'set null' }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('family_invitations_family_idx').on(t.familyId, t.createdAt)],
);
