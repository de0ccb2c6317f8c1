'use client';
import type { ReactFlowInstance } from '@xyflow/react';
import { useCallback, useEffect, useEffectEvent, useRef, useState, type RefObject } from 'react';
import { firstPresent, type NavigationIndex } from './keyboard-navigation';
import {
  displayedTip,
  nodeRect,
  type Rect,
  type TrailEdge,
  type TrajectoryLayout,
  type TrajectoryNode,
} from './trajectory-layout';
import { useElementSize } from './use-element-size';
import { initialViewport, READABLE_ZOOM, rectOnScreen, revealViewport, type FlowViewport, type Size } from './viewport';

const FIT_PADDING = 24;
const REVEAL_MARGIN = 24;

export type TrajectoryFlow = ReactFlowInstance<TrajectoryNode, TrailEdge>;

export interface TrajectoryViewportOptions {
  /** The element the canvas fills; its size drives the framing. */
  readonly containerRef: RefObject<HTMLElement | null>;
  readonly layout: TrajectoryLayout;
  readonly nav: NavigationIndex;
  /** Where the user dragged cards to: a reveal pans to the card where it is drawn. */
  readonly dragged: ReadonlyMap<string, { readonly x: number; readonly y: number }>;
  readonly currentNodeId: string | null;
}

export interface TrajectoryViewport {
  /** The container's size; null while it has none (a hidden phone tab). */
  readonly size: Size | null;
  /** The first view (React Flow's `defaultViewport`); null until the container has a size. */
  readonly firstViewport: FlowViewport | null;
  /** React Flow's `onInit`. */
  readonly onInit: (flow: TrajectoryFlow) => void;
  /** Pans (animated) until the card is in view; returns where the card will be on screen. */
  readonly reveal: (id: string) => Rect | null;
  /** The "show you are here" control: reveals "you are here", else the displayed tip. */
  readonly revealCurrent: () => void;
  /**
   * The "fit view" control: the whole family when it fits at a readable zoom, else "you are here"
   * framed at the zoom floor (the first view's rule), never an unreadable overview.
   */
  readonly fitReadable: () => void;
}

/**
 * The canvas's viewport: the first view framed once per mount, a reframe on every new container size
 * (the window, S/M/L, the drag handle, the full-screen map), "you are here" brought into view when it
 * moves, and the pan that keeps a step in view.
 */
export function useTrajectoryViewport(options: TrajectoryViewportOptions): TrajectoryViewport {
  const { containerRef, layout, nav, dragged, currentNodeId } = options;
  const size = useElementSize(containerRef);
  const [flow, setFlow] = useState<TrajectoryFlow | null>(null);

  // The first view, framed once the container has a size (it has none while a phone tab hides it).
  const [firstViewport, setFirstViewport] = useState<FlowViewport | null>(null);
  const frame = (within: Size) =>
    initialViewport({
      bounds: layout.bounds,
      size: within,
      focus: focusRect(layout, currentNodeId),
      padding: FIT_PADDING,
      // below the floor, the first view frames "you are here" instead of fitting everything
      minZoom: READABLE_ZOOM,
      maxZoom: 1,
    });
  if (firstViewport === null && size !== null) setFirstViewport(frame(size));

  // A new size frames the view again.
  const framedSize = useRef(size);
  const reframe = useEffectEvent((next: Size) => {
    if (flow !== null) void flow.setViewport(frame(next), { duration: 0 });
  });
  useEffect(() => {
    const before = framedSize.current;
    framedSize.current = size;
    if (size === null || before === null || (before.width === size.width && before.height === size.height))
      return;
    reframe(size);
  }, [size]);

  const reveal = useCallback(
    (id: string): Rect | null => {
      const node = layout.nodeById.get(id);
      if (flow === null || size === null || node === undefined) return null;
      const rect = nodeRect({ ...node, position: dragged.get(id) ?? node.position });
      const next = revealViewport(flow.getViewport(), size, rect, REVEAL_MARGIN);
      if (next !== null) void flow.setViewport(next, { duration: 200 });
      return rectOnScreen(next ?? flow.getViewport(), rect);
    },
    [dragged, flow, layout, size],
  );

  // "You are here" moved (a restored step, a new turn): bring it into view once it is in the graph.
  const revealedCurrent = useRef(currentNodeId);
  useEffect(() => {
    if (
      currentNodeId === null ||
      currentNodeId === revealedCurrent.current ||
      !layout.nodeById.has(currentNodeId)
    )
      return;
    revealedCurrent.current = currentNodeId;
    reveal(currentNodeId);
  }, [currentNodeId, layout, reveal]);

  const revealCurrent = () => {
    const id = firstPresent(nav, [currentNodeId, displayedTip(layout)]);
    if (id !== null) reveal(id);
  };

  const fitReadable = () => {
    if (flow !== null && size !== null) void flow.setViewport(frame(size), { duration: 200 });
  };

  return { size, firstViewport, onInit: setFlow, reveal, revealCurrent, fitReadable };
}

function focusRect(layout: TrajectoryLayout, currentNodeId: string | null): Rect | null {
  const id =
    currentNodeId !== null && layout.nodeById.has(currentNodeId) ? currentNodeId : displayedTip(layout);
  const node = id === null ? undefined : layout.nodeById.get(id);
  return node === undefined ? null : nodeRect(node);
}
