import { z } from 'zod';
import { IsoDateSchema, PG_INT_MAX, StorableStringSchema } from './common';
import { WorkspaceSchema } from './workspace';
import { ApplyProvenanceSchema } from '../apply/contracts';
import { FailureCodeSchema } from '../model-failure/provider-failure';
import { MAX_MESSAGE_REFS, PathRefInputSchema, PathRefSchema } from '../paths/contracts';
import { PersonRefSchema } from './members';

export const MAX_MESSAGE_CHARS = 32_000;

/** An imported subagent run (a project folder's `subagents/` file), summarised on the call that started it. */
export const SubagentRunSchema = z.object({
  agent_id: z.string(),
  description: z.string().nullable(),
  prompt: z.string(),
  reply: z.string().nullable().describe('the run’s last answer; null when it never answered'),
  tools: z.array(z.string()).describe('the tools the run called, in order (at most 100)'),
  record_count: z.int().nonnegative(),
});
export type SubagentRun = z.infer<typeof SubagentRunSchema>;

export const ToolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  result: z.string().optional(),
  is_error: z.boolean().optional(),
  subagent: SubagentRunSchema.optional().describe('on an imported Task/Agent call: the run it started'),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const UsageSchema = z.object({
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0),
  model: z.string().describe('the model that answered, as configured'),
});
export type Usage = z.infer<typeof UsageSchema>;

export const MessageSchema = z.object({
  id: z.string(),
  thread_id: z.string().describe('the thread that owns the turn (an ancestor for inherited turns)'),
  turn_index: z.number().int(),
  role: z
    .enum(['user', 'assistant', 'system'])
    .describe('`system`: an entry the studio wrote itself (kind `apply`); it opens its turn instead of a user message and no model answers it'),
  content: z.string(),
  kind: z.enum(['apply']).optional().describe('What a `system` entry records; absent on user and assistant messages'),
  provenance: ApplyProvenanceSchema.optional().describe('On an `apply` entry: where its items came from'),
  tool_calls: z.array(ToolCallSchema),
  status: z.enum(['complete', 'interrupted', 'failed']),
  reason: z
    .string()
    .nullable()
    .optional()
    .describe('why an `interrupted` or `failed` reply stopped, e.g. "the server stopped during this reply"; null when complete'),
  reason_code: FailureCodeSchema.optional().describe('on a `failed` reply the provider failed: why, as a code (the studio picks its action from it)'),
  retry_after_s: z.number().min(0).optional().describe('on a reply the provider rate limited: the wait it asked for, in seconds'),
  attempt: z
    .number()
    .int()
    .min(2)
    .optional()
    .describe('a retry in place: the attempt number of this reply to its turn (absent on the first); earlier attempts stay in the transcript'),
  usage: UsageSchema.optional().describe('tokens the provider reported for this reply (absent when it reported none)'),
  author: PersonRefSchema.optional().describe('on a user message: who sent it (absent on replies, system entries and imported or older messages)'),
  compacted_before: z
    .boolean()
    .optional()
    .describe('true on the first message after an imported transcript was compacted; absent otherwise'),
  refs: z
    .array(PathRefSchema)
    .optional()
    .describe('on a user message: the steps of other paths it brought into the conversation (absent when none)'),
  citations: z
    .array(PathRefSchema)
    .optional()
    .describe('on a reply: the referenced steps the agent read with `read_path` (absent when none)'),
  created_at: IsoDateSchema,
});
export type Message = z.infer<typeof MessageSchema>;

export const MessageListSchema = z.object({
  messages: z.array(MessageSchema),
  has_more: z.boolean().describe('true when older turns exist before the first returned one'),
  running_turn: z
    .number()
    .int()
    .positive()
    .nullable()
    .optional()
    .describe(
      'the turn of the displayed thread whose reply is being produced now (a send or a retry, on any process; follow it with `…/turns/{k}/stream`); null when none runs',
    ),
});
export type MessageList = z.infer<typeof MessageListSchema>;

export const MessageListQuerySchema = z.object({
  before_turn: z.coerce.number().int().min(1).max(PG_INT_MAX, 'must be at most 2147483647').optional(),
  limit_turns: z.coerce.number().int().min(1).max(1000).default(100),
});

export const SendMessageSchema = z
  .object({
    content: StorableStringSchema.trim().min(1, 'must not be empty').max(MAX_MESSAGE_CHARS),
    refs: z
      .array(PathRefInputSchema)
      .max(MAX_MESSAGE_REFS)
      .optional()
      .describe(
        'steps of other paths of this family the agent may read (`read_path`) for this message; a path outside the family is a 422. Without refs nothing of another path reaches the model',
      ),
  })
  .strict();
export type SendMessage = z.infer<typeof SendMessageSchema>;

/**
 * What a turn is waiting for, between tokens: `waiting` (no token for a few seconds), `rate_limited`
 * or `retrying` (the provider refused or failed; the call is sent again in `retry_in_s`).
 */
export const TurnStatusSchema = z.object({
  state: z.enum(['waiting', 'rate_limited', 'retrying']),
  retry_in_s: z.number().min(0).optional().describe('seconds until the call is sent again (rate_limited, retrying)'),
  retry: z.number().int().min(1).optional().describe('which retry that will be (1 = the first)'),
  reason: z.string().optional().describe('what the provider answered, in words (rate_limited, retrying)'),
});
export type TurnStatus = z.infer<typeof TurnStatusSchema>;

/** Server-sent events of one turn, in order: turn, then token/tool/status*, then done or error. */
export const TurnEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('branch'), data: z.object({ thread_id: z.string() }) }),
  z.object({
    event: z.literal('turn'),
    data: z.object({
      turn_index: z.number().int(),
      thread_id: z.string(),
      attempt: z.number().int().min(2).optional().describe('a retry in place: the attempt this reply will be'),
    }),
  }),
  z.object({ event: z.literal('status'), data: TurnStatusSchema }),
  z.object({ event: z.literal('token'), data: z.object({ text: z.string() }) }),
  z.object({
    event: z.literal('tool'),
    data: z.object({
      name: z.string(),
      args: z.record(z.string(), z.unknown()),
      result: z.string(),
      is_error: z.boolean().describe('the tool refused or failed; `result` says why'),
    }),
  }),
  z.object({
    event: z.literal('done'),
    data: z.object({
      turn_index: z.number().int(),
      message_id: z.string(),
      status: z.enum(['complete', 'interrupted']).describe('how the stored reply ended: `interrupted` when the client left, Stop was pressed or the server stopped'),
      reason: z.string().nullable().describe('why an interrupted reply stopped (e.g. "the server stopped during this reply"); null when complete'),
    }),
  }),
  z.object({
    event: z.literal('error'),
    data: z.object({
      code: z.string(),
      message: z.string(),
      reason_code: FailureCodeSchema.optional(),
      retry_after_s: z.number().min(0).optional(),
    }),
  }),
]);
export type TurnEvent = z.infer<typeof TurnEventSchema>;

export const RestoreViewSchema = z.object({
  thread_id: z.string(),
  turn_index: z.number().int(),
  workspace: WorkspaceSchema,
  messages: z.array(MessageSchema),
});
export type RestoreView = z.infer<typeof RestoreViewSchema>;
