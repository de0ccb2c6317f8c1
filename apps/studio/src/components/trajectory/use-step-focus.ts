'use client';
import type { GraphNode } from '@trellis/domain';
import type { NodeMouseHandler } from '@xyflow/react';
import { useCallback, useState, type KeyboardEvent, type RefObject } from 'react';
import { adjacentFork, siblingPathAt } from './fork-keys';
import { directionForKey, firstPresent, navigate, type NavigationIndex } from './keyboard-navigation';
import { displayedTip, type Rect, type TrajectoryLayout, type TrajectoryNode } from './trajectory-layout';
import type { Size } from './viewport';

export interface StepFocusOptions {
  readonly layout: TrajectoryLayout;
  readonly nav: NavigationIndex;
  /** The focusable canvas: focus returns there when the detail card closes. */
  readonly canvasRef: RefObject<HTMLElement | null>;
  readonly currentNodeId: string | null;
  /** The canvas size, to open the detail card on the side away from its step. */
  readonly size: Size | null;
  /** Brings a step into view; returns where it will be on screen. */
  readonly reveal: (id: string) => Rect | null;
  readonly onSelectStep: (nodeId: string, node: GraphNode) => void;
  readonly onContinueFrom: (node: GraphNode) => void;
  readonly onOpenThread: (threadId: string) => void;
  readonly onCompare?: ((a: string, b: string) => void) | undefined;
}

export interface StepFocus {
  /** The keyboard's step (`aria-activedescendant`). */
  readonly focusedId: string | null;
  /** The step whose detail card is open. */
  readonly selectedId: string | null;
  /** "Compare with…": the step the next picked card is compared with. */
  readonly compareFrom: string | null;
  readonly detailSide: 'left' | 'right';
  /** The detail card was opened with the pointer and takes focus. */
  readonly isDetailFocused: boolean;
  readonly onNodeClick: NodeMouseHandler<TrajectoryNode>;
  readonly onNodeDoubleClick: NodeMouseHandler<TrajectoryNode>;
  readonly onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  readonly onPaneClick: () => void;
  readonly closeDetail: () => void;
  /** Starts "Compare with…" from a step's detail card. */
  readonly startCompare: (id: string) => void;
  /** Opens another step's detail card (and brings the step into view), e.g. an apply's source. */
  readonly showStep: (id: string) => void;
  readonly cancelCompare: () => void;
}

/**
 * Which step the keyboard is on and which one's detail card is open: arrows walk the graph, [ and ]
 * jump between forks, Alt+Up/Down open a sibling path, Enter opens a step, Escape closes; a click opens
 * a step (shift-click or "Compare with…" compares two), a double-click continues from it.
 */
export function useStepFocus(options: StepFocusOptions): StepFocus {
  const {
    layout,
    nav,
    canvasRef,
    currentNodeId,
    size,
    reveal,
    onSelectStep,
    onContinueFrom,
    onOpenThread,
    onCompare,
  } = options;
  const [focusedState, setFocusedId] = useState<string | null>(null);
  const [selectedState, setSelectedId] = useState<string | null>(null);
  const [detailSide, setDetailSide] = useState<'left' | 'right'>('right');
  const [compareFromState, setCompareFrom] = useState<string | null>(null);
  // A card opened with the pointer hands focus to its detail card; one opened from the keyboard
  // keeps it on the canvas, so the arrow keys go on moving (and the detail follows).
  const [isDetailFocused, setDetailFocused] = useState(false);
  // A step that a refetch removed is neither focused nor selected any more.
  const focusedId = focusedState !== null && nav.steps.has(focusedState) ? focusedState : null;
  const selectedId = selectedState !== null && nav.steps.has(selectedState) ? selectedState : null;
  const compareFrom =
    compareFromState !== null && layout.stepById.has(compareFromState) ? compareFromState : null;

  /** Opens the detail card on the side away from the card it describes. */
  const openDetail = useCallback(
    (id: string, onScreen: Rect | null) => {
      setSelectedId(id);
      if (onScreen !== null && size !== null)
        setDetailSide(onScreen.x + onScreen.width / 2 > size.width / 2 ? 'left' : 'right');
    },
    [size],
  );

  const activate = useCallback(
    (id: string) => {
      setFocusedId(id);
      openDetail(id, reveal(id));
      const step = layout.stepById.get(id);
      if (step !== undefined && layout.nodeById.get(id)?.data.isDisplayed) onSelectStep(id, step);
    },
    [layout, onSelectStep, openDetail, reveal],
  );

  /** Opens the compare view of two steps (both commits, not the same); false when it cannot. */
  const compareSteps = useCallback(
    (a: string | null, b: string): boolean => {
      if (
        onCompare === undefined ||
        a === null ||
        a === b ||
        !layout.stepById.has(a) ||
        !layout.stepById.has(b)
      )
        return false;
      setCompareFrom(null);
      onCompare(a, b);
      return true;
    },
    [layout, onCompare],
  );

  const onNodeClick: NodeMouseHandler<TrajectoryNode> = useCallback(
    (event, node) => {
      // Picking the second step of "Compare with…", or shift-click: the selected (else displayed) step against this one.
      if (compareFrom !== null && compareSteps(compareFrom, node.id)) return;
      if (event.shiftKey && compareSteps(selectedId ?? currentNodeId ?? displayedTip(layout), node.id))
        return;
      activate(node.id);
      setDetailFocused(true);
    },
    [activate, compareFrom, compareSteps, currentNodeId, layout, selectedId],
  );

  const onNodeDoubleClick: NodeMouseHandler<TrajectoryNode> = useCallback(
    (_event, node) => {
      if (node.type === 'stub') {
        if (!node.data.isDisplayed) onOpenThread(node.data.thread_id);
        return;
      }
      const step = layout.stepById.get(node.id);
      if (step !== undefined && !node.data.isCurrent) onContinueFrom(step);
    },
    [layout, onContinueFrom, onOpenThread],
  );

  const focusCanvas = useCallback(() => canvasRef.current?.focus({ preventScroll: true }), [canvasRef]);

  const closeDetail = useCallback(() => {
    setSelectedId(null);
    focusCanvas();
  }, [focusCanvas]);

  const moveFocus = (to: string) => {
    setFocusedId(to);
    setDetailFocused(false);
    const onScreen = reveal(to);
    // An open detail card follows the keyboard.
    if (selectedId !== null) openDetail(to, onScreen);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Keys pressed on the zoom controls are theirs.
    if (event.target !== event.currentTarget) return;
    const start = () => firstPresent(nav, [selectedId, currentNodeId, displayedTip(layout)]);
    const from = focusedId ?? start();
    if (event.key === '[' || event.key === ']') {
      event.preventDefault();
      const to = from === null ? null : adjacentFork(layout, nav, from, event.key === ']' ? 1 : -1);
      if (to !== null) moveFocus(to);
      return;
    }
    if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      event.preventDefault();
      const target =
        from === null ? null : siblingPathAt(layout, nav, from, event.key === 'ArrowDown' ? 1 : -1);
      if (target !== null) onOpenThread(target);
      return;
    }
    const direction = directionForKey(event.key);
    if (direction !== null) {
      event.preventDefault();
      const to = focusedId === null ? start() : navigate(nav, focusedId, direction);
      if (to !== null) moveFocus(to);
      return;
    }
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (from !== null && compareFrom !== null && compareSteps(compareFrom, from)) return;
      if (from !== null) {
        activate(from);
        setDetailFocused(false);
      }
      return;
    }
    if (event.key === 'Escape' && compareFrom !== null) {
      event.preventDefault();
      setCompareFrom(null);
      return;
    }
    if (event.key === 'Escape' && selectedId !== null) {
      event.preventDefault();
      setSelectedId(null);
    }
  };

  const startCompare = (id: string) => {
    setCompareFrom(id);
    setSelectedId(null);
    focusCanvas();
  };

  return {
    focusedId,
    selectedId,
    compareFrom,
    detailSide,
    isDetailFocused,
    onNodeClick,
    onNodeDoubleClick,
    onKeyDown,
    onPaneClick: () => setSelectedId(null),
    closeDetail,
    startCompare,
    showStep: (id: string) => {
      activate(id);
      setDetailFocused(true);
    },
    cancelCompare: () => setCompareFrom(null),
  };
}
