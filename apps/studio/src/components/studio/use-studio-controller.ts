'use client';
import type { PathRefInput } from '@trellis/domain';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { TranscriptSource } from '@/components/chat/transcript-source';
import { useLiveTranscript } from '@/components/chat/use-live-transcript';
import { useConversation, useCreateConversation } from '@/components/history/use-conversations';
import { useLiveWorkspace } from '@/components/workspace/use-live-workspace';
import type { WorkspaceSource } from '@/components/workspace/workspace-source';
import { useToast } from '@/components/ui/toast';
import { useReplay } from '@/components/replay/use-replay';
import { isApiError } from '@/lib/api/http';
import { isRunActive, type TurnRun } from '@/lib/turns/turn-store';
import { replyingTurn as replyingTurnOf } from '@/lib/turns/pending-turn';
import { EMPTY_VIEW, type DisplayedView } from '@/lib/view-url';
import { usePendingSaves } from '@/components/workspace/pending-saves';
import type { StudioTab } from './studio-layout';
import { useDisplayedView } from './use-displayed-view';
import { useOpenAtCursor, useRememberCursor } from './use-family-cursor';
import { useMessageActionsValue } from './use-message-actions';
import { usePreviewSend } from './use-preview-send';
import { useStepPreview } from './use-step-preview';
import { useUnsentLeaveGuard } from './use-unsent-leave-guard';
import { useTrajectory } from './use-trajectory';
import { useTurnRun, useTurnRunner } from './use-turn-runner';
import { useFamilyEvents, useFollowUnansweredTurn, type OpenedTurn } from './use-family-events';
import { openedRunOf, type PathAtOpen } from '@/lib/turns/path-at-open';

/**
 * The studio's state in one place, so later features plug in here:
 * - `view` — the displayed thread and, for a restored preview, the
 *   step; mirrored in the URL.
 * - `transcript` and `workspace` — what the chat and the workspace panel show,
 *   behind source interfaces: the live thread, or for a preview the restore
 *   view's truncated transcript and local, editable workspace state.
 * - `send` — flush manual edits, make sure a thread exists, start the turn.
 *   A preview's first send branches at the step, then sends on the branch.
 */
export function useStudioController(initial: DisplayedView, options: { root?: string; atOpen?: PathAtOpen | null } = {}) {
  const { view, navigate, setPopGuard } = useDisplayedView(initial, options.root);
  const atOpen = options.atOpen ?? null;
  const runningAtOpen: OpenedTurn | null = atOpen?.runningTurn
    ? { threadId: atOpen.threadId, ...atOpen.runningTurn, soFar: atOpen.replySoFar ?? undefined }
    : null;
  const turns = useTurnRunner();
  const run = useOpenedRun(useTurnRun(turns, view.threadId), atOpen, view.threadId);
  const runningThreadIds = useSyncExternalStore(
    turns.subscribe,
    turns.getActiveThreads,
    turns.getActiveThreads,
  );
  const saves = usePendingSaves();
  const toast = useToast();
  const create = useCreateConversation();
  const conversation = useConversation(view.threadId);
  // A previewed step swaps both sources for the restore view's; the live ones rest meanwhile.
  const preview = useStepPreview(view);
  const liveThreadId = preview === null ? view.threadId : null;
  const liveTranscript = useLiveTranscript(liveThreadId, isRunActive(run), atOpen);
  const liveWorkspace = useLiveWorkspace(liveThreadId);
  const transcript: TranscriptSource = preview?.transcript ?? liveTranscript;
  const workspace: WorkspaceSource = preview?.workspace ?? liveWorkspace;
  // A shared replay link opens on the replay itself, which a phone shows in the workspace tab.
  const [tab, setTab] = useState<StudioTab>(() => (view.replay ? 'workspace' : 'chat'));
  // Other tabs and processes: their changes re-read what they touched, and a reply running
  // elsewhere streams in here (the composer waits for it instead of answering 409).
  useFamilyEvents(view.threadId);
  useFollowUnansweredTurn(turns, liveThreadId, liveTranscript.messages, liveTranscript.runningTurn, runningAtOpen);

  const openThread = useCallback(
    (threadId: string) => {
      navigate({ threadId, step: null });
      setTab('chat');
    },
    [navigate],
  );

  // docs/branching.md, "Siblings: edit and regenerate": the history menu opens a family where it was last viewed; every displayed thread is
  // recorded as that place; the chat edits, regenerates and switches siblings.
  const openConversation = useOpenAtCursor(openThread);
  useRememberCursor(view.threadId);
  // The step whose reply is being written: this page's run, or the turn the server says runs (a
  // reload reads it before following it). The map and the step detail say "replying…" for it.
  const replyingTurn = replyingTurnOf(run, view.threadId, liveTranscript.runningTurn);
  const messageActions = useMessageActionsValue({ view, messages: transcript.messages, run, replyingTurn, turns, openThread });

  // The trajectory panel and its links in the chat; every way out of unsent text asks first.
  const guard = useUnsentLeaveGuard(preview, navigate, setPopGuard);
  const replay = useReplay(view, navigate, guard);
  const replayTurn = replay.data?.step.turn;
  const trajectory = useTrajectory({ view, preview, navigate, guard, openThread, replayTurn, replyingTurn });
  const sendFromPreview = usePreviewSend(preview, turns, openThread);

  const createConversation = useCallback(async (): Promise<string | null> => {
    try {
      const created = await create.mutateAsync();
      openThread(created.thread_id);
      return created.thread_id;
    } catch {
      return null; // the mutation's toast has told the user
    }
  }, [create, openThread]);

  const send = useCallback(
    async (content: string, refs: readonly PathRefInput[] = []): Promise<boolean> => {
      if (preview !== null) return sendFromPreview(content, refs);
      // Snapshot k is taken from the live rows when turn k starts: let every
      // manual edit land first (docs/branching.md, "The restore rule").
      await saves.flushAll();
      const threadId = view.threadId ?? (await createConversation());
      if (threadId === null) return false;
      if (turns.isActive(threadId)) {
        toast.info('Wait for the current reply to finish.');
        return false;
      }
      void turns.start(threadId, content, refs);
      return true;
    },
    [preview, sendFromPreview, saves, view.threadId, createConversation, turns, toast],
  );

  const stop = useCallback(() => {
    if (view.threadId) turns.stop(view.threadId);
  }, [turns, view.threadId]);

  const dismissRun = useCallback(() => {
    if (view.threadId) turns.dismiss(view.threadId);
  }, [turns, view.threadId]);

  const leave = useCallback(() => navigate(EMPTY_VIEW), [navigate]);

  // A search hit opens its step in the restore view, or the path live (`step` null) when the hit is
  // on the path's latest step, so the next message continues it; leaving an edited preview asks first.
  const openStep = useCallback(
    (threadId: string, step: number | null) =>
      guard(() => {
        navigate({ threadId, step });
        setTab('chat');
      }),
    [guard, navigate],
  );

  // Opening another conversation or starting a new one discards a preview: ask first if it has edits.
  const guardedOpenConversation = useCallback(
    (threadId: string, options?: { exact?: boolean }) => guard(() => openConversation(threadId, options)),
    [guard, openConversation],
  );
  const guardedCreateConversation = useCallback(
    () => guard(() => void createConversation()),
    [guard, createConversation],
  );

  const isMissing =
    conversation.isError &&
    isApiError(conversation.error) &&
    (conversation.error.code === 'not_found' || conversation.error.code === 'forbidden');

  return {
    view,
    /** The displayed thread's run; none while a past step is previewed. */
    run: preview === null ? run : undefined,
    trajectory,
    guardedOpenConversation,
    guardedCreateConversation,
    runningThreadIds,
    conversation: conversation.data,
    isMissing,
    /** The family answered 403: this person has no role in it (any more). */
    isForbidden: isMissing && isApiError(conversation.error) && conversation.error.code === 'forbidden',
    transcript,
    workspace,
    isCreating: create.isPending,
    tab,
    setTab,
    messageActions,
    send,
    stop,
    dismissRun,
    leave,
    openStep,
    replay,
  };
}

/**
 * The displayed thread's run; until this page has one, the reply its server render saw running (the
 * HTML shows it streaming from the first paint, and its follow goes on from the same text). Once the
 * page's own run has stood for the thread, or another thread is displayed, only the page's.
 */
function useOpenedRun(run: TurnRun | undefined, atOpen: PathAtOpen | null, threadId: string | null): TurnRun | undefined {
  const opened = useMemo(() => openedRunOf(atOpen), [atOpen]);
  const [isOver, setOver] = useState(opened === null);
  const isShown = !isOver && run === undefined && opened !== null && opened.threadId === threadId;
  useEffect(() => {
    if (!isOver && (run !== undefined || opened?.threadId !== threadId)) setOver(true);
  }, [isOver, run, opened, threadId]);
  return isShown ? opened : run;
}
