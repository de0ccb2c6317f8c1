/**
 * The compare contract (`GET /api/conversations/{id}/compare?a=&b=`) and "what changed at this step"
 * (`GET /api/conversations/{id}/turns/{k}/changes`). JSON is snake_case. Each side is the workspace
 * AFTER its step (the snapshot(k+1)-or-live rule on that node's lineage); items are matched by `key`.
 */
import { z } from 'zod';
import { ThreadIdSchema } from '../conversation/thread-id';

/** A graph node id `{thread_id}:{turn}` as a query value; turn 0 of the root is the empty start. */
export const NodeIdParamSchema = z
  .string()
  .trim()
  .regex(/^th_[0-9a-f]{32}:(0|[1-9][0-9]{0,8})$/, 'must be a node id "{thread_id}:{turn}"')
  .transform((value) => {
    const at = value.lastIndexOf(':');
    return { thread_id: ThreadIdSchema.parse(value.slice(0, at)), turn: Number(value.slice(at + 1)) };
  });
export type NodeRef = z.output<typeof NodeIdParamSchema>;

export const CompareFormatSchema = z.enum(['json', 'diff']).default('json');

const NodeSchema = z.object({ node_id: z.string(), label: z.string() });
const ItemStatusSchema = z.enum(['added', 'removed', 'edited', 'unchanged']);
export type ItemStatus = z.infer<typeof ItemStatusSchema>;
const Key = z
  .string()
  .nullable()
  .describe('The item key; null only when neither side (both older than keys) has one');

const ComparedPreferenceSchema = z.object({ text: z.string(), locked: z.boolean() });
const ComparedTodoSchema = z.object({ text: z.string(), done: z.boolean(), depth: z.int().nonnegative() });
const ComparedArtifactSchema = z.object({ title: z.string(), kind: z.string() });

export const PreferenceChangeSchema = z.enum(['text', 'locked', 'position']);
export const TodoChangeSchema = z.enum(['text', 'done', 'depth', 'position']);

export const PreferenceComparisonSchema = z.object({
  key: Key,
  status: ItemStatusSchema,
  changes: z.array(PreferenceChangeSchema),
  a: ComparedPreferenceSchema.nullable(),
  b: ComparedPreferenceSchema.nullable(),
});
export const TodoComparisonSchema = z.object({
  key: Key,
  status: ItemStatusSchema,
  changes: z.array(TodoChangeSchema),
  a: ComparedTodoSchema.nullable(),
  b: ComparedTodoSchema.nullable(),
});
export const ArtifactComparisonSchema = z.object({
  key: Key,
  status: ItemStatusSchema,
  a: ComparedArtifactSchema.nullable(),
  b: ComparedArtifactSchema.nullable(),
});
export type PreferenceComparison = z.infer<typeof PreferenceComparisonSchema>;
export type TodoComparison = z.infer<typeof TodoComparisonSchema>;
export type ArtifactComparison = z.infer<typeof ArtifactComparisonSchema>;

export const DocumentHunkSchema = z.object({ op: z.enum(['equal', 'insert', 'delete']), text: z.string() });
export type DocumentHunk = z.infer<typeof DocumentHunkSchema>;

const ChangedText = <T extends z.ZodType>(value: T) => z.object({ a: value, b: value, changed: z.boolean() });

/** The comparison of two workspace states, without node identities (the pure part). */
export const WorkspaceComparisonSchema = z.object({
  objective: ChangedText(z.string().nullable()),
  document: z.object({
    title: ChangedText(z.string()),
    changed: z.boolean(),
    words_added: z.int().nonnegative(),
    words_removed: z.int().nonnegative(),
    hunks: z
      .array(DocumentHunkSchema)
      .describe('Word-level; equal runs kept, so a side is the concatenation of its hunks'),
  }),
  preferences: z.array(PreferenceComparisonSchema),
  todos: z.array(TodoComparisonSchema),
  artifacts: z.array(ArtifactComparisonSchema),
});
export type WorkspaceComparison = z.infer<typeof WorkspaceComparisonSchema>;

const RemovedAt = NodeSchema.nullable().describe(
  "The step of b's path that deleted the item (status removed); null otherwise, or when b's path never held it",
);

const RemovedBy = z
  .enum(['person', 'agent'])
  .nullable()
  .describe('Who deleted the item at `removed_at` (the decision log’s actor); null when `removed_at` is');

export const CompareSchema = z
  .object({
    a: NodeSchema,
    b: NodeSchema,
    fork: NodeSchema.nullable().describe('The last step both paths share'),
  })
  .extend(WorkspaceComparisonSchema.shape)
  .extend({
    preferences: z.array(PreferenceComparisonSchema.extend({ removed_at: RemovedAt, removed_by: RemovedBy })),
    todos: z.array(TodoComparisonSchema.extend({ removed_at: RemovedAt, removed_by: RemovedBy })),
  });
export type Comparison = z.infer<typeof CompareSchema>;

export const DiscardedItemSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('preference'),
    key: z.string(),
    text: z.string(),
    locked: z.boolean(),
    by: z.enum(['person', 'agent']),
  }),
  z.object({
    kind: z.literal('todo'),
    key: z.string(),
    text: z.string(),
    done: z.boolean(),
    depth: z.int().nonnegative(),
    by: z.enum(['person', 'agent']),
  }),
]);
export type DiscardedItem = z.infer<typeof DiscardedItemSchema>;

const StepItemSchema = z.object({ kind: z.enum(['preference', 'todo', 'artifact']), key: z.string() });

export const StepChangesSchema = CompareSchema.extend({
  discarded: z
    .array(DiscardedItemSchema)
    .describe('Preferences and todos deleted at this step, as they were'),
  by_author: z
    .object({
      words: z
        .object({
          person_words: z.int().nonnegative(),
          agent_words: z.int().nonnegative(),
          agent_edited_words: z.int().nonnegative(),
          unknown_words: z.int().nonnegative(),
        })
        .describe(
          'Words of the document after this step that this step wrote, by author (the overlay’s spans of this step; applied text aside)',
        ),
      person_items: z
        .array(StepItemSchema)
        .describe('Preferences, todos and artifacts the person changed at this step'),
      agent_items: z
        .array(StepItemSchema)
        .describe('Preferences, todos and artifacts the agent changed at this step'),
    })
    .describe('Who did what at this step: the two sides’ words and items'),
});
export type StepChanges = z.infer<typeof StepChangesSchema>;

/** What the graph shows per step; computed once per step and stored. */
export const ChangeSummarySchema = z.object({
  words_added: z.int().nonnegative(),
  words_removed: z.int().nonnegative(),
  items_added: z.int().nonnegative(),
  items_removed: z.int().nonnegative(),
  items_edited: z.int().nonnegative(),
});
export type ChangeSummary = z.infer<typeof ChangeSummarySchema>;
