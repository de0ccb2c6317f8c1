'use client';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { Message, MessageList } from '@trellis/domain';
import { useCallback, useMemo, useRef } from 'react';
import { messagesApi } from '@/lib/api/messages';
import { queryKeys } from '@/lib/api/query-keys';
import { TURNS_PER_PAGE, type PathAtOpen } from '@/lib/turns/path-at-open';
import type { TranscriptSource } from './transcript-source';


/**
 * While the newest question has no reply row and no turn of this page is answering it, the
 * transcript re-reads itself at this pace, up to UNANSWERED_REREADS times: a stopped reply is
 * recorded just after the disconnect, and a turn a stopped server left behind is finished by the
 * sweeper.
 */
const UNANSWERED_REREAD_MS = 1_000;
const UNANSWERED_REREADS = 30;

/** The newest loaded question has no reply yet. */
export function awaitsReply(messages: readonly Message[]): boolean {
  return messages.at(-1)?.role === 'user';
}

/**
 * The transcript of a thread, newest page first; "Load earlier" fetches the
 * page before the oldest loaded turn. A refetch re-reads every loaded page
 * from the newest, so pages never leave a gap.
 */
export function useLiveTranscript(threadId: string | null, isAnswering = false, atOpen: PathAtOpen | null = null): TranscriptSource {
  const rereads = useRef(0);
  // The page's server render read the newest page already: it is the query's first data (fresh
  // from when the server read it), so the HTML holds the transcript and the browser reads it again
  // only once it is stale.
  const opened = atOpen !== null && atOpen.threadId === threadId ? atOpen : null;
  const query = useInfiniteQuery({
    queryKey: queryKeys.messages(threadId ?? ''),
    queryFn: ({ pageParam, signal }) =>
      messagesApi.list(threadId ?? '', { beforeTurn: pageParam, limitTurns: TURNS_PER_PAGE }, signal),
    initialPageParam: undefined as number | undefined,
    ...(opened && {
      initialData: { pages: [opened.transcript], pageParams: [undefined] },
      initialDataUpdatedAt: opened.readAt,
    }),
    getNextPageParam: (page: MessageList) => (page.has_more ? page.messages[0]?.turn_index : undefined),
    enabled: threadId !== null,
    refetchInterval: (current) => {
      const pages = current.state.data?.pages;
      if (isAnswering || pages === undefined || !awaitsReply(flatten(pages))) {
        rereads.current = 0;
        return false;
      }
      rereads.current += 1;
      return rereads.current > UNANSWERED_REREADS ? false : UNANSWERED_REREAD_MS;
    },
  });
  const messages = useMemo(() => flatten(query.data?.pages ?? []), [query.data]);
  const { refetch, fetchNextPage } = query;
  return {
    messages,
    status: threadId === null ? 'idle' : query.data ? 'ready' : query.isError ? 'error' : 'loading',
    error: query.error,
    retry: useCallback(() => void refetch(), [refetch]),
    hasEarlier: query.hasNextPage,
    isLoadingEarlier: query.isFetchingNextPage,
    loadEarlier: useCallback(() => void fetchNextPage(), [fetchNextPage]),
    runningTurn: query.data?.pages[0]?.running_turn ?? null,
  };
}

/** Oldest first, each message once (pages may overlap after new turns). */
function flatten(pages: readonly MessageList[]): Message[] {
  const seen = new Set<string>();
  const out: Message[] = [];
  for (const page of [...pages].reverse()) {
    for (const message of page.messages) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
      out.push(message);
    }
  }
  return out.sort((a, b) => a.turn_index - b.turn_index || roleOrder(a) - roleOrder(b));
}

function roleOrder(message: Message): number {
  return message.role === 'user' ? 0 : 1;
}
