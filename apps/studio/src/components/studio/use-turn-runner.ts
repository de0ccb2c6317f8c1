'use client';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';
import { messagesApi } from '@/lib/api/messages';
import { queryKeys } from '@/lib/api/query-keys';
import { siblingsApi } from '@/lib/api/siblings';
import { rereadScheduler } from '@/lib/coalesced-reread';
import { rememberOwnTurn, tabMemory } from '@/lib/turns/own-turns';
import { TurnStore, type TurnRun } from '@/lib/turns/turn-store';
import { invalidateFamilyGraphs } from './use-family-graph';

/**
 * One TurnStore for the page, wired to the query cache: tool results re-read
 * the thread's workspace (document, todos and preferences update as the stream
 * arrives, one read per burst of tool results); the end of a turn re-reads the transcript and the
 * conversation list, then lets the streamed bubbles give way to stored rows.
 */
export function useTurnRunner(): TurnStore {
  const queryClient = useQueryClient();
  const [store] = useState(() => {
    const created: TurnStore = new TurnStore(
      {
        send: (threadId, content, signal, refs) => messagesApi.send(threadId, content, signal, refs),
        regenerate: (threadId, turn, signal) => siblingsApi.regenerate(threadId, turn, signal),
        retry: (threadId, turn, signal) => messagesApi.retry(threadId, turn, signal),
        follow: (threadId, turn, signal) => messagesApi.follow(threadId, turn, signal),
        stop: (threadId, turn) => messagesApi.stop(threadId, turn),
      },
      {
        onCommitted: (run) => {
          // A reply this tab sent is its own after a reload too (never "answering in another tab").
          const memory = tabMemory();
          if (memory && !run.isFollowed && run.turnIndex !== null) rememberOwnTurn(memory, run.threadId, run.turnIndex, run.attempt);
          void queryClient.invalidateQueries({ queryKey: queryKeys.conversationList() });
          void invalidateFamilyGraphs(queryClient);
        },
        // Coalesced: a reply's tool writes come in bursts; one read per burst, never an aborted loop.
        onTool: (run) => rereadScheduler(queryClient).ask(queryKeys.workspace(run.threadId)),
        onEnd: (run) => {
          void settle(run);
        },
      },
    );

    /**
     * Re-reads a query after the turn changed what it reads. A read already in flight began before
     * the change, so it is cancelled, not awaited: TanStack would otherwise hand a first load's
     * pending answer to the refetch (a thread opened right as its turn starts — a branch from a
     * restored step — kept a transcript without the reply).
     */
    async function reread(queryKey: QueryKey): Promise<void> {
      await queryClient.cancelQueries({ queryKey });
      await queryClient.invalidateQueries({ queryKey });
    }

    const refresh = (threadId: string) =>
      Promise.all([
        reread(queryKeys.messages(threadId)),
        reread(queryKeys.workspace(threadId)),
        reread(queryKeys.conversation(threadId)),
        queryClient.invalidateQueries({ queryKey: queryKeys.conversationList() }),
        invalidateFamilyGraphs(queryClient),
      ]);

    async function settle(run: TurnRun): Promise<void> {
      if (run.turnIndex === null) return; // never committed: the notice keeps the message for a retry
      // A stopped reply is recorded just after the disconnect: until it is, the transcript re-reads
      // itself (useLiveTranscript), so nothing waits here.
      await refresh(run.threadId);
      // A recorded reply — a failed one too — now speaks for itself in the transcript (its one notice).
      if (run.phase !== 'failed' || run.error?.code === 'upstream_failed') created.dismiss(run.threadId, run.runId);
    }

    return created;
  });
  return store;
}

/** The run of one thread (undefined when none), re-rendering on each streamed change. */
export function useTurnRun(store: TurnStore, threadId: string | null): TurnRun | undefined {
  return useSyncExternalStore(
    store.subscribe,
    () => (threadId === null ? undefined : store.get(threadId)),
    () => undefined,
  );
}
