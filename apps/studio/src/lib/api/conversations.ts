import {
  ConversationListSchema,
  ConversationSchema,
  SearchResultSchema,
  type Conversation,
  type ConversationList,
  type CreateConversation,
  type SearchResult,
  type UpdateConversation,
} from '@trellis/domain';
import { apiCall, apiJson } from './http';
import { apiPaths } from './paths';

export const conversationsApi = {
  async list(signal?: AbortSignal): Promise<Conversation[]> {
    // Archived paths come too: the history menu shows them in their own group.
    const body = await apiJson(ConversationListSchema, `${apiPaths.conversations()}?include_archived=true`, { signal });
    return body.conversations;
  },
  /** One page of whole families, newest family first; `next_cursor` names the next (null on the last). */
  page(page: { limit: number; cursor: string | null }, signal?: AbortSignal): Promise<ConversationList> {
    const query = new URLSearchParams({ include_archived: 'true', limit: String(page.limit) });
    if (page.cursor !== null) query.set('cursor', page.cursor);
    return apiJson(ConversationListSchema, `${apiPaths.conversations()}?${query.toString()}`, { signal });
  },
  get(threadId: string, signal?: AbortSignal): Promise<Conversation> {
    return apiJson(ConversationSchema, apiPaths.conversation(threadId), { signal });
  },
  create(input: CreateConversation = {}): Promise<Conversation> {
    return apiJson(ConversationSchema, apiPaths.conversations(), { method: 'POST', body: input });
  },
  update(threadId: string, patch: UpdateConversation): Promise<void> {
    return apiCall(apiPaths.conversation(threadId), { method: 'PATCH', body: patch });
  },
  search(q: string, signal?: AbortSignal): Promise<SearchResult> {
    return apiJson(SearchResultSchema, `/api/search?q=${encodeURIComponent(q)}`, { signal });
  },
  remove(threadId: string): Promise<void> {
    return apiCall(apiPaths.conversation(threadId), { method: 'DELETE' });
  },
};
