'use client';
import '@xyflow/react/dist/style.css';
import { ordinalGapNotes, type FamilyGraph, type GraphNode } from '@trellis/domain';
import {
  Background,
  BackgroundVariant,
  ControlButton,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  type NodeChange,
  type Viewport,
} from '@xyflow/react';
import { LocateFixed, Maximize } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { laneColour, stepDomId } from './card-parts';
import { CommitNode } from './commit-node';
import { buildNavigationIndex } from './keyboard-navigation';
import { MapActionsProvider, type MapActions } from './map-actions';
import { collapsedForksKey, isOverviewZoom, OVERVIEW_MIN_ZOOM, parseCollapsedForks, toggled } from './overview';
import { StepDetail, type DetailTarget } from './step-detail';
import { StubNode } from './stub-node';
import { TrailArrowDefs, TrailEdge } from './trail-edge';
import {
  appliedFrom,
  layoutTrajectory,
  reuseUnchanged,
  withInteraction,
  type TrailEdge as TrailEdgeType,
  type TrajectoryLayout,
  type TrajectoryNode,
} from './trajectory-layout';
import { useStepFocus } from './use-step-focus';
import { useTrajectoryViewport } from './use-trajectory-viewport';

// Module-level so React Flow never sees new component types (which would remount every card).
const NODE_TYPES = { commit: CommitNode, stub: StubNode };
const EDGE_TYPES = { trail: TrailEdge };

/**
 * The bar under the canvas that holds the zoom controls: they sit beside the cards, never over one
 * (an overlay in a corner covers whatever card is drawn there, however the view is framed).
 */
export const CONTROLS_BAR_HEIGHT = 36;
const CONTROLS_STYLE = { position: 'static', margin: 0 } as const;
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
  /** Opens the compare view of two steps (node ids), `into` a side to apply onto; absent, nothing offers a compare. */
  onCompare?: (a: string, b: string, into?: 'a') => void;
  /** "What changed" and "Discarded here" in the step detail. */
  renderStepChanges?: (step: GraphNode) => ReactNode;
  /** For the canvas's accessible name. */
  summary: string;
  /** The full-screen map: framed on the whole family, with a minimap. */
  isFullScreen?: boolean;
  /** The step whose message the chat shows (the map follows it). */
  followTurn?: number | null;
  /** The replayed change's step: marked on its card and framed, "you are here" left where it is. */
  replayNodeId?: string | null;
  /** The step whose reply is streaming now. */
  replyingNodeId?: string | null;
}

/**
 * The family as a pannable, zoomable React Flow graph with a detail card. Mount it with
 * `key={graph.root_thread_id}`: the first view is framed once per family, never on a refetch.
 */
export function TrajectoryCanvas(props: TrajectoryCanvasProps) {
  const { graph, displayedThreadId, currentNodeId, onSelectStep, onContinueFrom, onOpenThread, onCompare } =
    props;
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);

  const [expandedStacks, setExpandedStacks] = useState<ReadonlySet<string>>(NO_IDS);
  const [collapsedForks, setCollapsedForks] = useCollapsedForks(graph.root_thread_id);
  const layout = useMemo(
    () => layoutTrajectory(graph, { displayedThreadId, currentNodeId, expandedStacks, collapsedForks }),
    [graph, displayedThreadId, currentNodeId, expandedStacks, collapsedForks],
  );
  const nav = useMemo(
    () =>
      buildNavigationIndex(
        layout.nodes.map((node) => ({ id: node.id, lane: node.data.lane, turn: node.data.turn_index })),
        layout.edges,
      ),
    [layout],
  );
  const [dragged, onNodesChange] = useDraggedCards();
  const isFullScreen = props.isFullScreen ?? false;
  const viewport = useTrajectoryViewport({
    containerRef,
    layout,
    nav,
    dragged,
    currentNodeId,
    isFullScreen,
    followTurn: props.followTurn ?? null,
    replayNodeId: props.replayNodeId ?? null,
  });
  const { size, firstViewport } = viewport;

  // Semantic zoom: below the readable zoom the cards turn into compact nodes. The zoom and the pan go
  // to CSS (--flow-zoom, --flow-x) without a render, so overview text keeps a readable screen size and
  // a lane's name ends at the screen's left edge instead of running off it.
  const [movedOverview, setOverview] = useState<boolean | null>(null);
  const isOverview = movedOverview ?? (firstViewport !== null && isOverviewZoom(firstViewport.zoom));
  const onMove = useCallback((_event: unknown, next: Viewport) => {
    containerRef.current?.style.setProperty('--flow-zoom', String(next.zoom));
    containerRef.current?.style.setProperty('--flow-x', `${next.x}px`);
    setOverview(isOverviewZoom(next.zoom));
  }, []);
  const gapNotes = useMemo(() => ordinalGapNotes(graph.threads), [graph]);
  const mapActions = useMemo<MapActions>(
    () => ({
      isOverview,
      replayNodeId: props.replayNodeId ?? null,
      replyingNodeId: props.replyingNodeId ?? null,
      gapNotes,
      toggleStack: (id) => setExpandedStacks((ids) => toggled(ids, id)),
      toggleFork: (id) => setCollapsedForks((ids) => toggled(ids, id)),
    }),
    [isOverview, props.replayNodeId, props.replyingNodeId, gapNotes, setCollapsedForks],
  );
  const focus = useStepFocus({
    layout,
    nav,
    canvasRef,
    currentNodeId,
    size,
    reveal: viewport.reveal,
    onSelectStep,
    onContinueFrom,
    onOpenThread,
    onCompare,
  });
  const { focusedId, selectedId, compareFrom } = focus;

  const nodes = useStableItems(
    useMemo(
      () => withInteraction(layout.nodes, { focusedId, selectedId, dragged }),
      [layout, focusedId, selectedId, dragged],
    ),
  );
  const edges = useStableItems(layout.edges);
  const nodeById = useMemo(() => new Map(nodes.map((node) => [node.id, node])), [nodes]);
  const detail = detailTarget(layout, nodeById, selectedId);

  return (
    <ReactFlowProvider>
      <MapActionsProvider value={mapActions}>
      <div className="flex h-full w-full flex-col" style={FLOW_STYLE}>
        <div
          ref={containerRef}
          className="relative min-h-0 w-full flex-1"
          data-testid="trajectory-canvas"
          data-overview={isOverview}
          style={firstViewport === null ? undefined : ({ '--flow-zoom': String(firstViewport.zoom), '--flow-x': `${firstViewport.x}px` } as CSSProperties)}
        >
          <TrailArrowDefs />
          {firstViewport !== null && size !== null && (
            <ReactFlow<TrajectoryNode, TrailEdgeType>
              ref={canvasRef}
              nodes={nodes}
              edges={edges}
              nodeTypes={NODE_TYPES}
              edgeTypes={EDGE_TYPES}
              onInit={viewport.onInit}
              onMove={onMove}
              onMoveStart={viewport.onMoveStart}
              onNodesChange={onNodesChange}
              onNodeClick={focus.onNodeClick}
              onNodeDoubleClick={focus.onNodeDoubleClick}
              onPaneClick={focus.onPaneClick}
              defaultViewport={firstViewport}
              width={size.width}
              height={size.height}
              minZoom={OVERVIEW_MIN_ZOOM}
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
              onKeyDown={focus.onKeyDown}
              className="group/trajectory outline-none focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
              // The attribution badge would sit on top of cards in a panel this small.
              proOptions={PRO_OPTIONS}
            >
              <Background variant={BackgroundVariant.Dots} gap={16} size={1} />
              {isFullScreen && (
                <MiniMap<TrajectoryNode>
                  pannable
                  zoomable
                  ariaLabel="Minimap of the whole family"
                  nodeColor={minimapColour}
                  nodeStrokeWidth={0}
                  maskColor="color-mix(in oklab, var(--background) 70%, transparent)"
                  className="!bottom-2 !right-2 rounded-md border bg-card"
                  style={MINIMAP_STYLE}
                  data-testid="trajectory-minimap"
                />
              )}
            </ReactFlow>
          )}
          {detail !== null && (
            <StepDetail
              target={detail}
              side={focus.detailSide}
              takesFocus={focus.isDetailFocused}
              onClose={focus.closeDetail}
              onContinueFrom={onContinueFrom}
              onOpenThread={onOpenThread}
              renderStepChanges={props.renderStepChanges}
              isReplying={detail.kind === 'commit' && detail.id === (props.replyingNodeId ?? null)}
              onBringIntoCurrent={
                onCompare !== undefined && currentNodeId !== null && layout.stepById.has(currentNodeId)
                  ? (id) => onCompare(currentNodeId, id, 'a')
                  : undefined
              }
              onCompareWith={onCompare === undefined ? undefined : focus.startCompare}
              appliedFrom={detail.kind === 'commit' ? appliedFrom(layout, detail.step) : null}
              onShowStep={focus.showStep}
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
              <Button size="sm" variant="ghost" className="h-6 px-2" onClick={focus.cancelCompare}>
                Cancel
              </Button>
            </div>
          )}
        </div>
        <div className="flex shrink-0 items-center border-t px-2" style={{ height: CONTROLS_BAR_HEIGHT }}>
          {firstViewport !== null && size !== null && (
            <Controls
              showInteractive={false}
              orientation="horizontal"
              position="bottom-left"
              style={CONTROLS_STYLE}
              showFitView={false}
            >
              <ControlButton
                className="react-flow__controls-fitview"
                onClick={viewport.fitAll}
                title="Fit view: the whole family"
                aria-label="Fit view"
              >
                <Maximize />
              </ControlButton>
              <ControlButton
                onClick={viewport.revealCurrent}
                title="Show “you are here”"
                aria-label="Show you are here"
              >
                <LocateFixed />
              </ControlButton>
            </Controls>
          )}
        </div>
      </div>
      </MapActionsProvider>
    </ReactFlowProvider>
  );
}

const NO_IDS: ReadonlySet<string> = new Set();
const MINIMAP_STYLE = { width: 200, height: 120 };

function minimapColour(node: TrajectoryNode): string {
  return node.data.isDisplayed ? 'var(--brand)' : laneColour(node.data.lane);
}

/** The family's folded forks, remembered in this browser (localStorage) per family. */
function useCollapsedForks(rootThreadId: string) {
  const [ids, setIds] = useState<ReadonlySet<string>>(() => {
    try {
      return parseCollapsedForks(window.localStorage.getItem(collapsedForksKey(rootThreadId)));
    } catch {
      return NO_IDS;
    }
  });
  useEffect(() => {
    try {
      const key = collapsedForksKey(rootThreadId);
      if (ids.size === 0) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, JSON.stringify([...ids]));
    } catch {
      // storage refused (private mode, quota): the fold lasts for this page only
    }
  }, [ids, rootThreadId]);
  return [ids, setIds] as const;
}

/** Where the user dragged cards to (React Flow's position changes), kept for this mount. */
function useDraggedCards() {
  const [dragged, setDragged] = useState(NO_DRAGS);
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
  return [dragged, onNodesChange] as const;
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
