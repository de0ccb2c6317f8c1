import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { conversations } from './conversations';

export const STUDY_STATUSES = ['draft', 'open', 'closed'] as const;
export const PARTICIPANT_STATUSES = ['consented', 'active', 'finished', 'timed_out', 'withdrawn'] as const;

/** The workspace every participant of a study starts from (objective, document, preferences, todos). */
export interface StoredStudySeed {
  objective: string | null;
  document: { title: string; content: string };
  preferences: { text: string; locked: boolean }[];
  todos: { text: string; done: boolean; depth: number }[];
}

/**
 * A study a researcher runs (docs/studies.md): its texts, the seed workspace, and one open link
 * (`slug`). Only a draft is edited; `draft → open → closed`, and a closed study admits no one new.
 */
export const studies = pgTable(
  'studies',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    ownerId: text('owner_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    consentMarkdown: text('consent_markdown').notNull().default(''),
    instructionsMarkdown: text('instructions_markdown').notNull().default(''),
    seed: jsonb('seed').$type<StoredStudySeed>().notNull(),
    status: text('status', { enum: STUDY_STATUSES }).notNull().default('draft'),
    slug: text('slug').notNull().unique(),
    timeLimitMinutes: integer('time_limit_minutes'),
    minMinutes: integer('min_minutes'),
    completionCode: text('completion_code'),
    completionRedirectUrl: text('completion_redirect_url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('studies_owner_idx').on(t.ownerId, t.createdAt)],
);

/**
 * A condition of a study: the model, system prompt and tools every turn of its participants runs
 * with, and whether they may branch. `tools` null: all of the agent's tools. Assignment balances
 * participants by `weight`.
 */
export const studyConditions = pgTable(
  'study_conditions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    model: text('model').notNull(),
    systemPrompt: text('system_prompt'),
    tools: jsonb('tools').$type<string[]>(),
    branching: boolean('branching').notNull(),
    weight: integer('weight').notNull().default(1),
  },
  (t) => [uniqueIndex('study_conditions_name_idx').on(t.studyId, t.name), uniqueIndex('study_conditions_position_idx').on(t.studyId, t.position)],
);

/**
 * A participant: pseudonymous (`participant_id` is what the dataset shows), the pid and the
 * Prolific ids kept apart, the family they write in, and their sessions (`study_sessions`).
 * `user_id` is the participant's own stand-in identity (no email, no password, no sign-in) so the
 * record names them like any other person; it is deleted when they withdraw.
 */
export const studyParticipants = pgTable(
  'study_participants',
  {
    participantId: text('participant_id').primaryKey(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    conditionId: uuid('condition_id')
      .notNull()
      .references(() => studyConditions.id, { onDelete: 'cascade' }),
    pid: text('pid'),
    prolificPid: text('prolific_pid'),
    prolificStudyId: text('prolific_study_id'),
    prolificSessionId: text('prolific_session_id'),
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    threadId: text('thread_id').references(() => conversations.threadId, { onDelete: 'set null' }),
    status: text('status', { enum: PARTICIPANT_STATUSES }).notNull().default('consented'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Rises by one with every change to this row and every event of the participant's family, so the
     * researcher's dashboard tells from this table alone which participants changed since it last read.
     */
    activityVersion: integer('activity_version').notNull().default(0),
  },
  (t) => [
    uniqueIndex('study_participants_pid_idx').on(t.studyId, t.pid).where(sql`${t.pid} is not null`),
    index('study_participants_study_idx').on(t.studyId, t.conditionId),
    index('study_participants_thread_idx').on(t.threadId),
  ],
);

/**
 * A participant's session: only a sha-256 of the cookie's token is stored. A participant may hold
 * several (the same pid on another device); withdrawing deletes them with the participant.
 */
export const studySessions = pgTable(
  'study_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    participantId: text('participant_id')
      .notNull()
      .references(() => studyParticipants.participantId, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('study_sessions_participant_idx').on(t.participantId)],
);
