'use client';
import { activePathGuide, stubNodeId, type GraphNode, type PathGuideStep } from '@trellis/domain';
import { useRouter } from 'next/navigation';
import { createElement, useCallback, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { flashTurnMessage, scrollToTurnMessage } from '@/components/chat/flash-message';
import { focusComposerSoon } from '@/components/chat/focus-composer';
import type { TrajectoryLinks } from '@/components/chat/trajectory-links';
import type { TrajectoryPanelProps } from '@/components/trajectory';
import { StepChangesDetail } from '@/components/trajectory/step-changes';
import { compareHref } from '@/lib/api/compare';
import type { DisplayedView } from '@/lib/view-url';
import { isInFamily, useFamilyGraph } from './use-family-graph';
import type { StepPreview } from './use-step-preview';

export interface TrajectoryInput {
  view: DisplayedView;
  preview: StepPreview | null;
  navigate: (next: DisplayedView) => void;
  /** Runs a way out of the displayed view, asking first when it holds unsent text. */
  guard: (leave: () => void) => void;
  /** Opens a thread's live tip (and the chat tab on a phone). */
  openThread: (threadId: string) => void;
  /** The step of the replayed change: marked on the map and in the chat, apart from "you are here". */
  replayTurn?: number | undefined;
  /** The displayed path's step whose reply streams now (a run of this page, or one it follows). */
  replyingTurn?: number | null;
}

/**
 * The trajectory side of the studio: the panel's props, the chat's links, and every way of moving
 * between steps and paths (a restored step branches only when a message is sent from it); each goes through
 * the unsent-text guard (use-unsent-leave-guard.ts).
 */
export function useTrajectory({ view, preview, navigate, guard, openThread, replayTurn, replyingTurn = null }: TrajectoryInput) {
  const family = useFamilyGraph(view.threadId);
  const threadId = view.threadId;
  // Until the displayed thread's own graph arrives, a graph of its family still knows the path.
  const graph =
    family.graph !== undefined && threadId !== null && isInFamily(family.graph, threadId)
      ? family.graph
      : undefined;
  const [isCollapsed, setCollapsed] = useState(false);

  const guide = useMemo<PathGuideStep[]>(
    () =>
      graph === undefined || threadId === null ? [] : activePathGuide(graph, { displayedThreadId: threadId }),
    [graph, threadId],
  );
  const steps = useMemo(() => new Map(guide.map((step) => [step.turn_index, step])), [guide]);
  const currentNodeId = useMemo(() => {
    if (graph === undefined || threadId === null) return null;
    if (preview !== null) return steps.get(preview.step)?.node_id ?? null;
    const displayed = graph.threads.find((thread) => thread.thread_id === threadId);
    if (displayed?.owned_turn_count === 0 && displayed.parent_thread_id !== null) return stubNodeId(threadId);
    return guide.at(-1)?.node_id ?? null;
  }, [graph, threadId, preview, steps, guide]);
  const replayedTurn = replayTurn !== undefined && view.replay ? replayTurn : null;
  const replayNodeId = replayedTurn === null ? null : (steps.get(replayedTurn)?.node_id ?? null);
  const replyingNodeId = replyingTurn === null ? null : (steps.get(replyingTurn)?.node_id ?? null);

  // A replay that moves to another step brings the chat along: its message scrolls into view, marked.
  useEffect(() => {
    if (replayedTurn !== null) scrollToTurnMessage(replayedTurn);
  }, [replayedTurn]);

  // ---- Moving between steps and paths ---------------------------------------------------------
  const isOnDisplayedPath = useEffectEvent((node: GraphNode) => steps.get(node.turn_index)?.node_id === node.id);
  /** Restores a step: of the displayed path (the URL keeps naming it), or of another path. */
  const continueFrom = useCallback(
    (node: GraphNode) => {
      if (threadId === null) return;
      const isOnPath = isOnDisplayedPath(node);
      guard(() => {
        navigate({ threadId: isOnPath ? threadId : node.thread_id, step: node.turn_index });
        focusComposerSoon();
      });
    },
    [guard, navigate, threadId],
  );
  const restoreStep = useCallback(
    (turn: number) => {
      if (threadId !== null) guard(() => navigate({ threadId, step: turn }));
    },
    [guard, navigate, threadId],
  );
  const openPath = useCallback((target: string) => guard(() => openThread(target)), [guard, openThread]);
  const backToLatest = useCallback(() => {
    if (threadId !== null) guard(() => navigate({ threadId, step: null }));
  }, [guard, navigate, threadId]);
  const router = useRouter();
  const compare = useCallback(
    (a: string, b: string, into?: 'a') => {
      if (threadId !== null) guard(() => router.push(compareHref(threadId, a, b, into)));
    },
    [guard, router, threadId],
  );
  const selectStep = useCallback((_nodeId: string, node: GraphNode) => {
    flashTurnMessage(node.turn_index);
  }, []);

  const openStep = useCallback(
    (nodeId: string) => {
      const at = nodeId.lastIndexOf(':');
      const step = Number(nodeId.slice(at + 1));
      if (at > 0 && Number.isInteger(step)) guard(() => navigate({ threadId: nodeId.slice(0, at), step }));
    },
    [guard, navigate],
  );

  const links = useMemo<TrajectoryLinks>(
    () => ({ steps, openPath, restoreStep, openStep, replayTurn: replayedTurn }),
    [steps, openPath, restoreStep, openStep, replayedTurn],
  );

  const toggleCollapsed = useCallback(() => setCollapsed((collapsed) => !collapsed), []);
  // Stable between graph changes, so a streamed token re-rendering the studio leaves the panel alone.
  const panel = useMemo<TrajectoryPanelProps | null>(
    () =>
      threadId === null
        ? null
        : {
            graph,
            isLoading: family.isLoading,
            error: family.error,
            displayedThreadId: threadId,
            currentNodeId,
            replayNodeId,
            replyingNodeId,
            onSelectStep: selectStep,
            onContinueFrom: continueFrom,
            onOpenThread: openPath,
            onCompare: compare,
            renderStepChanges,
            collapsed: isCollapsed,
            onToggleCollapsed: toggleCollapsed,
          },
    [
      threadId,
      graph,
      family.isLoading,
      family.error,
      currentNodeId,
      replayNodeId,
      replyingNodeId,
      selectStep,
      continueFrom,
      openPath,
      compare,
      isCollapsed,
      toggleCollapsed,
    ],
  );

  const isEdited = preview !== null && preview.isEdited;
  const previewLabel = preview === null ? '' : (steps.get(preview.step)?.label ?? String(preview.step));
  const banner =
    preview === null ? null : { stepLabel: previewLabel, isEdited, onBackToLatest: backToLatest };

  return { panel, links, banner };
}

function renderStepChanges(step: GraphNode) {
  return createElement(StepChangesDetail, { step });
}
