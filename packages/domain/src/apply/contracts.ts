/**
 * The apply contract (`POST /api/conversations/{target}/apply`): chosen workspace items of one step
 * (the source, any node of the same family) land on another path's live workspace as ONE new turn,
 * with provenance. Not a merge of transcripts: only workspace items move, and they keep their keys,
 * so a later compare shows them unchanged between source and target. docs/branching.md, "Apply".
 * JSON is snake_case.
 */
import { z } from 'zod';
import { NodeIdParamSchema, WorkspaceComparisonSchema } from '../compare/contracts';
import { StorableStringSchema } from '../contracts/common';

export const MAX_APPLY_ITEMS = 200;
export const MAX_APPLY_NOTE_CHARS = 2_000;
export const MAX_SECTION_HEADING_CHARS = 500;

const PlaceHeadingSchema = StorableStringSchema.trim().min(1, 'must not be empty').max(MAX_SECTION_HEADING_CHARS);
export const SectionPlaceSchema = z.union([
  z.object({ after: PlaceHeadingSchema }).strict(),
  z.object({ before: PlaceHeadingSchema }).strict(),
  z.object({ replace: PlaceHeadingSchema }).strict(),
]);

const ItemKeyParamSchema = StorableStringSchema.trim().min(1, 'must not be empty').max(128);

/**
 * One thing to bring over. `section` is one markdown section of the source document, named by its
 * heading text (without the `#`s): replaced on the target when a heading with that text exists there,
 * appended otherwise. `todo` brings its nested children too unless `with_children` is false.
 * `summary` runs one agent turn on the target that summarises the source path into an artifact.
 */
export const ApplyItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('document') }).strict(),
  z
    .object({
      kind: z.literal('section'),
      heading: StorableStringSchema.trim().min(1, 'must not be empty').max(MAX_SECTION_HEADING_CHARS),
      place: SectionPlaceSchema.optional().describe(
        'Where it goes on the target: after or before a section of the target, or in place of one (by heading text). Without it: in place of the target\'s section of the same heading, else where it stands on the source (after the heading before it there), else at the end.',
      ),
    })
    .strict(),
  z.object({ kind: z.literal('objective') }).strict(),
  z.object({ kind: z.literal('preference'), key: ItemKeyParamSchema }).strict(),
  z.object({ kind: z.literal('todo'), key: ItemKeyParamSchema, with_children: z.boolean().optional() }).strict(),
  z.object({ kind: z.literal('artifact'), key: ItemKeyParamSchema }).strict(),
  z.object({ kind: z.literal('summary') }).strict(),
]);
export type ApplyItem = z.infer<typeof ApplyItemSchema>;
export type ApplyItemKind = ApplyItem['kind'];

export const ApplyRequestSchema = z
  .object({
    source: NodeIdParamSchema.describe('The step to bring items from, a node id "{thread_id}:{turn}" of the same family'),
    items: z.array(ApplyItemSchema).min(1, 'name at least one item').max(MAX_APPLY_ITEMS),
    note: StorableStringSchema.trim().max(MAX_APPLY_NOTE_CHARS).optional(),
    dry_run: z.boolean().optional().describe('Answer what the apply would change, write nothing'),
  })
  .strict()
  // A summary is an agent turn, not an item written in place, so it cannot share a turn with others.
  .refine((request) => request.dry_run === true || request.items.length === 1 || !request.items.some((item) => item.kind === 'summary'), {
    path: ['items'],
    message: 'a summary is applied on its own (it is an agent turn)',
  });
export type ApplyRequest = z.infer<typeof ApplyRequestSchema>;

/** An item as the response names it: the request item plus a human description ("section Findings"). */
const DescribedItemSchema = z.object({
  item: ApplyItemSchema,
  description: z.string().describe('e.g. "section Findings", "preference \'Cite sources\' (locked)"'),
});

export const AppliedItemSchema = DescribedItemSchema.extend({
  effect: z
    .enum(['added', 'replaced', 'unchanged'])
    .describe('added: the target had no such item; replaced: it had one and it changed; unchanged: already equal'),
});
export type AppliedItem = z.infer<typeof AppliedItemSchema>;

export const SkippedItemSchema = DescribedItemSchema.extend({ reason: z.string() });
export type SkippedItem = z.infer<typeof SkippedItemSchema>;

/** 201: the apply is one new turn on the target. */
export const ApplyResultSchema = z.object({
  thread_id: z.string().describe('The target thread'),
  turn_index: z.int().positive().describe('The new turn the apply is'),
  label: z.string().describe('Its path-wide step label'),
  source: z.object({ node_id: z.string(), label: z.string() }),
  applied: z.array(AppliedItemSchema),
  skipped: z.array(SkippedItemSchema),
});
export type ApplyResult = z.infer<typeof ApplyResultSchema>;

/** 201 of `POST …/apply/{turn}/undo`: the new step that puts the applied items back. */
export const UndoApplyResultSchema = z.object({
  thread_id: z.string(),
  turn_index: z.int().positive().describe('The new turn the undo is'),
  label: z.string().describe('Its path-wide step label'),
  undoes: z.object({ node_id: z.string(), label: z.string() }).describe('The apply step it reverses'),
  restored: z.array(z.string()).describe('What was put back as it was before the apply ("document", "2 preferences")'),
  kept: z.array(z.string()).describe('What the undo leaves (artifacts are never deleted)'),
});
export type UndoApplyResult = z.infer<typeof UndoApplyResultSchema>;

/** 200 for `dry_run`: the compare of target-now (a) against target-after (b); nothing written. */
export const ApplyDryRunSchema = WorkspaceComparisonSchema.extend({
  dry_run: z.literal(true),
  source: z.object({ node_id: z.string(), label: z.string() }),
  applied: z.array(AppliedItemSchema),
  skipped: z.array(SkippedItemSchema),
});
export type ApplyDryRun = z.infer<typeof ApplyDryRunSchema>;

/** What an apply step's transcript entry and its graph edge carry. */
export const ApplyProvenanceSchema = z.object({
  source_node_id: z.string(),
  source_label: z.string(),
  items: z.array(z.string()).describe('The applied items\' descriptions, in request order'),
  note: z.string().nullable(),
  undoes: z.int().positive().optional().describe('On an undo step: the turn of the apply it reverses'),
});
export type ApplyProvenance = z.infer<typeof ApplyProvenanceSchema>;
