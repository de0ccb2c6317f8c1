'use client';
import '@xyflow/react/dist/style.css';
import type { FamilyGraph, GraphNode } from '@trellis/domain';
import {
  Background,
  BackgroundVariant,
  ControlButton,
  Controls,
  ReactFlow,
  type NodeChange,
  type NodeMouseHandler,
  type ReactFlowInstance,
} from '@xyflow/react';
import { LocateFixed } from 'lucide-react';
import {
  useCallback,
  useEffect,
  useEffectEvent,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Button } from '@/components/ui/button';
import { stepDomId } from './card-parts';
import { CommitNode } from './commit-node';
import { buildNavigationIndex, directionForKey, firstPresent, navigate } from './keyboard-navigation';
import { StepDetail, type DetailTarget } from './step-detail';
import { StubNode } from './stub-node';
import { TrailArrowDefs, TrailEdge } from './trail-edge';
import {
  layoutTrajectory,
  nodeRect,
  reuseUnchanged,
  withInteraction,
  type TrailEdge as TrailEdgeType,
  type TrajectoryLayout,
  type Rect,
  type TrajectoryNode,
} from './trajectory-layout';
import { useElementSize } from './use-element-size';
import { adjacentFork, siblingPathAt } from './fork-keys';
import { initialViewport, revealViewport, type FlowViewport, type Size } from './viewport';

// Module-level so React Flow never sees new component types (which would remount every card).
const NODE_TYPES = { commit: CommitNode, stub: StubNode };
const EDGE_TYPES = { trail: TrailEdge };

/** Below this zoom a card's text is unreadable: the first view frames "you are here" instead of fitting everything. */
const MIN_FIT_ZOOM = 0.7;
/** The zoom floor: below it a card's text is too small to read, so zooming out stops here. */
const MIN_ZOOM = 0.5;
const FIT_PADDING = 24;
const REVEAL_MARGIN = 24;
/** The strip along the bottom where the zoom controls sit: framing keeps cards above it. */
const CONTROLS_STRIP = 40;
const FIT_VIEW_OPTIONS = {
  padding: { top: '12px', right: '12px', bottom: '48px', left: '12px' } as const,
  maxZoom: 1,
  minZoom: MIN_ZOOM,
};
const PRO_OPTIONS = { hideAttribution: true };
const NO_DRAGS: ReadonlyMap<string, { x: number; y: number }> = new Map();

const FLOW_STYLE = {
  '--xy-background-color': 'transparent',
  '--xy-background-pattern-color': 'var(--border)',
  '--xy-controls-button-background-color': 'var(--card)',
  '--xy-controls-button-background-color-hover': 'var(--accent)',
  '--xy-controls-button-color': 'var(--muted-foreground)',
  '--xy-controls-button-color-hover': 'var(--foreground)',
  '--xy-controls-button-border-color': 'var(--border)',
} as CSSProperties;

export interface TrajectoryCanvasProps {
  graph: FamilyGraph;
  displayedThreadId: string;
  currentNodeId: string | null;
  onSelectStep: (nodeId: string, node: GraphNode) => void;
  onContinueFrom: (node: GraphNode) => void;
  onOpenThread: (threadId: string) => void;
  /** Opens the compare view of two steps (node ids); absent, nothing offers a compare. */
  onCompare?: (a: string, b: string) => void;
  /** "What changed" and "Discarded here" in the step detail. */
  renderStepChanges?: (step: GraphNode) => ReactNode;
  /** For the canvas's accessible name. */
  summary: string;
}

/**
 * The family as a pannable, zoomable React Flow graph with a detail card. Mount it with
 * `key={graph.root_thread_id}`: the first view is framed once per family, never on a refetch.
 */
export function TrajectoryCanvas(props: TrajectoryCanvasProps) {
  const { graph, displayedThreadId, currentNodeId, onSelectStep, onContinueFrom, onOpenThread, onCompare } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const size = useElementSize(containerRef);
  const [flow, setFlow] = useState<ReactFlowInstance<TrajectoryNode, TrailEdgeType> | null>(null);

  const layout = useMemo(
    () => layoutTrajectory(graph, { displayedThreadId, currentNodeId }),
    [graph, displayedThreadId, currentNodeId],
  );
  const nav = useMemo(
    () =>
      buildNavigationIndex(
        layout.nodes.map((node) => ({ id: node.id, lane: node.data.lane, turn: node.data.turn_index })),
        layout.edges,
      ),
    [layout],
  );

  const [focusedState, setFocusedId] = useState<string | null>(null);
  const [selectedState, setSelectedId] = useState<string | null>(null);
  const [dragged, setDragged] = useState(NO_DRAGS);
  const [detailSide, setDetailSide] = useState<'left' | 'right'>('right');
  // "Compare with…": the step the next picked card is compared with.
  const [compareFromState, setCompareFrom] = useState<string | null>(null);
  // A step that a refetch removed is neither focused nor selected any more.
  const focusedId = focusedState !== null && nav.steps.has(focusedState) ? focusedState : null;
  const selectedId = selectedState !== null && nav.steps.has(selectedState) ? selectedState : null;
  const compareFrom = compareFromState !== null && layout.stepById.has(compareFromState) ? compareFromState : null;

  const nodes = useStableItems(
    useMemo(
      () => withInteraction(layout.nodes, { focusedId, selectedId, dragged }),
      [layout, focusedId, selectedId, dragged],
    ),
  );
  const edges = useStableItems(layout.edges);
  const nodeById = useMemo(() => new Map(nodes.map((node) => [node.id, node])), [nodes]);

  // The first view, framed once the container has a size (it has none while a phone tab hides it).
  const [firstViewport, setFirstViewport] = useState<FlowViewport | null>(null);
  const frame = (within: Size) =>
    initialViewport({
      bounds: layout.bounds,
      size: { width: within.width, height: Math.max(within.height - CONTROLS_STRIP, within.height / 2) },
      focus: focusRect(layout, currentNodeId),
      padding: FIT_PADDING,
      minZoom: MIN_FIT_ZOOM,
      maxZoom: 1,
    });
  if (firstViewport === null && size !== null) setFirstViewport(frame(size));

  // A new size (the window, S/M/L, the drag handle, the full-screen map) frames the view again.
  const framedSize = useRef(size);
  const reframe = useEffectEvent((next: Size) => {
    if (flow !== null) void flow.setViewport(frame(next), { duration: 0 });
  });
  useEffect(() => {
    const before = framedSize.current;
    framedSize.current = size;
    if (size === null || before === null || (before.width === size.width && before.height === size.height)) return;
    reframe(size);
  }, [size]);

  /** Pans (animated) until the card is in view; returns where the card will be on screen. */
  const reveal = useCallback(
    (id: string): Rect | null => {
      const node = nodeById.get(id);
      if (flow === null || size === null || node === undefined) return null;
      const rect = nodeRect(node);
      const next = revealViewport(flow.getViewport(), size, rect, REVEAL_MARGIN);
      if (next !== null) void flow.setViewport(next, { duration: 200 });
      return toScreen(next ?? flow.getViewport(), rect);
    },
    [flow, nodeById, size],
  );

  /** Opens the detail card on the side away from the card it describes. */
  const openDetail = useCallback(
    (id: string, onScreen: Rect | null) => {
      setSelectedId(id);
      if (onScreen !== null && size !== null)
        setDetailSide(onScreen.x + onScreen.width / 2 > size.width / 2 ? 'left' : 'right');
    },
    [size],
  );

  // "You are here" moved (a restored step, a new turn): bring it into view once it is in the graph.
  const revealedCurrent = useRef(currentNodeId);
  useEffect(() => {
    if (currentNodeId === null || currentNodeId === revealedCurrent.current || !nodeById.has(currentNodeId))
      return;
    revealedCurrent.current = currentNodeId;
    reveal(currentNodeId);
  }, [currentNodeId, nodeById, reveal]);

  const activate = useCallback(
    (id: string) => {
      setFocusedId(id);
      openDetail(id, reveal(id));
      const step = layout.stepById.get(id);
      if (step !== undefined && nodeById.get(id)?.data.isDisplayed) onSelectStep(id, step);
    },
    [layout, nodeById, onSelectStep, openDetail, reveal],
  );

  /** Opens the compare view of two steps (both commits, not the same); false when it cannot. */
  const compareSteps = useCallback(
    (a: string | null, b: string): boolean => {
      if (onCompare === undefined || a === null || a === b || !layout.stepById.has(a) || !layout.stepById.has(b))
        return false;
      setCompareFrom(null);
      onCompare(a, b);
      return true;
    },
    [layout, onCompare],
  );

  // A card opened with the pointer hands focus to its detail card; one opened from the keyboard
  // keeps it on the canvas, so the arrow keys go on moving (and the detail follows).
  const [isDetailFocused, setDetailFocused] = useState(false);
  const onNodeClick: NodeMouseHandler<TrajectoryNode> = useCallback(
    (event, node) => {
      // Picking the second step of "Compare with…", or shift-click: the selected (else displayed) step against this one.
      if (compareFrom !== null && compareSteps(compareFrom, node.id)) return;
      if (event.shiftKey && compareSteps(selectedId ?? currentNodeId ?? displayedTip(layout), node.id)) return;
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

  const onNodesChange = useCallback((changes: NodeChange<TrajectoryNode>[]) => {
    const moves = changes.flatMap((change) =>
      change.type === 'position' && change.position !== undefined
        ? [{ id: change.id, position: change.position }]
        : [],
    );
    if (moves.length === 0) return;
    setDragged((previous) => {
      const next = new Map(previous);
      for (const move of moves) next.set(move.id, move.position);
      return next;
    });
  }, []);

  const closeDetail = useCallback(() => {
    setSelectedId(null);
    canvasRef.current?.focus({ preventScroll: true });
  }, []);

  const moveFocus = (to: string) => {
    setFocusedId(to);
    setDetailFocused(false);
    const onScreen = reveal(to);
    // An open detail card follows the keyboard.
    if (selectedId !== null) openDetail(to, onScreen);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
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
      const target = from === null ? null : siblingPathAt(layout, nav, from, event.key === 'ArrowDown' ? 1 : -1);
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

  const revealCurrent = () => {
    const id = firstPresent(nav, [currentNodeId, displayedTip(layout)]);
    if (id !== null) reveal(id);
  };

  const detail = detailTarget(layout, nodeById, selectedId);

  return (
    <div ref={containerRef} className="relative h-full w-full">
      <TrailArrowDefs />
      {firstViewport !== null && size !== null && (
        <ReactFlow<TrajectoryNode, TrailEdgeType>
          ref={canvasRef}
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          edgeTypes={EDGE_TYPES}
          onInit={setFlow}
          onNodesChange={onNodesChange}
          onNodeClick={onNodeClick}
          onNodeDoubleClick={onNodeDoubleClick}
          onPaneClick={() => setSelectedId(null)}
          defaultViewport={firstViewport}
          width={size.width}
          height={size.height}
          minZoom={MIN_ZOOM}
          maxZoom={1.75}
          onlyRenderVisibleElements
          nodesConnectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          elementsSelectable={false}
          disableKeyboardA11y
          deleteKeyCode={null}
          selectionKeyCode={null}
          multiSelectionKeyCode={null}
          panActivationKeyCode={null}
          zoomOnDoubleClick={false}
          nodeDragThreshold={4}
          tabIndex={0}
          aria-label={`Trajectory graph: ${props.summary}. Arrow keys move between steps, [ and ] jump between forks, Alt+Up and Alt+Down switch to a sibling path, Enter opens a step, Escape closes it, F shows the full-screen map.`}
          aria-activedescendant={focusedId === null ? undefined : stepDomId(focusedId)}
          onKeyDown={onKeyDown}
          className="group/trajectory outline-none focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
          style={FLOW_STYLE}
          // The attribution badge would sit on top of cards in a panel this small.
          proOptions={PRO_OPTIONS}
        >
          <Background variant={BackgroundVariant.Dots} gap={16} size={1} />
          <Controls
            showInteractive={false}
            orientation="horizontal"
            position="bottom-left"
            fitViewOptions={FIT_VIEW_OPTIONS}
          >
            <ControlButton onClick={revealCurrent} title="Show “you are here”" aria-label="Show you are here">
              <LocateFixed />
            </ControlButton>
          </Controls>
        </ReactFlow>
      )}
      {detail !== null && (
        <StepDetail
          target={detail}
          side={detailSide}
          takesFocus={isDetailFocused}
          onClose={closeDetail}
          onContinueFrom={onContinueFrom}
          onOpenThread={onOpenThread}
          renderStepChanges={props.renderStepChanges}
          onCompareWith={
            onCompare === undefined
              ? undefined
              : (id) => {
                  setCompareFrom(id);
                  setSelectedId(null);
                  canvasRef.current?.focus({ preventScroll: true });
                }
          }
        />
      )}
      {compareFrom !== null && (
        <div
          role="status"
          data-testid="compare-picking"
          className="absolute left-1/2 top-2 z-10 flex -translate-x-1/2 items-center gap-2 rounded-md border bg-popover px-3 py-1.5 text-xs shadow-md"
        >
          <span>
            Pick a step to compare with step{' '}
            <span className="font-mono font-semibold">{nodeById.get(compareFrom)?.data.label}</span>
          </span>
          <Button size="sm" variant="ghost" className="h-6 px-2" onClick={() => setCompareFrom(null)}>
            Cancel
          </Button>
        </div>
      )}
    </div>
  );
}

/** Keeps the previous object for every unchanged item, committed after render. */
function useStableItems<T extends { readonly id: string }>(next: readonly T[]): T[] {
  const previous = useRef<T[]>([]);
  const stable = useMemo(() => reuseUnchanged(previous.current, next), [next]);
  useEffect(() => {
    previous.current = stable;
  }, [stable]);
  return stable;
}

function toScreen(viewport: FlowViewport, rect: Rect): Rect {
  return {
    x: rect.x * viewport.zoom + viewport.x,
    y: rect.y * viewport.zoom + viewport.y,
    width: rect.width * viewport.zoom,
    height: rect.height * viewport.zoom,
  };
}

function displayedTip(layout: TrajectoryLayout): string | null {
  let tip: TrajectoryNode | null = null;
  for (const node of layout.nodes) {
    if (node.data.isDisplayed && (tip === null || node.data.turn_index > tip.data.turn_index)) tip = node;
  }
  return tip?.id ?? null;
}

function focusRect(layout: TrajectoryLayout, currentNodeId: string | null) {
  const id =
    currentNodeId !== null && layout.nodes.some((node) => node.id === currentNodeId)
      ? currentNodeId
      : displayedTip(layout);
  const node = layout.nodes.find((candidate) => candidate.id === id);
  return node === undefined ? null : nodeRect(node);
}

function detailTarget(
  layout: TrajectoryLayout,
  nodeById: ReadonlyMap<string, TrajectoryNode>,
  selectedId: string | null,
): DetailTarget | null {
  const node = selectedId === null ? undefined : nodeById.get(selectedId);
  if (node === undefined) return null;
  const thread = layout.threadById.get(node.data.thread_id);
  if (node.type === 'stub') return { kind: 'stub', id: node.id, data: node.data, thread };
  const step = layout.stepById.get(node.id);
  return step === undefined ? null : { kind: 'commit', id: node.id, step, data: node.data, thread };
}
