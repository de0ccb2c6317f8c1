'use client';
import type { PresenceEntry } from '@trellis/domain';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { PresenceState } from './use-presence';

export interface PresencePerson {
  userId: string;
  name: string;
  isMe: boolean;
  isTyping: boolean;
  /** Where each of their tabs is: `{thread_id}:{turn_index}` (null turn: the path's latest step). */
  places: Array<{ threadId: string; turnIndex: number | null }>;
}

interface PresenceContextValue extends PresenceState {
  people: PresencePerson[];
  /** Who is typing in this thread's live document, other than this tab. */
  typingIn: (threadId: string) => PresencePerson[];
}

const PresenceContext = createContext<PresenceContextValue | null>(null);

/** One person per user (their tabs merged), this person first. */
export function peopleOf(
  entries: readonly PresenceEntry[],
  meUserId: string,
  myClientId: string,
): PresencePerson[] {
  const byUser = new Map<string, PresencePerson>();
  for (const entry of entries) {
    const person = byUser.get(entry.user_id) ?? {
      userId: entry.user_id,
      name: entry.name,
      isMe: entry.user_id === meUserId,
      isTyping: false,
      places: [],
    };
    person.isTyping ||= entry.is_typing && entry.client_id !== myClientId;
    person.places.push({ threadId: entry.thread_id, turnIndex: entry.turn_index });
    byUser.set(entry.user_id, person);
  }
  return [...byUser.values()].sort((a, b) => Number(b.isMe) - Number(a.isMe) || a.name.localeCompare(b.name));
}

export function PresenceProvider({
  state,
  meUserId,
  children,
}: {
  state: PresenceState;
  meUserId: string;
  children: ReactNode;
}) {
  const value = useMemo<PresenceContextValue>(() => {
    const entries = state.presence?.people ?? [];
    return {
      ...state,
      people: peopleOf(entries, meUserId, state.clientId),
      typingIn: (threadId) =>
        peopleOf(
          entries.filter(
            (e) =>
              e.thread_id === threadId &&
              e.turn_index === null &&
              e.is_typing &&
              e.client_id !== state.clientId,
          ),
          meUserId,
          state.clientId,
        ),
    };
  }, [state, meUserId]);
  return <PresenceContext.Provider value={value}>{children}</PresenceContext.Provider>;
}

/** The family's presence, or null outside a studio page (a harness, a test). */
export function usePresenceContext(): PresenceContextValue | null {
  return useContext(PresenceContext);
}
