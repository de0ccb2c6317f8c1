import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The family channel's record (docs/architecture.md, "A live family"): one row per event a family's
 * tabs hear about — a turn started or finished, a workspace change, a branch, a rename, an apply, a
 * delete. `id` is the server-sent event id: within one family ids grow in commit order (appends
 * take the family's advisory lock until commit), so a client that reconnects with `Last-Event-ID`
 * reads exactly what it missed with `id > last`. `family_id` is the root thread; no foreign key,
 * so a deleted thread's `deleted` event stays readable.
 */
export const familyEvents = pgTable(
  'family_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    familyId: text('family_id').notNull(),
    threadId: text('thread_id').notNull(),
    kind: text('kind').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('family_events_family_idx').on(t.familyId, t.id)],
);
