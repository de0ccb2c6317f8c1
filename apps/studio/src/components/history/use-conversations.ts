'use client';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { Conversation, ConversationList, UpdateConversation } from '@trellis/domain';
import { invalidateFamilyGraphs } from '@/components/studio/use-family-graph';
import { useToast } from '@/components/ui/toast';
import { conversationsApi } from '@/lib/api/conversations';
import { errorMessage, isApiError } from '@/lib/api/http';
import { queryKeys } from '@/lib/api/query-keys';

/** Conversations per page of the history menu (whole families, so a page may hold more). */
export const CONVERSATION_PAGE_SIZE = 50;

export type ConversationPages = InfiniteData<ConversationList>;

/** Every rename, star, archive and delete of this tab runs under this key (the family events wait for them). */
export const CONVERSATION_EDIT_KEY = ['conversation-edit'];

/**
 * The history menu's conversations, a page of whole families at a time, newest family first. A
 * refetch (after a turn, a rename, …) walks the loaded pages again from the first, each next cursor
 * taken from the page just fetched, so pages never overlap or leave a gap.
 */
export function useConversationPages() {
  return useInfiniteQuery({
    queryKey: queryKeys.conversationList(),
    queryFn: ({ pageParam, signal }) => conversationsApi.page({ limit: CONVERSATION_PAGE_SIZE, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** Applies `change` to the conversations of every loaded page. */
function mapPages(
  pages: ConversationPages | undefined,
  change: (list: Conversation[], index: number) => Conversation[],
): ConversationPages | undefined {
  return pages && { ...pages, pages: pages.pages.map((page, i) => ({ ...page, conversations: change(page.conversations, i) })) };
}

export function useConversation(threadId: string | null) {
  return useQuery({
    queryKey: queryKeys.conversation(threadId ?? ''),
    queryFn: ({ signal }) => conversationsApi.get(threadId ?? '', signal),
    enabled: threadId !== null,
    // A missing or foreign thread will not appear by asking again.
    retry: (count, error) => !(isApiError(error) && error.status < 500) && count < 1,
  });
}

export function useCreateConversation() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: () => conversationsApi.create({}),
    onSuccess: (created) => {
      // The newest family comes first on the first page.
      queryClient.setQueryData<ConversationPages>(queryKeys.conversationList(), (pages) =>
        mapPages(pages, (list, i) => [...(i === 0 ? [created] : []), ...list.filter((c) => c.thread_id !== created.thread_id)]),
      );
      queryClient.setQueryData(queryKeys.conversation(created.thread_id), created);
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversationList() });
    },
    onError: (error) => toast.error(`Could not create a conversation: ${errorMessage(error)}`),
  });
}

/** Optimistic: the list shows a new title, star or archive at once and rolls back on failure. */
export function useUpdateConversation() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationKey: CONVERSATION_EDIT_KEY,
    mutationFn: ({ threadId, patch }: { threadId: string; patch: UpdateConversation }) =>
      conversationsApi.update(threadId, patch),
    onMutate: async ({ threadId, patch }) => {
      // A read of either already in flight would land after the new value with the old one.
      await Promise.all([
        queryClient.cancelQueries({ queryKey: queryKeys.conversationList() }),
        queryClient.cancelQueries({ queryKey: queryKeys.conversation(threadId) }),
      ]);
      const previous = queryClient.getQueryData<ConversationPages>(queryKeys.conversationList());
      queryClient.setQueryData<ConversationPages>(queryKeys.conversationList(), (pages) =>
        mapPages(pages, (list) => list.map((c) => (c.thread_id === threadId ? { ...c, ...patch } : c))),
      );
      queryClient.setQueryData<Conversation>(queryKeys.conversation(threadId), (c) =>
        c ? { ...c, ...patch } : c,
      );
      return { previous };
    },
    onError: (error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.conversationList(), context.previous);
      toast.error(`Could not save: ${errorMessage(error)}`);
    },
    onSettled: (_data, _error, { threadId }) => {
      // The last edit in flight re-reads: an earlier one's read could land before a later one is stored.
      if (queryClient.isMutating({ mutationKey: CONVERSATION_EDIT_KEY }) <= 1) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.conversationList() });
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversation(threadId) });
      void invalidateFamilyGraphs(queryClient);
    },
  });
}

/**
 * Optimistic: the row leaves the list at once and comes back on failure. `whenRemoved` runs right
 * after it left (the panel leaves a deleted open conversation then, so the page never shows the
 * row it just left behind).
 */
export function useDeleteConversation() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationKey: CONVERSATION_EDIT_KEY,
    mutationFn: ({ threadId }: { threadId: string; whenRemoved?: () => void }) => conversationsApi.remove(threadId),
    onMutate: async ({ threadId, whenRemoved }) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.conversationList() });
      const previous = queryClient.getQueryData<ConversationPages>(queryKeys.conversationList());
      queryClient.setQueryData<ConversationPages>(queryKeys.conversationList(), (pages) =>
        mapPages(pages, (list) => list.filter((c) => c.thread_id !== threadId)),
      );
      whenRemoved?.();
      return { previous };
    },
    onError: (error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.conversationList(), context.previous);
      toast.error(`Could not delete: ${errorMessage(error)}`);
    },
    onSuccess: (_data, { threadId }) => {
      queryClient.removeQueries({ queryKey: queryKeys.thread(threadId) });
    },
    onSettled: () => {
      if (queryClient.isMutating({ mutationKey: CONVERSATION_EDIT_KEY }) <= 1) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.conversationList() });
      }
    },
  });
}
