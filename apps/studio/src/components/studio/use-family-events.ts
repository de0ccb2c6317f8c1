'use client';
import { useQueryClient } from '@tanstack/react-query';
import {
  DocumentUpdatesSignalSchema,
  FAMILY_EVENT_KINDS,
  FamilyEventSchema,
  PresenceSchema,
  type FamilyEvent,
  type Message,
} from '@trellis/domain';
import { useEffect, useRef } from 'react';
import { apiPaths } from '@/lib/api/paths';
import { rereadScheduler } from '@/lib/coalesced-reread';
import { queryKeys } from '@/lib/api/query-keys';
import { familySignals } from '@/lib/live/family-signals';
import type { FollowedSoFar, TurnStore } from '@/lib/turns/turn-store';
import { turnToFollow, type TurnToFollow } from '@/lib/turns/turn-to-follow';
import { WORKSPACE_EDIT_KEY } from '@/components/workspace/use-live-workspace';
import { CONVERSATION_EDIT_KEY } from '@/components/history/use-conversations';
import { receivePresence } from '@/components/presence/use-presence';
import { FAMILY_GRAPH_KEY } from './use-family-graph';
import { COMMENTS_KEY } from '@/components/comments/use-comments';

/**
 * The page listens to its family (`GET …/events`): what another tab, another device or another
 * studio process changes shows here without a reload. Every event redraws the trajectory and the
 * conversation list; one on the displayed thread re-reads its transcript, workspace and header
 * (coalesced per burst: `coalesced-reread.ts`).
 * EventSource reconnects on its own and sends the last id it saw, so nothing is missed. A tab too
 * far behind to replay gets `reset` instead (with the id to resume after): it re-reads everything
 * once. `end` means the stream must not come back (access ended, too many streams): it closes.
 *
 * Besides the record's events, the stream carries a document's new versions (`document_updates`, for
 * the live editor: it takes them directly, so an edit of the document body alone re-reads nothing
 * but, a moment later, the map) and who is here (`presence`).
 */
export function useFamilyEvents(threadId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (threadId === null || typeof EventSource === 'undefined') return;
    const source = new EventSource(apiPaths.events(threadId));
    let bodyEditTimer: ReturnType<typeof setTimeout> | undefined;
    const onEvent = (message: MessageEvent<string>) => {
      const event = parseFamilyEvent(message.data);
      if (!event) return;
      // A comment is not a workspace change: only the family's comment lists re-read.
      if (event.kind === 'comment_changed') {
        void queryClient.invalidateQueries({ queryKey: [COMMENTS_KEY] });
        return;
      }
      // A burst of events (a reply's tool writes) is one read of each query, at most two a second,
      // never a cancelled one: the reply's own stream keeps its connection.
      const rereads = rereadScheduler(queryClient);
      if (event.kind === 'workspace_changed' && isBodyOnly(event)) {
        // Typing reaches the editors as document updates; the map's change counts can wait for a pause.
        clearTimeout(bodyEditTimer);
        bodyEditTimer = setTimeout(() => rereads.ask([FAMILY_GRAPH_KEY]), BODY_EDIT_SETTLE_MS);
        return;
      }
      rereads.ask([FAMILY_GRAPH_KEY]);
      // While this tab's own edits are in flight, a re-read would put back what they are changing (a star
      // or a ticked box flips back until its save lands); the last edit re-reads when it settles.
      rereads.ask(queryKeys.conversationList(), { heldBy: CONVERSATION_EDIT_KEY });
      if (event.kind === 'member_changed') {
        // Someone's role changed: if it was this person's, what this page may show or do changed with it
        // (a removed member's next read is refused, and the page says so at once).
        void queryClient.invalidateQueries({ queryKey: queryKeys.members(event.family_id) });
        void queryClient.invalidateQueries({ queryKey: queryKeys.thread(threadId) });
        return;
      }
      if (event.thread_id !== threadId) return;
      if (event.kind === 'thread_updated' || event.kind === 'deleted') {
        rereads.ask(queryKeys.conversation(threadId), { heldBy: CONVERSATION_EDIT_KEY });
        return;
      }
      rereads.ask(queryKeys.messages(threadId));
      rereads.ask(queryKeys.workspace(threadId), { heldBy: WORKSPACE_EDIT_KEY });
      rereads.ask(queryKeys.conversation(threadId), { heldBy: CONVERSATION_EDIT_KEY });
    };
    for (const kind of FAMILY_EVENT_KINDS) source.addEventListener(kind, onEvent);
    source.addEventListener('document_updates', (message: MessageEvent<string>) => {
      const signal = parseJson(DocumentUpdatesSignalSchema, message.data);
      if (signal) familySignals.documentUpdates(signal);
    });
    source.addEventListener('presence', (message: MessageEvent<string>) => {
      const presence = parseJson(PresenceSchema, message.data);
      if (presence) receivePresence(queryClient, threadId, presence);
    });
    // Signals are not replayed on a reconnect: the live editors read what they missed.
    let hasOpened = false;
    source.addEventListener('open', () => {
      if (hasOpened) familySignals.reconnected();
      hasOpened = true;
    });
    // A stream the server refuses to reopen (access lost) is closed for good: re-read the thread, which says why.
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED)
        void queryClient.invalidateQueries({ queryKey: queryKeys.thread(threadId) });
    });
    const onReset = () => void queryClient.invalidateQueries();
    const onEnd = () => source.close();
    source.addEventListener('reset', onReset);
    source.addEventListener('end', onEnd);
    return () => {
      clearTimeout(bodyEditTimer);
      source.close();
    };
  }, [threadId, queryClient]);
}

/** The turn the page's server render saw running on its path, and its reply so far when it had one. */
export type OpenedTurn = TurnToFollow & { threadId: string; soFar?: FollowedSoFar | undefined };

/**
 * A turn of the displayed thread answered elsewhere — the server says one runs (`running_turn`: a
 * send or a retry, started in another tab or still running when the page opened), or the newest
 * question has no reply — and no run of this page on it: follow its reply from where it is, so a
 * reloaded tab shows the reply streaming, never "no reply yet" or Regenerate while it runs. Until the
 * transcript is read, the turn the page was rendered with (`atOpen`) is followed: the reply's stream
 * opens beside the page's first reads, not one round trip after them.
 */
export function useFollowUnansweredTurn(
  turns: TurnStore,
  threadId: string | null,
  messages: readonly Message[],
  runningTurn: number | null = null,
  atOpen: OpenedTurn | null = null,
): void {
  const followed = useRef<string | null>(null);
  const target =
    messages.length === 0 && atOpen !== null && atOpen.threadId === threadId
      ? atOpen
      : turnToFollow(threadId, messages, runningTurn);
  const turn = target?.turn ?? null;
  const content = target?.content ?? '';
  const attempt = target?.attempt ?? 1;
  // The reply the page's HTML already shows goes on from there.
  const soFar =
    atOpen !== null && atOpen.threadId === threadId && atOpen.turn === turn && atOpen.attempt === attempt
      ? atOpen.soFar
      : undefined;
  useEffect(() => {
    if (threadId === null || turn === null) return;
    const key = `${threadId}:${turn}:${attempt}`;
    if (followed.current === key || turns.isActive(threadId)) return;
    followed.current = key;
    void turns.follow(threadId, turn, content, attempt, soFar);
  }, [turns, threadId, turn, content, attempt, soFar]);
}

/** A pause in typing after which the map re-reads its change counts. */
const BODY_EDIT_SETTLE_MS = 1_500;

/** A change of the document's body and nothing else (what live editors take as document updates). */
function isBodyOnly(event: FamilyEvent): boolean {
  const kinds = event.data.kinds;
  return Array.isArray(kinds) && kinds.length === 1 && kinds[0] === 'document';
}

function parseJson<T>(
  schema: { safeParse: (value: unknown) => { success: true; data: T } | { success: false } },
  data: string,
): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function parseFamilyEvent(data: string): FamilyEvent | null {
  try {
    const parsed = FamilyEventSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
