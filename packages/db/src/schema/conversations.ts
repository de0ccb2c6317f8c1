import { sql } from 'drizzle-orm';
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { searchVector } from './search';

export interface StoredApplyProvenance {
  source_node_id: string;
  source_label: string;
  items: string[];
  note: string | null;
  /** On an undo step: the turn of the apply it reverses. */
  undoes?: number;
}

/**
 * A step of another path of the family, named by a message: a user message's `refs` (what the person
 * pointed the agent at) or a reply's `citations` (what the agent read). The label is the step's as the
 * family graph showed it when the message was stored, like an apply's `source_label`.
 */
export interface StoredPathRef {
  thread_id: string;
  turn: number;
  label: string;
}

export interface StoredToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result?: string;
  is_error?: boolean;
  /** An imported subagent run started by this call (ToolCallSchema's `subagent`); no migration: it is JSON. */
  subagent?: StoredSubagentRun;
}

export interface StoredSubagentRun {
  agent_id: string;
  description: string | null;
  prompt: string;
  reply: string | null;
  tools: string[];
  record_count: number;
}

/**
 * One row per thread. `turn_index` is the clock: it increments once per user
 * message. The lease columns serialize turns per thread across processes; an
 * expired lease is free, so a crash never locks a thread for good.
 */
export const conversations = pgTable(
  'conversations',
  {
    threadId: text('thread_id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    rootThreadId: text('root_thread_id').notNull(),
    title: text('title').notNull(),
    /**
     * The title is a stand-in (a new branch carries its parent's) until the thread's first own
     * message names it (docs/branching.md, "Names, stars and archive"); a rename makes it final.
     */
    isTitleProvisional: boolean('is_title_provisional').notNull().default(false),
    isStarred: boolean('is_starred').notNull().default(false),
    /** Archive hides the thread and its subtree like a soft delete, but is undone by un-archiving. */
    isArchived: boolean('is_archived').notNull().default(false),
    objective: text('objective'),
    turnIndex: integer('turn_index').notNull().default(0),
    messageCount: integer('message_count').notNull().default(0),
    /** The family's artifact counter, kept on the family root's row only (see `artifacts.number`). */
    lastArtifactNumber: integer('last_artifact_number').notNull().default(0),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    /** The studio instance whose turn holds the lease (`studio_instances.id`; null for a lease taken without one). */
    leaseInstance: text('lease_instance'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** On the root(s) an import created: sha-256 of the transcript, so importing it again is noticed. */
    importContentHash: text('import_content_hash'),
    /** How the family began when not from scratch: `shared_link` for a copy made from someone's share link. */
    startedFrom: text('started_from', { enum: ['shared_link'] }),
  },
  (t) => [
    index('conversations_user_updated_idx').on(t.userId, t.updatedAt),
    index('conversations_root_idx').on(t.rootThreadId),
    // Pages of the conversation list: a user's family roots, newest first.
    index('conversations_user_family_idx')
      .on(t.userId, t.createdAt.desc(), t.threadId.desc())
      .where(sql`${t.threadId} = ${t.rootThreadId}`),
    index('conversations_leased_idx')
      .on(t.leaseInstance)
      .where(sql`${t.leaseOwner} is not null`),
    index('conversations_user_import_hash_idx').on(t.userId, t.importContentHash),
  ],
);

/** The canonical, append-only transcript. A thread stores only the turns it owns. */
export const messages = pgTable(
  'messages',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    id: uuid('id').notNull().unique().default(sql`gen_random_uuid()`),
    threadId: text('thread_id')
      .notNull()
      .references(() => conversations.threadId, { onDelete: 'cascade' }),
    turnIndex: integer('turn_index').notNull(),
    /** `system`: an entry the studio writes itself (an apply), never a model turn. */
    role: text('role', { enum: ['user', 'assistant', 'system'] }).notNull(),
    /** What a `system` entry records (`apply`); null on user and assistant messages. */
    kind: text('kind', { enum: ['apply'] }),
    /** An apply entry's provenance: the source step, its label, the applied items' descriptions, the note. */
    provenance: jsonb('provenance').$type<StoredApplyProvenance>(),
    content: text('content').notNull(),
    /**
     * Who sent a `user` message (its author once a family has several people); null on replies,
     * system entries, imports and messages written before senders were recorded. An id, never a
     * name: names are looked up when shown.
     */
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    toolCalls: jsonb('tool_calls').$type<StoredToolCall[]>().notNull().default([]),
    /** On a user message: the steps of other paths it brings into the conversation; null when none. */
    refs: jsonb('refs').$type<StoredPathRef[]>(),
    /** On a reply: the referenced steps the agent read (`read_path`); null when none. */
    citations: jsonb('citations').$type<StoredPathRef[]>(),
    status: text('status', { enum: ['complete', 'interrupted', 'failed'] })
      .notNull()
      .default('complete'),
    /** Why a reply is `interrupted` or `failed` (e.g. "the server stopped during this reply"); null when complete. */
    reason: text('reason'),
    /** A failed reply's cause as a code (`FailureCode` in domain: auth, rate_limited, timeout, …); null otherwise. */
    reasonCode: text('reason_code'),
    /** The wait a rate-limiting provider asked for, in seconds. */
    retryAfterS: doublePrecision('retry_after_s'),
    /**
     * Retry in place: the n-th reply to its turn. A retry adds a reply with the next
     * number and keeps the earlier ones (the transcript stays append-only); a turn's reply is its
     * highest attempt, and only that one is ever context for a model.
     */
    attempt: integer('attempt').notNull().default(1),
    /** Tokens the provider reported for this reply, and the model that answered; null when it reported none. */
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    model: text('model'),
    /** An imported transcript's history was compacted just before this (user) message: the chat shows a divider. */
    compactedBefore: boolean('compacted_before').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_thread_turn_idx').on(t.threadId, t.turnIndex, t.seq),
    // The graph's apply edges: only the few apply entries of a family's threads, never its history.
    index('messages_apply_idx')
      .on(t.threadId, t.turnIndex)
      .where(sql`${t.kind} = 'apply'`),
    // Full-text search (docs/branching.md, "Search"); queries repeat this expression.
    index('messages_content_fts_idx').using('gin', searchVector(t.content)),
  ],
);
