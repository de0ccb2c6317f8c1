import {
  ConversationListSchema,
  ConversationSchema,
  type Conversation,
  type CreateConversation,
} from '@trellis/domain';
import { apiCall, apiJson } from './http';
import { apiPaths } from './paths';

export const conversationsApi = {
  async list(signal?: AbortSignal): Promise<Conversation[]> {
    const body = await apiJson(ConversationListSchema, apiPaths.conversations(), { signal });
    return body.conversations;
  },
  get(threadId: string, signal?: AbortSignal): Promise<Conversation> {
    return apiJson(ConversationSchema, apiPaths.conversation(threadId), { signal });
  },
  create(input: CreateConversation = {}): Promise<Conversation> {
    return apiJson(ConversationSchema, apiPaths.conversations(), { method: 'POST', body: input });
  },
  rename(threadId: string, title: string): Promise<void> {
    return apiCall(apiPaths.conversation(threadId), { method: 'PATCH', body: { title } });
  },
  remove(threadId: string): Promise<void> {
    return apiCall(apiPaths.conversation(threadId), { method: 'DELETE' });
  },
};
