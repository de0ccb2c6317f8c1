import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { SnapshotPreference, SnapshotTodo } from '@trellis/domain';
import { conversations } from './conversations';
import { searchVector } from './search';

const thread = () =>
  text('thread_id')
    .notNull()
    .references(() => conversations.threadId, { onDelete: 'cascade' });

/** The live document of a thread (one per thread). */
export const documents = pgTable(
  'documents',
  {
    threadId: text('thread_id')
      .primaryKey()
      .references(() => conversations.threadId, { onDelete: 'cascade' }),
    title: text('title').notNull().default(''),
    content: text('content').notNull().default(''),
    /**
     * +1 per change of the row (body or title) through the write path. Path-wide: a branch's copy
     * starts at its parent's version at the branch point, so a version names one text on a path and
     * replaying the path's change log from empty reaches this version's body.
     */
    version: integer('version').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('documents_content_fts_idx').using('gin', searchVector(t.content))],
);

/**
 * Content-addressed document bodies (sha-256 hex). Snapshots reference a body by
 * hash, so an unchanged 100 KB document costs nothing per turn.
 */
export const documentBlobs = pgTable(
  'document_blobs',
  {
    hash: text('hash').primaryKey(),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // A body is indexed once for search, however many snapshots share it.
  (t) => [index('document_blobs_content_fts_idx').using('gin', searchVector(t.content))],
);

export const preferences = pgTable(
  'preferences',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    threadId: thread(),
    position: integer('position').notNull(),
    text: text('text').notNull(),
    locked: boolean('locked').notNull().default(false),
    /** +1 per change of the row through the write path; an edit on a stale version is merged by field or refused. */
    version: integer('version').notNull().default(1),
    /** Identity across paths (docs/branching.md, "Item keys"): a copy keeps it, a new item gets a new one. */
    key: uuid('key').notNull().default(sql`gen_random_uuid()`),
  },
  (t) => [
    index('preferences_thread_idx').on(t.threadId, t.position),
    index('preferences_text_fts_idx').using('gin', searchVector(t.text)),
  ],
);

export const todos = pgTable(
  'todos',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    threadId: thread(),
    position: integer('position').notNull(),
    text: text('text').notNull(),
    done: boolean('done').notNull().default(false),
    depth: integer('depth').notNull().default(0),
    key: uuid('key').notNull().default(sql`gen_random_uuid()`),
    /** +1 per change of the row through the write path (see `preferences.version`). */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('todos_thread_idx').on(t.threadId, t.position),
    index('todos_text_fts_idx').using('gin', searchVector(t.text)),
  ],
);

export const artifacts = pgTable(
  'artifacts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    threadId: thread(),
    turnIndex: integer('turn_index').notNull(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    key: uuid('key').notNull().default(sql`gen_random_uuid()`),
    /**
     * The artifact's number within its family (1, 2, … across all paths of one family, never across
     * the account). Inserted as 0, it takes the family root's next `last_artifact_number` (the
     * artifacts_family_number trigger); a branch's copy of an inherited artifact keeps its number.
     */
    number: integer('number').notNull().default(0),
  },
  (t) => [index('artifacts_thread_turn_idx').on(t.threadId, t.turnIndex)],
);

/**
 * Snapshot k = the workspace at the START of turn k, before the agent acts
 * (docs/branching.md, "The restore rule"). Immutable; never copied to branches.
 */
export const workspaceSnapshots = pgTable(
  'workspace_snapshots',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    threadId: thread(),
    turnIndex: integer('turn_index').notNull(),
    objective: text('objective'),
    documentTitle: text('document_title').notNull().default(''),
    documentHash: text('document_hash').references(() => documentBlobs.hash),
    preferences: jsonb('preferences').$type<SnapshotPreference[]>().notNull().default([]),
    todos: jsonb('todos').$type<SnapshotTodo[]>().notNull().default([]),
    userMessage: text('user_message'),
    capturedAt: timestamp('captured_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The thread's family root, filled by a trigger on insert (a family's root never changes): the
     * graph walks a family's newest turns down this index instead of sorting all of them.
     */
    familyRootThreadId: text('family_root_thread_id'),
  },
  (t) => [
    unique('workspace_snapshots_thread_turn_key').on(t.threadId, t.turnIndex),
    index('workspace_snapshots_family_newest_idx').on(t.familyRootThreadId, t.capturedAt.desc()),
    // Search goes from a matching body to the steps that hold it (docs/branching.md, "Search").
    index('workspace_snapshots_document_hash_idx').on(t.documentHash),
  ],
);

/**
 * The decision map: append-only, one row per preference or todo deleted, with the
 * step it was deleted at (the thread's turn index at that moment, so a manual
 * deletion between turns belongs to the step it follows). The live rows,
 * snapshots and the restore rule are untouched by it.
 */
export const discardedItems = pgTable(
  'discarded_items',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    threadId: thread(),
    turnIndex: integer('turn_index').notNull(),
    kind: text('kind').$type<'preference' | 'todo'>().notNull(),
    key: uuid('key').notNull(),
    text: text('text').notNull(),
    locked: boolean('locked'),
    done: boolean('done'),
    depth: integer('depth'),
    editor: text('editor').$type<'person' | 'agent'>().notNull(),
    discardedAt: timestamp('discarded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('discarded_items_thread_turn_idx').on(t.threadId, t.turnIndex),
    // The compare's `removed_at` starts from the removed items' keys, not from a path's whole log.
    index('discarded_items_key_idx').on(t.key),
  ],
);

/**
 * What each step changed (the compare of the step before and the step), computed
 * once when the step settles and again when the next turn captures its snapshot
 * (which absorbs manual edits made in between), so the graph reads it as metadata.
 */
export const stepChanges = pgTable(
  'step_changes',
  {
    threadId: thread(),
    turnIndex: integer('turn_index').notNull(),
    wordsAdded: integer('words_added').notNull(),
    wordsRemoved: integer('words_removed').notNull(),
    itemsAdded: integer('items_added').notNull(),
    itemsRemoved: integer('items_removed').notNull(),
    itemsEdited: integer('items_edited').notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.turnIndex] })],
);

/**
 * The change log: one row per workspace change, from any source, appended by the write
 * path (`services/src/workspace/write-workspace.ts`) in the transaction that makes the change.
 * `seq` is gapless per thread; `turn` is the step whose after-state the change belongs to (the
 * thread's `turn_index` at the time: the agent's edits in turn k and a person's edits between turns
 * k and k+1 both belong to step k). A document body change stores a patch (`after.patch`) and the
 * text it deleted (`before.deleted`), never two copies of the body. A branch owns no copy of its
 * parent's rows: its log is its ancestors' up to `conversation_branches.parent_change_seq`, then its own.
 */
export const workspaceChanges = pgTable(
  'workspace_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    threadId: thread(),
    seq: integer('seq').notNull(),
    turn: integer('turn').notNull(),
    actor: text('actor').$type<'person' | 'agent' | 'system'>().notNull(),
    actorId: text('actor_id'),
    via: text('via').$type<'editor' | 'agent_tool' | 'apply' | 'preview_edit' | 'import' | 'migration' | 'retry'>().notNull(),
    viaSource: text('via_source'),
    kind: text('kind').$type<'objective' | 'document' | 'document_title' | 'preference' | 'todo' | 'artifact'>().notNull(),
    key: text('key'),
    op: text('op').notNull(),
    before: jsonb('before').$type<Record<string, unknown> | null>(),
    after: jsonb('after').$type<Record<string, unknown> | null>(),
    /**
     * A stopped or failed attempt's change that a retry took back (the retry's own `via: 'retry'`
     * rows undo it). The row stays, so the log and its replay still show what the attempt did.
     */
    reverted: boolean('reverted').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('workspace_changes_thread_seq_key').on(t.threadId, t.seq),
    // A branch's cut (the parent's last change at or before the branch point) is one probe.
    index('workspace_changes_thread_turn_idx').on(t.threadId, t.turn, t.seq),
    // The document's changes alone: a branch finds the document's version at its cut.
    index('workspace_changes_document_idx')
      .on(t.threadId, t.seq)
      .where(sql`${t.kind} in ('document', 'document_title')`),
    // A stale save walks back from the live text over the document changes after its base version only.
    index('workspace_changes_document_version_idx')
      .on(t.threadId, sql`((${t.after}->>'version')::int)`)
      .where(sql`${t.kind} in ('document', 'document_title')`),
    // An item edit on a stale version reads that item's changes since.
    index('workspace_changes_item_idx')
      .on(t.threadId, t.key)
      .where(sql`${t.key} is not null`),
  ],
);
