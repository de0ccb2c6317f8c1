import { z } from 'zod';
import { ChangeSchema } from './changes';
import { PG_INT_MAX } from './common';

/** `GET /api/conversations/{id}/replay?seq=`. */
export const ReplayQuerySchema = z.object({
  seq: z.coerce
    .number()
    .int('must be an integer')
    .min(1, 'must be 1 or greater')
    .max(PG_INT_MAX, 'must be at most 2147483647')
    .describe('the path-wide `seq` of the change to replay (1: the first change of the path)'),
});
export type ReplayQuery = z.infer<typeof ReplayQuerySchema>;

export const ReplayDiffPartSchema = z.object({
  kind: z.enum(['equal', 'insert', 'delete']),
  text: z.string().describe('long unchanged runs are cut to their edges with “…”'),
});
export type ReplayDiffPart = z.infer<typeof ReplayDiffPartSchema>;

export const ReplayDiffSchema = z.object({
  target: z.enum(['objective', 'document', 'document_title', 'preference', 'todo', 'artifact']),
  summary: z.string().describe('what the change did, in a few words (“edited the document”)'),
  parts: z.array(ReplayDiffPartSchema).describe('the changed text, marked: kept, inserted, deleted'),
});
export type ReplayDiff = z.infer<typeof ReplayDiffSchema>;

export const ReplayWorkspaceSchema = z.object({
  objective: z.string().nullable(),
  document: z.object({ title: z.string(), content: z.string() }),
  preferences: z.array(z.object({ key: z.string().nullable(), text: z.string(), locked: z.boolean() })),
  todos: z.array(
    z.object({
      key: z.string().nullable(),
      text: z.string(),
      done: z.boolean(),
      depth: z.int().nonnegative(),
    }),
  ),
});

export const ReplaySchema = z.object({
  seq: z.int().positive(),
  total: z.int().nonnegative().describe('the number of changes on the path (the last `seq`)'),
  step: z.object({
    turn: z.int().nonnegative().describe('the step the change belongs to (see `Change.turn`)'),
    thread_id: z.string().describe('the path thread that owns the step (continue from here branches at it)'),
    label: z.string().describe('the step’s name on the trajectory (`3`, `3b` on a branch)'),
    message: z.string().nullable().describe('the opening message of the step; null before the first message'),
  }),
  change: ChangeSchema,
  diff: ReplayDiffSchema,
  workspace: ReplayWorkspaceSchema.describe(
    'the workspace right after the change (read-only: replay never changes the workspace)',
  ),
});
export type Replay = z.infer<typeof ReplaySchema>;
