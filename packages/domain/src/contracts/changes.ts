import { z } from 'zod';
import { IsoDateSchema, PG_INT_MAX } from './common';

/** The largest page of `GET /api/conversations/{id}/changes`. */
export const MAX_CHANGES_PAGE = 500;

/** `GET /api/conversations/{id}/changes?after_seq=&limit=`. */
export const ChangesQuerySchema = z.object({
  after_seq: z.coerce
    .number()
    .int()
    .min(0, 'must be 0 or greater')
    .max(PG_INT_MAX, 'must be at most 2147483647')
    .optional()
    .describe('the last path-wide `seq` already read (0 or omitted: from the first change)'),
  limit: z.coerce.number().int().min(1).max(MAX_CHANGES_PAGE).optional().describe('at most this many changes (default 100)'),
});
export type ChangesQuery = z.infer<typeof ChangesQuerySchema>;

export const ChangeSchema = z.object({
  seq: z
    .int()
    .positive()
    .describe(
      'Path-wide position, gapless from 1: the root’s changes up to its child’s branch point first, then each branch’s own, ' +
        'down to this thread. Fixed forever (a branch point never moves); page with `after_seq`.',
    ),
  thread_id: z.string().describe('the thread the change was made on (this one or an ancestor)'),
  thread_seq: z.int().positive().describe('the change’s `seq` on its own thread (gapless per thread)'),
  turn: z.int().nonnegative().describe('the step whose workspace it changed (a change between turns k and k+1 belongs to step k)'),
  actor: z.enum(['person', 'agent', 'system']),
  actor_id: z.string().nullable().describe('the person’s user id, or the agent’s tool call id'),
  via: z
    .enum(['editor', 'agent_tool', 'apply', 'preview_edit', 'import', 'migration', 'retry'])
    .describe('`retry`: a retry taking back the changes of the stopped or failed attempt it answers again'),
  via_source: z.string().nullable().describe('an apply’s source node (`{thread_id}:{turn}`)'),
  kind: z.enum(['objective', 'document', 'document_title', 'preference', 'todo', 'artifact']),
  key: z.string().nullable().describe('the item’s key; null for the objective and the document'),
  op: z.string().describe('`set`, `patch` (document body), `create`, `update`, `move`, `delete`'),
  before: z.unknown().describe('the changed fields before (the document body: `{version, deleted}`)'),
  after: z.unknown().describe('the changed fields after (the document body: `{version, patch}`, ops `{r}` keep, `{d}` drop, `{i}` insert, in UTF-16 units)'),
  reverted: z
    .boolean()
    .describe('a stopped or failed attempt’s change that a retry took back (the `retry` changes after it undo it); it stays in the log'),
  created_at: IsoDateSchema,
});
export type Change = z.infer<typeof ChangeSchema>;

export const ChangesPageSchema = z.object({
  changes: z.array(ChangeSchema).describe('oldest first'),
  has_more: z.boolean(),
});
export type ChangesPage = z.infer<typeof ChangesPageSchema>;
