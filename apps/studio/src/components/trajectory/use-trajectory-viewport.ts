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
import { displayedNodeAt, FIT_PADDING, fitOverview, shouldFollowChat } from './overview';
import {
  frameChosenViewport,
  initialViewport,
  READABLE_ZOOM,
  rectOnScreen,
  revealViewport,
  type FlowViewport,
  type Size,
} from './viewport';

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
  /** The full-screen map: it opens on the whole family (the overview when it does not fit readably). */
  readonly isFullScreen: boolean;
  /** The step whose message the chat shows: framed, unless the person moved the map a moment ago. */
  readonly followTurn: number | null;
  /** The replayed change's step: framed, like a chosen step, each time the replay moves to another. */
  readonly replayNodeId: string | null;
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
   * The "fit view" control: the whole family, switching to the overview below the readable zoom, down
   * to one step per ~24 px; a reframe after a resize keeps fitting until the person frames otherwise.
   */
  readonly fitAll: () => void;
  /** React Flow's `onMoveStart`: a move with an event is the person's, and pauses following the chat. */
  readonly onMoveStart: (event: unknown) => void;
}

/** A move's animation may end a frame or two after its duration. */
const FLIGHT_SLACK_MS = 50;

/**
 * The canvas's viewport: the first view framed once per mount, a reframe on every new container size
 * (the window, S/M/L, the drag handle, the full-screen map), "you are here" brought into view when it
 * moves, and the pan that keeps a step in view.
 */
export function useTrajectoryViewport(options: TrajectoryViewportOptions): TrajectoryViewport {
  const { containerRef, layout, nav, dragged, currentNodeId, isFullScreen, followTurn, replayNodeId } = options;
  const size = useElementSize(containerRef);
  const [flow, setFlow] = useState<TrajectoryFlow | null>(null);
  // Whether the last framing was "the whole family" (Fit view, the full-screen map) or readable cards.
  const isFitting = useRef(isFullScreen);
  const lastMovedByPerson = useRef<number | null>(null);

  // The first view, framed once the container has a size (it has none while a phone tab hides it).
  const [firstViewport, setFirstViewport] = useState<FlowViewport | null>(null);
  const frame = (within: Size) =>
    isFitting.current
      ? fitOverview(layout, within, focusRect(layout, currentNodeId))
      : initialViewport({
      bounds: layout.bounds,
      size: within,
      focus: focusRect(layout, currentNodeId),
      padding: FIT_PADDING,
      // below the floor, the first view frames "you are here" instead of fitting everything
      minZoom: READABLE_ZOOM,
      maxZoom: 1,
    });
  if (firstViewport === null && size !== null) setFirstViewport(frame(size));

  // The full-screen map frames the whole family; leaving it goes back to readable cards.
  useEffect(() => {
    isFitting.current = isFullScreen;
  }, [isFullScreen]);

  // Where an animated move is taking the map, until it has arrived. A long animated pan zooms out on
  // its way (d3's smooth zoom), so a move asked for meanwhile (the map following the chat while a
  // replay frames its step) starts from where the map is going, not from the zoomed-out middle of
  // the flight, which would leave the map there.
  const flight = useRef<{ to: FlowViewport; until: number } | null>(null);
  const fly = useCallback(
    (to: FlowViewport, duration: number) => {
      if (flow === null) return;
      flight.current = duration > 0 ? { to, until: performance.now() + duration + FLIGHT_SLACK_MS } : null;
      void flow.setViewport(to, { duration });
    },
    [flow],
  );

  // A new size frames the view again.
  const framedSize = useRef(size);
  const reframe = useEffectEvent((next: Size) => fly(frame(next), 0));
  useEffect(() => {
    const before = framedSize.current;
    framedSize.current = size;
    if (size === null || before === null || (before.width === size.width && before.height === size.height))
      return;
    reframe(size);
  }, [size]);

  const moveTo = useCallback(
    (id: string, isChosen: boolean): Rect | null => {
      const node = layout.nodeById.get(id);
      if (flow === null || size === null || node === undefined) return null;
      const rect = nodeRect({ ...node, position: dragged.get(id) ?? node.position });
      const going = flight.current;
      const from = going !== null && performance.now() < going.until ? going.to : flow.getViewport();
      const next = (isChosen ? frameChosenViewport : revealViewport)(from, size, rect, REVEAL_MARGIN);
      if (next !== null) {
        // A zoom into a chosen step ends a fit: a resize then keeps the step readable.
        if (next.zoom !== from.zoom) isFitting.current = false;
        fly(next, 200);
      }
      return rectOnScreen(next ?? from, rect);
    },
    [dragged, flow, fly, layout, size],
  );
  const reveal = useCallback((id: string) => moveTo(id, false), [moveTo]);

  // "You are here" moved (Alt+↑/↓ to a sibling path, a restored step, a search hit, a chat link, a
  // new turn): frame it at a readable zoom, with its text, once it is in the graph.
  const revealedCurrent = useRef(currentNodeId);
  useEffect(() => {
    if (
      currentNodeId === null ||
      currentNodeId === revealedCurrent.current ||
      !layout.nodeById.has(currentNodeId)
    )
      return;
    revealedCurrent.current = currentNodeId;
    moveTo(currentNodeId, true);
  }, [currentNodeId, layout, moveTo]);

  const framedReplay = useRef<string | null>(null);
  useEffect(() => {
    if (replayNodeId === null || replayNodeId === framedReplay.current || !layout.nodeById.has(replayNodeId)) return;
    if (moveTo(replayNodeId, true) !== null) framedReplay.current = replayNodeId;
  }, [replayNodeId, layout, moveTo]);

  const revealCurrent = () => {
    const id = firstPresent(nav, [currentNodeId, displayedTip(layout)]);
    if (id !== null) reveal(id);
  };

  const fitAll = () => {
    isFitting.current = true;
    if (size !== null) fly(frame(size), 200);
  };

  // The map follows the chat: the step whose message is in view comes into view on the map.
  const follow = useEffectEvent((turn: number) => {
    if (!shouldFollowChat(Date.now(), lastMovedByPerson.current)) return;
    const id = displayedNodeAt(layout, turn);
    if (id !== null) reveal(id);
  });
  useEffect(() => {
    if (followTurn !== null) follow(followTurn);
  }, [followTurn]);

  const onMoveStart = useCallback((event: unknown) => {
    if (event === null || event === undefined) return;
    // The person took the map: no move of ours is under way any more.
    flight.current = null;
    lastMovedByPerson.current = Date.now();
    isFitting.current = false;
  }, []);

  return { size, firstViewport, onInit: setFlow, reveal, revealCurrent, fitAll, onMoveStart };
}

function focusRect(layout: TrajectoryLayout, currentNodeId: string | null): Rect | null {
  const id =
    currentNodeId !== null && layout.nodeById.has(currentNodeId) ? currentNodeId : displayedTip(layout);
  const node = id === null ? undefined : layout.nodeById.get(id);
  return node === undefined ? null : nodeRect(node);
}
