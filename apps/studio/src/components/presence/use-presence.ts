'use client';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Presence } from '@trellis/domain';
import { useCallback, useEffect, useRef, useState } from 'react';
import { presenceApi } from '@/lib/api/collab';
import { queryKeys } from '@/lib/api/query-keys';
import { newClientId } from '@/lib/live/family-signals';

/** Heartbeats every 10 s keep this tab in the family's presence (the server drops a tab after 20 s of silence). */
const HEARTBEAT_MS = 10_000;
/** Typing ends after this long without a keystroke. */
const TYPING_IDLE_MS = 3_000;

/**
 * The later read of two presence lists. A heartbeat's answer and the family stream's `presence`
 * message can arrive out of order (the answer was read before someone else's typing was stored, the
 * message after): the list read last is the truth, whichever came last.
 */
export function newerPresence(current: Presence | undefined, next: Presence): Presence {
  return current !== undefined && current.as_of > next.as_of ? current : next;
}

/** Puts a presence list in the family's cache unless a later read is already there. */
export function receivePresence(queryClient: QueryClient, threadId: string, next: Presence): void {
  queryClient.setQueryData<Presence>(queryKeys.presence(threadId), (current) => newerPresence(current, next));
}

let tabId: string | null = null;
/** One id per open tab, for its heartbeats. */
function tabClientId(): string {
  tabId ??= newClientId('tab');
  return tabId;
}

export interface PresenceState {
  presence: Presence | undefined;
  /** This tab's id: its own entry in `presence.people`. */
  clientId: string;
  /** The person typed in the document: they show as typing until they pause. */
  reportTyping: () => void;
}

/**
 * This tab's presence in the displayed family: a heartbeat when the path, the step or typing
 * changes and every 10 s, a leave when the page closes; who else is here comes with each heartbeat's
 * answer and, between them, from the family stream's `presence` messages (use-family-events).
 */
export function usePresence(threadId: string | null, step: number | null): PresenceState {
  const queryClient = useQueryClient();
  const [clientId] = useState(() => (typeof crypto === 'undefined' ? 'tab-server-render' : tabClientId()));
  const [isTyping, setIsTyping] = useState(false);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const presenceKey = queryKeys.presence(threadId ?? '');
  const query = useQuery({
    queryKey: presenceKey,
    queryFn: async ({ signal }) =>
      newerPresence(
        queryClient.getQueryData<Presence>(presenceKey),
        await presenceApi.get(threadId ?? '', signal),
      ),
    enabled: threadId !== null,
    staleTime: Infinity,
  });

  useEffect(() => {
    if (threadId === null) return;
    let isCurrent = true;
    const beat = () =>
      presenceApi.heartbeat(threadId, { client_id: clientId, turn_index: step, is_typing: isTyping }).then(
        (presence) => isCurrent && receivePresence(queryClient, threadId, presence),
        () => undefined,
      );
    void beat();
    const timer = setInterval(() => void beat(), HEARTBEAT_MS);
    return () => {
      isCurrent = false;
      clearInterval(timer);
    };
  }, [threadId, step, isTyping, clientId, queryClient]);

  useEffect(() => {
    if (threadId === null) return;
    const leave = () => presenceApi.leave(threadId, clientId);
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [threadId, clientId]);

  useEffect(() => () => clearTimeout(typingTimer.current), []);

  const reportTyping = useCallback(() => {
    setIsTyping(true);
    clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(() => setIsTyping(false), TYPING_IDLE_MS);
  }, []);

  return { presence: query.data, clientId, reportTyping };
}
