'use client';
import { activePathGuide, stubNodeId, type GraphNode, type PathGuideStep } from '@trellis/domain';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { flashTurnMessage } from '@/components/chat/flash-message';
import type { TrajectoryLinks } from '@/components/chat/trajectory-links';
import type { TrajectoryPanelProps } from '@/components/trajectory';
import type { DisplayedView } from '@/lib/view-url';
import type { PopGuard } from './use-displayed-view';
import { usePendingSaves } from './pending-saves';
import { isInFamily, useFamilyGraph } from './use-family-graph';
import type { StepPreview } from './use-step-preview';

export interface TrajectoryInput {
  view: DisplayedView;
  preview: StepPreview | null;
  navigate: (next: DisplayedView) => void;
  setPopGuard: (guard: PopGuard | null) => void;
  /** Opens a thread's live tip (and the chat tab on a phone). */
  openThread: (threadId: string) => void;
}

export interface LeaveConfirmation {
  /** A navigation waits for the user: the preview it would discard has edits. */
  isOpen: boolean;
  stepLabel: string;
  confirm: () => void;
  cancel: () => void;
}

/**
 * The trajectory side of the studio: the panel's props, the chat's links, and every way of moving
 * between steps and paths (seed 003, "Restore now, branch only on send"). Moving away from a preview
 * that has unsent edits asks first; an unedited preview is left silently.
 */
export function useTrajectory({ view, preview, navigate, setPopGuard, openThread }: TrajectoryInput) {
  const saves = usePendingSaves();
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

  // ---- Leaving an edited preview asks first --------------------------------------------------
  const [pendingLeave, setPendingLeave] = useState<(() => void) | null>(null);
  const isEdited = preview !== null && preview.isEdited;
  const latest = useRef({ preview, isEdited });
  useEffect(() => {
    latest.current = { preview, isEdited };
  });
  /**
   * The preview on screen holds edits: its baseline differs, or the document editor holds text it
   * has not handed over yet (the only pending save a preview can have: its edits are local).
   */
  const hasUnsentEdits = useCallback(() => {
    const { preview: shown, isEdited: edited } = latest.current;
    return shown !== null && (edited || saves.getCount() > 0);
  }, [saves]);
  /** Runs `leave` now, or after a confirmation when the preview holds edits. */
  const guard = useCallback(
    (leave: () => void) => {
      if (hasUnsentEdits()) setPendingLeave(() => leave);
      else leave();
    },
    [hasUnsentEdits],
  );
  // Back and forward are guarded too.
  useEffect(() => {
    setPopGuard((next) => {
      if (!hasUnsentEdits()) return false;
      setPendingLeave(() => () => navigate(next));
      return true;
    });
    return () => setPopGuard(null);
  }, [setPopGuard, hasUnsentEdits, navigate]);
  useEffect(() => {
    if (!isEdited) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [isEdited]);

  // ---- Moving between steps and paths ---------------------------------------------------------
  const stepsRef = useRef(steps);
  useEffect(() => {
    stepsRef.current = steps;
  });
  /** Restores a step: of the displayed path (the URL keeps naming it), or of another path. */
  const continueFrom = useCallback(
    (node: GraphNode) => {
      if (threadId === null) return;
      const isOnPath = stepsRef.current.get(node.turn_index)?.node_id === node.id;
      guard(() => navigate({ threadId: isOnPath ? threadId : node.thread_id, step: node.turn_index }));
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
  const selectStep = useCallback((_nodeId: string, node: GraphNode) => {
    flashTurnMessage(node.turn_index);
  }, []);

  const links = useMemo<TrajectoryLinks>(
    () => ({ steps, openPath, restoreStep }),
    [steps, openPath, restoreStep],
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
            onSelectStep: selectStep,
            onContinueFrom: continueFrom,
            onOpenThread: openPath,
            collapsed: isCollapsed,
            onToggleCollapsed: toggleCollapsed,
          },
    [
      threadId,
      graph,
      family.isLoading,
      family.error,
      currentNodeId,
      selectStep,
      continueFrom,
      openPath,
      isCollapsed,
      toggleCollapsed,
    ],
  );

  const previewLabel = preview === null ? '' : (steps.get(preview.step)?.label ?? String(preview.step));
  const leave: LeaveConfirmation = {
    isOpen: pendingLeave !== null,
    stepLabel: previewLabel,
    confirm: () => {
      const action = pendingLeave;
      setPendingLeave(null);
      action?.();
    },
    cancel: () => setPendingLeave(null),
  };

  const banner =
    preview === null ? null : { stepLabel: previewLabel, isEdited, onBackToLatest: backToLatest };

  return { panel, links, banner, leave, guard };
}
