import { z } from 'zod';
import { IsoDateSchema } from './common';

/**
 * What a family's event stream says (`GET /api/conversations/{id}/events`). Each kind's `data`:
 * - `turn_started`: `turn_index`, `by` (`user` or `apply`), `message_preview`
 * - `turn_finished`: `turn_index`, `status` (`complete`, `interrupted`, `failed`, `stopped`), `reason`, `message_id`
 * - `stop_requested`: `turn_index` (someone pressed Stop; the process running the turn stops it)
 * - `workspace_changed`: `seq` and `actor` once the change log records them (absent before)
 * - `branch_created`: `parent_thread_id`, `branch_point_turn`, `reason`
 * - `thread_updated`: the fields that changed (`title`, `is_starred`, `is_archived`)
 * - `apply`: `turn_index`, `source_node_id`
 * - `deleted`: the thread and its subtree are gone
 * - `member_changed`: `user_id` and `role` (null: removed) — that person's streams end, and reconnect
 *   with their new role if they still have one
 * - `comment_changed`: `comment_id`, `action` (`created`, `edited`, `resolved`, `reopened`, `deleted`),
 *   `author_id`, `mentions` (user ids the body names with `@name`: each is told)
 */
export const FAMILY_EVENT_KINDS = [
  'turn_started',
  'turn_finished',
  'stop_requested',
  'workspace_changed',
  'branch_created',
  'thread_updated',
  'apply',
  'deleted',
  'member_changed',
  'comment_changed',
] as const;
export const FamilyEventKindSchema = z.enum(FAMILY_EVENT_KINDS);
export type FamilyEventKind = z.infer<typeof FamilyEventKindSchema>;

/** One event of a family: `id` is the SSE `id:` field, growing within the family in commit order. */
export const FamilyEventSchema = z.object({
  id: z.number().int().describe('the event id; send the last one seen as `Last-Event-ID` to catch up'),
  family_id: z.string().describe('the family root thread'),
  thread_id: z.string().describe('the thread the event happened on'),
  kind: FamilyEventKindSchema,
  data: z.record(z.string(), z.unknown()),
  created_at: IsoDateSchema,
});
export type FamilyEvent = z.infer<typeof FamilyEventSchema>;

export const FamilyEventsQuerySchema = z.object({
  last_event_id: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe('for clients that cannot set the `Last-Event-ID` header: replay the events after this id'),
});

/** A turn's status as the family stream reports it: an interruption the user asked for reads `stopped`. */
export const TurnFinishStatusSchema = z.enum(['complete', 'interrupted', 'failed', 'stopped']);

export const StopTurnResultSchema = z.object({
  thread_id: z.string(),
  turn_index: z.number().int(),
  is_running: z
    .boolean()
    .describe('true: the turn was running and is being stopped (its reply ends `interrupted`); false: it had already ended'),
});
export type StopTurnResult = z.infer<typeof StopTurnResultSchema>;
