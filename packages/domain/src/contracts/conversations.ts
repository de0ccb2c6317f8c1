import { z } from 'zod';
import { IsoDateSchema, StorableStringSchema } from './common';
import { PersonRefSchema, FamilyRoleSchema } from './members';

export const ConversationSchema = z.object({
  thread_id: z.string(),
  title: z.string(),
  starred: z.boolean(),
  archived: z.boolean().describe('Put away: left out of lists and graphs unless include_archived=true.'),
  turn_index: z.number().int(),
  message_count: z.number().int(),
  parent_thread_id: z.string().nullable(),
  branch_point_turn: z.number().int().nullable(),
  branch_reason: z
    .string()
    .nullable()
    .describe('Why the branch was made (`continue`, `edit`, `regenerate`, …); null on a family root.'),
  root_thread_id: z.string(),
  role: FamilyRoleSchema.describe('the caller’s role in the family: `owner`, or the role it was shared with them as'),
  owner: PersonRefSchema.optional().describe('on a family shared with the caller: its owner'),
  created_at: IsoDateSchema,
  updated_at: IsoDateSchema,
});
export type Conversation = z.infer<typeof ConversationSchema>;

export const ConversationListSchema = z.object({
  conversations: z.array(ConversationSchema),
  next_cursor: z
    .string()
    .nullable()
    .optional()
    .describe('with `limit`: pass as `cursor` for the next page (null on the last page); families are never split across pages'),
});
export type ConversationList = z.infer<typeof ConversationListSchema>;

/** `GET /api/conversations?limit=&cursor=`: pages of whole families, newest family first (by its root's creation). */
export const ConversationPageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be a cursor returned by a previous page')
    .optional(),
});

export const CreateConversationSchema = z
  .object({ title: StorableStringSchema.trim().min(1).max(200).optional() })
  .strict();
export type CreateConversation = z.infer<typeof CreateConversationSchema>;

/** `PATCH /api/conversations/{id}`: rename, star or archive (archive is not delete: `archived: false` restores). */
export const UpdateConversationSchema = z
  .object({
    title: StorableStringSchema.trim().min(1).max(200).optional(),
    starred: z.boolean().optional(),
    archived: z.boolean().optional(),
  })
  .strict()
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: 'name at least one of title, starred, archived',
  });
export type UpdateConversation = z.infer<typeof UpdateConversationSchema>;

/** `?include_archived=true` on the list and the graph. */
export const IncludeArchivedSchema = z
  .enum(['true', 'false'])
  .optional()
  .transform((value) => value === 'true');
