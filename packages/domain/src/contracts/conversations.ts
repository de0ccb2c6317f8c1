import { z } from 'zod';
import { IsoDateSchema } from './common';

export const ConversationSchema = z.object({
  thread_id: z.string(),
  title: z.string(),
  turn_index: z.number().int(),
  message_count: z.number().int(),
  parent_thread_id: z.string().nullable(),
  branch_point_turn: z.number().int().nullable(),
  root_thread_id: z.string(),
  created_at: IsoDateSchema,
  updated_at: IsoDateSchema,
});
export type Conversation = z.infer<typeof ConversationSchema>;

export const ConversationListSchema = z.object({ conversations: z.array(ConversationSchema) });

export const CreateConversationSchema = z
  .object({ title: z.string().trim().min(1).max(200).optional() })
  .strict();
export type CreateConversation = z.infer<typeof CreateConversationSchema>;

export const RenameConversationSchema = z.object({ title: z.string().trim().min(1).max(200) }).strict();
export type RenameConversation = z.infer<typeof RenameConversationSchema>;
