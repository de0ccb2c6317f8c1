'use client';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { FamilyGraph } from '@trellis/domain';
import { useCallback } from 'react';
import { graphApi } from '../../lib/api/graph';

/** Every family-graph query starts with this key; invalidate it to refresh whichever is shown. */
export const FAMILY_GRAPH_KEY = 'family-graph';

export type FamilyGraphKey = readonly [typeof FAMILY_GRAPH_KEY, string];

export function familyGraphKey(threadId: string | null): FamilyGraphKey {
  return [FAMILY_GRAPH_KEY, threadId ?? ''];
}

/**
 * The query behind the page's one family graph (docs/branching.md, "The family graph": fetched once at the page level
 * and shared by the trajectory panel and the chat).
 *
 * Ordering: responses are keyed by the displayed thread, so a late answer for a thread the user left
 * lands in that thread's cache entry, never in the one on screen; within one key a refresh cancels
 * the read in flight (`invalidateFamilyGraphs`), so an older response cannot overwrite a newer one.
 *
 * While another thread of the same family loads, the graph in hand stays on screen (same nodes, the
 * path is redrawn from `displayedThreadId`); a different family shows its own loading state instead of
 * a stranger's graph.
 */
export function familyGraphQuery(threadId: string | null) {
  return queryOptions<FamilyGraph, Error, FamilyGraph, FamilyGraphKey>({
    queryKey: familyGraphKey(threadId),
    queryFn: ({ signal }) => graphApi.get(threadId ?? '', signal),
    enabled: threadId !== null,
    placeholderData: (previous) =>
      previous !== undefined && threadId !== null && isInFamily(previous, threadId) ? previous : undefined,
  });
}

export function isInFamily(graph: FamilyGraph, threadId: string): boolean {
  return graph.threads.some((thread) => thread.thread_id === threadId);
}

export interface FamilyGraphState {
  /** The graph of the displayed family; during a refetch, the one in hand. */
  graph: FamilyGraph | undefined;
  /** A fetch is running (first load or refresh). */
  isLoading: boolean;
  /** The last fetch failed (with `graph` still set, the graph is stale). */
  error: unknown;
  refresh: () => void;
}

/** The family graph of the displayed thread: one query per page, read by the panel and the chat. */
export function useFamilyGraph(threadId: string | null): FamilyGraphState {
  const query = useQuery(familyGraphQuery(threadId));
  const queryClient = useQueryClient();
  const refresh = useCallback(() => void invalidateFamilyGraphs(queryClient), [queryClient]);
  return {
    graph: threadId === null ? undefined : query.data,
    isLoading: threadId !== null && query.isFetching,
    error: query.error,
    refresh,
  };
}

/**
 * After a turn commits or ends, or a branch is created: every family graph may have changed. A read
 * already in flight started before the change, so it is cancelled rather than awaited (TanStack would
 * otherwise hand a first load's pending answer to the refetch).
 */
export async function invalidateFamilyGraphs(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({ queryKey: [FAMILY_GRAPH_KEY] });
  await queryClient.invalidateQueries({ queryKey: [FAMILY_GRAPH_KEY] });
}
