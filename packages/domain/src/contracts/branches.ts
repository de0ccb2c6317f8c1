import { z } from 'zod';
import { WorkspaceOverrideSchema } from './workspace';
import { IsoDateSchema, PG_INT_MAX, StorableStringSchema } from './common';
import { MAX_MESSAGE_CHARS } from './messages';

export const CreateBranchSchema = z
  .object({
    from_turn: z.number().int().min(0, 'must be 0 or greater').max(PG_INT_MAX, 'must be at most 2147483647'),
    reason: StorableStringSchema.trim().max(500).optional(),
    workspace: WorkspaceOverrideSchema.optional(),
  })
  .strict();
export type CreateBranch = z.infer<typeof CreateBranchSchema>;

export const BranchCreatedSchema = z.object({
  thread_id: z.string(),
  parent_thread_id: z.string(),
  branch_point_turn: z.number().int(),
  title: z.string(),
});
export type BranchCreated = z.infer<typeof BranchCreatedSchema>;

export const EditTurnSchema = z
  .object({ content: StorableStringSchema.trim().min(1, 'must not be empty').max(MAX_MESSAGE_CHARS) })
  .strict();

export const SiblingSchema = z.object({
  thread_id: z.string(),
  label: z.string(),
  created_at: IsoDateSchema,
  preview: z.string().nullable().describe("the sibling's message at this step (null while it has none)"),
  leaf_thread_id: z.string().describe('where choosing this sibling lands: the step last viewed in its subtree, else its latest leaf'),
});
const SiblingPagerSchema = z.object({
  index: z.number().int().describe('0-based position of the displayed path in this pager'),
  siblings: z.array(SiblingSchema),
});
export const SiblingListSchema = z.object({
  index: z.number().int().describe('0-based position of the displayed path among the siblings'),
  siblings: z.array(SiblingSchema).describe('every path that diverges at this step (edits, regenerations, continue-from-here)'),
  message: SiblingPagerSchema.describe(
    "the user message's `‹ i/n ›`: edits and continue-from-here paths; a reply's regeneration alternatives count once, by the reply they answer again",
  ),
  reply: SiblingPagerSchema.describe(
    "the reply's `‹ i/n ›`: the displayed reply and its regeneration alternatives (regenerated, not renamed, starred, continued or branched)",
  ),
});
export type SiblingList = z.infer<typeof SiblingListSchema>;

export const CursorSchema = z.object({ thread_id: z.string() });
export const PutCursorSchema = z.object({ thread_id: StorableStringSchema }).strict();
