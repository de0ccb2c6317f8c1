import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per running studio process. The process renews `heartbeat_at` every
 * few seconds; a turn lease names the instance that holds it, so when the
 * heartbeat goes stale the sweeper knows the process is gone and finishes its
 * turns. A live process's lease is never
 * taken, however long its model runs.
 */
export const studioInstances = pgTable('studio_instances', {
  id: text('id').primaryKey(),
  pid: integer('pid').notNull(),
  host: text('host').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});
