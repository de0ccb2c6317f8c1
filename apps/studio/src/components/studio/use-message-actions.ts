'use client';
import { toPathRefInput, type Message } from '@trellis/domain';
import { useCallback, useEffectEvent, useMemo, useState } from 'react';
import type { MessageActionsValue } from '@/components/chat/message-actions';
import { useToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api/http';
import { unsentText } from '@/lib/unsent-text';
import { siblingsApi } from '@/lib/api/siblings';
import { forkPointsOf, type ForkPlace } from '@/lib/fork-points';
import { isRunActive, type TurnRun, type TurnStore } from '@/lib/turns/turn-store';
import type { DisplayedView } from '@/lib/view-url';
import { usePendingSaves } from '@/components/workspace/pending-saves';
import { useFamilyGraph } from './use-family-graph';
import { useStartOnBranch } from './use-start-on-branch';

export interface MessageActionsInput {
  view: DisplayedView;
  /** The displayed transcript, oldest first. */
  messages: readonly Message[];
  /** The displayed thread's run, if any. */
  run: TurnRun | undefined;
  /** The displayed path's step whose reply is being written now (here or elsewhere); null when none. */
  replyingTurn?: number | null;
  turns: TurnStore;
  openThread: (threadId: string) => void;
}

/**
 * Edit, regenerate and sibling switching for the displayed path (docs/branching.md, "Siblings: edit and regenerate"). Both edit and
 * regenerate make a sibling branch at k−1 and switch the view to it at once: an edit creates the
 * branch, then sends the edited text there as an ordinary turn; a regenerate streams, and the view
 * follows as soon as the stream names its branch. Where forks are comes from the page's family graph;
 * what a switch opens comes from the server (the step last viewed in the sibling, else its latest leaf).
 */
export function useMessageActionsValue({
  view,
  messages,
  run,
  replyingTurn = null,
  turns,
  openThread,
}: MessageActionsInput): MessageActionsValue | null {
  const toast = useToast();
  const saves = usePendingSaves();
  const threadId = view.threadId;
  const { graph } = useFamilyGraph(threadId);
  const forks = useMemo(() => forkPointsOf(graph, threadId), [graph, threadId]);
  // An edit or regenerate waiting for its branch: nothing else may start meanwhile.
  const [isBranching, setBranching] = useState(false);
  const [switchingTurn, setSwitchingTurn] = useState<number | null>(null);
  const questionOf = useEffectEvent((turn: number) =>
    messages.find((m) => m.turn_index === turn && m.role === 'user'),
  );
  const displayedThreadId = useEffectEvent(() => threadId);

  const lastTurn = useMemo(() => {
    // The path's last step may be an apply entry (no question, no model call): nothing to answer again.
    if (messages.at(-1)?.role === 'system') return null;
    const last = messages.findLast((m) => m.role === 'user')?.turn_index ?? null;
    // A finished turn the transcript has not read back yet is the real last one: wait for it.
    if (run?.turnIndex != null && (last === null || run.turnIndex > last)) return null;
    return last;
  }, [messages, run]);

  const { openBranch, startOnBranch } = useStartOnBranch(turns, openThread);

  // A turn running on the path (a reload sees it before it follows it) answers first: no edit, no Regenerate.
  const canStart = threadId !== null && !isRunActive(run) && replyingTurn === null && !isBranching;

  const edit = useCallback(
    async (turn: number, content: string): Promise<boolean> => {
      if (!canStart || threadId === null) return false;
      setBranching(true);
      try {
        await saves.flushAll();
        const branchId = await siblingsApi.edit(threadId, turn, content);
        // The edited message keeps the steps the original referenced.
        const refs = questionOf(turn)?.refs?.map(toPathRefInput) ?? [];
        startOnBranch(branchId, content, refs);
        return true;
      } catch (error) {
        toast.error(`Could not edit the message: ${errorMessage(error)}`);
        return false;
      } finally {
        setBranching(false);
      }
    },
    [canStart, threadId, saves, startOnBranch, toast],
  );

  const regenerate = useCallback(
    (turn: number) => {
      const question = questionOf(turn);
      if (!canStart || threadId === null || !question) return;
      // The view moves to the new sibling: an edit open on another message would be lost, so ask first.
      unsentText.guard(() => {
        setBranching(true);
        void (async () => {
          await saves.flushAll();
          const outcome = await turns.regenerate(
            { threadId, turn, content: question.content },
            (branchId) => {
              setBranching(false);
              openBranch(branchId);
            },
          );
          setBranching(false);
          if (!outcome.isBranched) toast.error(`Could not regenerate the reply: ${outcome.error.message}`);
        })();
      });
    },
    [canStart, threadId, saves, turns, openBranch, toast],
  );

  const retry = useCallback(
    (turn: number) => {
      const question = questionOf(turn);
      if (!canStart || threadId === null || !question) return;
      void saves.flushAll().then(() => turns.retry(threadId, turn, question.content));
    },
    [canStart, threadId, saves, turns],
  );

  const switchSibling = useCallback(
    (turn: number, direction: -1 | 1, place: ForkPlace) => {
      if (threadId === null) return;
      // Another version replaces the displayed path: an edit open on a message would be lost, so ask first.
      unsentText.guard(() => {
        setSwitchingTurn(turn);
        siblingsApi
          .list(threadId, turn)
          .then(
            (list) => {
              const { index, siblings } = list[place];
              const target = siblings[index + direction];
              // The user may have moved on while the list loaded; then this answer is moot.
              if (target && displayedThreadId() === threadId) openThread(target.leaf_thread_id);
            },
            (error: unknown) => toast.error(`Could not open the other version: ${errorMessage(error)}`),
          )
          .finally(() => setSwitchingTurn(null));
      });
    },
    [threadId, openThread, toast],
  );

  // A previewed step is a look at the past with its own way forward: no actions there, so
  // nothing leaves an edited preview without the preview's own confirmation.
  const isPreview = view.step !== null;
  return useMemo(
    () =>
      threadId === null || isPreview
        ? null
        : { forks, canChange: canStart, switchingTurn, lastTurn, edit, regenerate, retry, switchSibling },
    [threadId, isPreview, forks, canStart, switchingTurn, lastTurn, edit, regenerate, retry, switchSibling],
  );
}
