'use client';
import { useQueryClient } from '@tanstack/react-query';
import { FAMILY_EVENT_KINDS, FamilyEventSchema, type FamilyEvent, type Message } from '@trellis/domain';
import { useEffect, useRef } from 'react';
import { apiPaths } from '@/lib/api/paths';
import { queryKeys } from '@/lib/api/query-keys';
import type { TurnStore } from '@/lib/turns/turn-store';
import { WORKSPACE_EDIT_KEY } from '@/components/workspace/use-live-workspace';
import { invalidateFamilyGraphs } from './use-family-graph';

/**
 * The page listens to its family (`GET …/events`): what another tab, another device or another
 * studio process changes shows here without a reload. Every event redraws the trajectory and the
 * conversation list; one on the displayed thread re-reads its transcript, workspace and header.
 * EventSource reconnects on its own and sends the last id it saw, so nothing is missed.
 */
export function useFamilyEvents(threadId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (threadId === null || typeof EventSource === 'undefined') return;
    const source = new EventSource(apiPaths.events(threadId));
    const onEvent = (message: MessageEvent<string>) => {
      const event = parseFamilyEvent(message.data);
      if (!event) return;
      void invalidateFamilyGraphs(queryClient);
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversationList() });
      if (event.kind === 'member_changed') {
        // Someone's role changed: if it was this person's, what this page may show or do changed with it
        // (a removed member's next read is refused, and the page says so at once).
        void queryClient.invalidateQueries({ queryKey: queryKeys.members(event.family_id) });
        void queryClient.invalidateQueries({ queryKey: queryKeys.thread(threadId) });
        return;
      }
      if (event.thread_id !== threadId) return;
      if (event.kind === 'thread_updated' || event.kind === 'deleted') {
        void queryClient.invalidateQueries({ queryKey: queryKeys.conversation(threadId) });
        return;
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.messages(threadId) });
      // While this tab's own workspace edits are in flight, a re-read would put back what they are
      // changing (a ticked box flips back until its save lands); the last edit re-reads when it settles.
      if (queryClient.isMutating({ mutationKey: WORKSPACE_EDIT_KEY }) === 0) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.workspace(threadId) });
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversation(threadId) });
    };
    for (const kind of FAMILY_EVENT_KINDS) source.addEventListener(kind, onEvent);
    // A stream the server refuses to reopen (access lost) is closed for good: re-read the thread, which says why.
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) void queryClient.invalidateQueries({ queryKey: queryKeys.thread(threadId) });
    });
    return () => source.close();
  }, [threadId, queryClient]);
}

/**
 * A question without a reply on the displayed thread, and no run of this page on it: the turn runs
 * elsewhere (another tab, or it was running when the page opened). Follow its reply from where it is.
 */
export function useFollowUnansweredTurn(turns: TurnStore, threadId: string | null, messages: readonly Message[]): void {
  const followed = useRef<string | null>(null);
  const last = messages.at(-1);
  const turn = last?.role === 'user' && last.thread_id === threadId ? last.turn_index : null;
  const content = last?.content ?? '';
  useEffect(() => {
    if (threadId === null || turn === null) return;
    const key = `${threadId}:${turn}`;
    if (followed.current === key || turns.isActive(threadId)) return;
    followed.current = key;
    void turns.follow(threadId, turn, content);
  }, [turns, threadId, turn, content]);
}

function parseFamilyEvent(data: string): FamilyEvent | null {
  try {
    const parsed = FamilyEventSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
