/**
 * Family graph → the panel's React Flow nodes and edges (docs/branching.md, "The family graph"). The domain's
 * `buildFlowGraph` decides structure only — which cards and edges exist, lanes as ordinals, stubs, the
 * displayed path and "you are here"; this module is the one owner of pixel geometry: it turns that
 * (step, lane) grid into positions for fixed-size cards, so lanes stay straight whatever a card says.
 * Edges of any kind are drawn as trails; a card may have more than one incoming edge.
 *
 * Every node carries its size and its two handles, so React Flow can draw edges to, and cull, cards
 * it has never rendered (`onlyRenderVisibleElements` then renders only what is on screen, even on
 * the first frame). Pure: no React, no DOM.
 */
import {
  buildFlowGraph,
  type CommitFlowNodeData,
  type FamilyGraph,
  type FlowEdgeData,
  type GraphNode,
  type GraphThread,
  type StubFlowNodeData,
  plural,
} from '@trellis/domain';
import { Position, type Edge, type Node, type NodeHandle } from '@xyflow/react';

/** Card geometry in flow pixels; the card components render exactly these sizes. */
export const CARD_WIDTH = 184;
export const PATH_CARD_HEIGHT = 72;
export const OFF_PATH_CARD_HEIGHT = 52;
export const STUB_CARD_HEIGHT = 52;
/** Vertical centre of a card's first row (the lane dot): edges leave and enter there. */
export const HANDLE_Y = 17;
/** Horizontal distance between two steps, vertical distance between two lanes. */
export const STEP_GAP = CARD_WIDTH + 44;
export const LANE_GAP = PATH_CARD_HEIGHT + 22;

type CardMarks = {
  readonly isFocused: boolean;
  readonly isSelected: boolean;
};

/**
 * Flattens an intersection into one object type: React Flow bounds node data by
 * `Record<string, unknown>`, which an intersection with an interface member does not satisfy.
 */
type Plain<T> = { [K in keyof T]: T[K] };

export type CommitCardData = Plain<
  CommitFlowNodeData &
    CardMarks & {
      /** The owning thread was soft-deleted (shown only as an ancestor of the displayed path). */
      readonly isDeletedPath: boolean;
      /** The lane's name, on the first card of its lane only (null elsewhere). */
      readonly laneName: string | null;
      /** The lane's path is starred (drawn with its name). */
      readonly isStarred: boolean;
    }
>;
export type StubCardData = Plain<StubFlowNodeData & CardMarks>;

export type CommitCardNode = Node<CommitCardData, 'commit'>;
export type StubCardNode = Node<StubCardData, 'stub'>;
export type TrajectoryNode = CommitCardNode | StubCardNode;

export type TrailEdgeData = Plain<
  FlowEdgeData & {
    readonly sourceLane: number;
    readonly isCrossLane: boolean;
  }
>;
export type TrailEdge = Edge<TrailEdgeData, 'trail'>;

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface TrajectoryLayout {
  readonly nodes: TrajectoryNode[];
  readonly edges: TrailEdge[];
  /** Bounding box of every card. */
  readonly bounds: Rect;
  /** Every card by id, before focus, selection and drags are applied. */
  readonly nodeById: ReadonlyMap<string, TrajectoryNode>;
  /** The graph node behind each commit card. */
  readonly stepById: ReadonlyMap<string, GraphNode>;
  readonly threadById: ReadonlyMap<string, GraphThread>;
}

export interface TrajectoryLayoutOptions {
  readonly displayedThreadId: string;
  readonly currentNodeId: string | null;
  /** Stacks of regenerated replies laid out as paths, by their card's node id. */
  readonly expandedStacks?: ReadonlySet<string>;
  /** Forks whose branches are folded away, by the fork's node id. */
  readonly collapsedForks?: ReadonlySet<string>;
}

export function cardHeight(node: Pick<TrajectoryNode, 'type'> & { data: { isDisplayed: boolean } }): number {
  if (node.type === 'stub') return STUB_CARD_HEIGHT;
  return node.data.isDisplayed ? PATH_CARD_HEIGHT : OFF_PATH_CARD_HEIGHT;
}

/** 1 × 1 px, centred on the dot row; the card components render their <Handle>s at the same spots. */
const CARD_HANDLES: readonly NodeHandle[] = [
  { type: 'target', position: Position.Left, x: 0, y: HANDLE_Y - 0.5, width: 1, height: 1 },
  { type: 'source', position: Position.Right, x: CARD_WIDTH - 1, y: HANDLE_Y - 0.5, width: 1, height: 1 },
];

export function layoutTrajectory(graph: FamilyGraph, options: TrajectoryLayoutOptions): TrajectoryLayout {
  const flow = buildFlowGraph(graph, {
    displayedThreadId: options.displayedThreadId,
    ...(options.currentNodeId === null ? {} : { currentNodeId: options.currentNodeId }),
    ...(options.expandedStacks === undefined ? {} : { expandedStacks: options.expandedStacks }),
    ...(options.collapsedForks === undefined ? {} : { collapsedForks: options.collapsedForks }),
  });
  const threadById = new Map(graph.threads.map((thread) => [thread.thread_id, thread]));
  const stepById = new Map(graph.nodes.map((node) => [node.id, node]));
  const laneOf = new Map<string, number>();
  // The first card of each thread's lane carries the lane's name.
  const laneStart = new Map<string, { id: string; turn: number }>();
  for (const flowNode of flow.nodes) {
    if (flowNode.type === 'stub') continue;
    const first = laneStart.get(flowNode.data.thread_id);
    if (first === undefined || flowNode.data.turn_index < first.turn)
      laneStart.set(flowNode.data.thread_id, { id: flowNode.id, turn: flowNode.data.turn_index });
  }

  // Every card has a fixed size, given as `measured` too: cards out of view are never rendered
  // (onlyRenderVisibleElements), and React Flow holds a requested fit view until each node is measured.
  const nodes: TrajectoryNode[] = flow.nodes.map((flowNode): TrajectoryNode => {
    laneOf.set(flowNode.id, flowNode.data.lane);
    const position = { x: flowNode.data.turn_index * STEP_GAP, y: flowNode.data.lane * LANE_GAP };
    const marks: CardMarks = { isFocused: false, isSelected: false };
    if (flowNode.type === 'stub') {
      return {
        id: flowNode.id,
        type: 'stub',
        position,
        width: CARD_WIDTH,
        height: STUB_CARD_HEIGHT,
        measured: { width: CARD_WIDTH, height: STUB_CARD_HEIGHT },
        handles: [...CARD_HANDLES],
        data: { ...flowNode.data, ...marks },
      };
    }
    const height = flowNode.data.isDisplayed ? PATH_CARD_HEIGHT : OFF_PATH_CARD_HEIGHT;
    return {
      id: flowNode.id,
      type: 'commit',
      position,
      width: CARD_WIDTH,
      height,
      measured: { width: CARD_WIDTH, height },
      handles: [...CARD_HANDLES],
      data: {
        ...flowNode.data,
        ...marks,
        isDeletedPath: threadById.get(flowNode.data.thread_id)?.is_deleted ?? false,
        laneName:
          laneStart.get(flowNode.data.thread_id)?.id === flowNode.id
            ? (threadById.get(flowNode.data.thread_id)?.title ?? null)
            : null,
        isStarred: threadById.get(flowNode.data.thread_id)?.starred ?? false,
      },
    };
  });

  const edges: TrailEdge[] = flow.edges.map((flowEdge) => {
    const sourceLane = laneOf.get(flowEdge.source) ?? 0;
    return {
      id: flowEdge.id,
      source: flowEdge.source,
      target: flowEdge.target,
      type: 'trail',
      // The displayed path is drawn over the dimmed edges it crosses.
      zIndex: flowEdge.data.isDisplayed ? 1 : 0,
      data: {
        ...flowEdge.data,
        sourceLane,
        isCrossLane: sourceLane !== (laneOf.get(flowEdge.target) ?? sourceLane),
      },
    };
  });

  return {
    nodes,
    edges,
    bounds: boundsOf(nodes),
    nodeById: new Map(nodes.map((node) => [node.id, node])),
    stepById,
    threadById,
  };
}

/** The last step of the displayed path (its highest turn), where "you are here" falls back to. */
export function displayedTip(layout: Pick<TrajectoryLayout, 'nodes'>): string | null {
  let tip: TrajectoryNode | null = null;
  for (const node of layout.nodes) {
    if (node.data.isDisplayed && (tip === null || node.data.turn_index > tip.data.turn_index)) tip = node;
  }
  return tip?.id ?? null;
}

export function boundsOf(nodes: readonly Pick<TrajectoryNode, 'position' | 'width' | 'height'>[]): Rect {
  if (nodes.length === 0) return { x: 0, y: 0, width: 0, height: 0 };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const node of nodes) {
    minX = Math.min(minX, node.position.x);
    minY = Math.min(minY, node.position.y);
    maxX = Math.max(maxX, node.position.x + (node.width ?? 0));
    maxY = Math.max(maxY, node.position.y + (node.height ?? 0));
  }
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

export function nodeRect(node: Pick<TrajectoryNode, 'position' | 'width' | 'height'>): Rect {
  return { x: node.position.x, y: node.position.y, width: node.width ?? 0, height: node.height ?? 0 };
}

export interface TrajectoryInteraction {
  readonly focusedId: string | null;
  readonly selectedId: string | null;
  /** Positions the user dragged cards to, by node id. */
  readonly dragged: ReadonlyMap<string, { readonly x: number; readonly y: number }>;
}

/** The layout's nodes with focus, selection and dragged positions applied. */
export function withInteraction(
  nodes: readonly TrajectoryNode[],
  interaction: TrajectoryInteraction,
): TrajectoryNode[] {
  return nodes.map((node): TrajectoryNode => {
    const isFocused = node.id === interaction.focusedId;
    const isSelected = node.id === interaction.selectedId;
    const position = interaction.dragged.get(node.id);
    if (!isFocused && !isSelected && position === undefined) return node;
    const moved = position ?? node.position;
    return node.type === 'stub'
      ? { ...node, position: moved, data: { ...node.data, isFocused, isSelected } }
      : { ...node, position: moved, data: { ...node.data, isFocused, isSelected } };
  });
}

/**
 * Keeps the previous object for every node or edge whose content did not change, so a refetch, a
 * focus move or a new turn re-renders only the cards that actually changed (React Flow re-adopts and
 * the memoised cards re-render only on a new object).
 */
export function reuseUnchanged<T extends { readonly id: string }>(
  previous: readonly T[],
  next: readonly T[],
): T[] {
  if (previous.length === 0) return [...next];
  const byId = new Map(previous.map((item) => [item.id, item]));
  return next.map((item) => {
    const before = byId.get(item.id);
    return before !== undefined && deepEqualPlain(before, item) ? before : item;
  });
}

/** Structural equality for the plain JSON-like objects above (no Maps, no cycles). */
function deepEqualPlain(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  const aRecord = a as Record<string, unknown>;
  const bRecord = b as Record<string, unknown>;
  return aKeys.every((key) => Object.hasOwn(bRecord, key) && deepEqualPlain(aRecord[key], bRecord[key]));
}

export interface TrajectorySummary {
  readonly steps: number;
  readonly paths: number;
  readonly text: string;
}

/** The header's counts: steps shown, and the paths of the family one can open (deleted ones aside). */
export function summarizeTrajectory(graph: Pick<FamilyGraph, 'nodes' | 'threads'>): TrajectorySummary {
  const steps = graph.nodes.length;
  const paths = graph.threads.filter((thread) => !thread.is_deleted).length;
  return { steps, paths, text: `${plural(steps, 'step')} · ${plural(paths, 'path')}` };
}

export interface AppliedFrom {
  readonly nodeId: string;
  readonly label: string;
  /** The applied items, as the edge's reason names them. */
  readonly summary: string | null;
  /** The source step is drawn (not dropped by the graph's node cap). */
  readonly isShown: boolean;
}

/**
 * The step an apply step's items came from, by the node's own `applied_from` (set even when the graph
 * dropped the source, and with it the `apply` edge); the edge, when drawn, names the items.
 */
export function appliedFrom(layout: Pick<TrajectoryLayout, 'stepById' | 'edges'>, step: GraphNode): AppliedFrom | null {
  const nodeId = step.applied_from;
  if (nodeId === null) return null;
  const source = layout.stepById.get(nodeId);
  const edge =
    source === undefined
      ? undefined
      : layout.edges.find((candidate) => candidate.target === step.id && candidate.data?.kind === 'apply');
  return {
    nodeId,
    label: source?.label ?? nodeId,
    summary: edge?.data?.reason ?? null,
    isShown: source !== undefined,
  };
}
