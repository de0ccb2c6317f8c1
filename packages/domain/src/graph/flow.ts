/**
 * Family graph → the trajectory's nodes and edges on an abstract (step, lane) grid (docs/branching.md,
 * "The family graph"), as plain data so the studio maps it without a join and this module needs no
 * React. This is structure only: which cards and edges exist, in which lane and at which step. Pixels
 * (card sizes, gaps) belong to the studio's trajectory layout, their one owner.
 *
 * - one lane per rendered thread, as an ordinal: the root gets lane 0, then a depth-first preorder over
 *   children in creation order (created_at, then thread_id), so every subtree occupies a contiguous
 *   band of lanes below its parent and lanes of different subtrees never interleave;
 * - a commit node sits at step `turn_index` of its thread's lane;
 * - a thread that owns no turn yet gets a stub head `"{thread_id}:stub"` at its next step
 *   (`branch_point_turn + 1`), linked from its branch-point node when that node is shown.
 *   A thread whose nodes were all dropped by the node cap renders nothing and takes no lane.
 * - edges keep their kind; a kind this module does not special-case passes through unchanged, and a
 *   node may have more than one incoming edge.
 *
 * Output order is canonical — nodes by lane then step, edges by their target's position in that list —
 * so the same family gives the same result whatever order its arrays arrive in.
 */
import {
  graphEdgeId,
  graphNodeId,
  type FamilyGraph,
  type GraphEdgeKind,
  type GraphNode,
  type GraphThread,
} from './contracts';
import { stepLabel } from './labels';
import { isOnPath, lineageOf, pathTurnLimits } from './lineage';
import { compareByCreation, inCreationOrder } from './order';

export interface FlowGraphOptions {
  /** The thread shown in the studio; its path is highlighted. Default: the graph's requested thread. */
  readonly displayedThreadId?: string;
  /** The "you are here" node (a commit id or a stub id). */
  readonly currentNodeId?: string;
}

type FlowNodeMarks = {
  /** Ordinal lane of the node's thread (0 = the root's); the step is the node's `turn_index`. */
  readonly lane: number;
  readonly isDisplayed: boolean;
  readonly isCurrent: boolean;
};

// Object types (not interfaces) so they satisfy React Flow's `Record<string, unknown>` data bound.
export type CommitFlowNodeData = GraphNode & FlowNodeMarks;

export type StubFlowNodeData = Pick<GraphThread, 'thread_id' | 'parent_thread_id' | 'reason' | 'title'> &
  FlowNodeMarks & {
    /** The step the first message on this path will become. */
    readonly turn_index: number;
    readonly label: string;
  };

export type CommitFlowNode = {
  readonly id: string;
  readonly type: 'commit';
  readonly data: CommitFlowNodeData;
};

export type StubFlowNode = {
  readonly id: string;
  readonly type: 'stub';
  readonly data: StubFlowNodeData;
};

export type FlowNode = CommitFlowNode | StubFlowNode;

export type FlowEdgeData = {
  readonly kind: GraphEdgeKind;
  readonly reason: string | null;
  readonly isDisplayed: boolean;
};

export type FlowEdge = {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly data: FlowEdgeData;
};

export interface FlowGraph {
  readonly nodes: FlowNode[];
  readonly edges: FlowEdge[];
  /** Lane of every rendered thread. */
  readonly lanes: Record<string, number>;
}

type FlowGraphInput = Pick<FamilyGraph, 'thread_id' | 'root_thread_id' | 'nodes' | 'edges' | 'threads'>;

export function stubNodeId(threadId: string): string {
  return `${threadId}:stub`;
}

export function buildFlowGraph(graph: FlowGraphInput, options: FlowGraphOptions = {}): FlowGraph {
  const byId = new Map(graph.threads.map((thread) => [thread.thread_id, thread]));
  const displayed = pathTurnLimits(lineageOf(byId, options.displayedThreadId ?? graph.thread_id));
  const displayedThreadId = options.displayedThreadId ?? graph.thread_id;
  const threadsWithNodes = new Set(graph.nodes.map((node) => node.thread_id));
  const isStub = (thread: GraphThread): boolean =>
    thread.owned_turn_count === 0 && !threadsWithNodes.has(thread.thread_id);
  const lanes = assignLanes(graph, (thread) => threadsWithNodes.has(thread.thread_id) || isStub(thread));
  const laneOf = (threadId: string): number => lanes.get(threadId) ?? 0;

  const nodes: FlowNode[] = graph.nodes.map((node) => ({
    id: node.id,
    type: 'commit',
    data: {
      ...node,
      lane: laneOf(node.thread_id),
      isDisplayed: isOnPath(displayed, node.thread_id, node.turn_index),
      isCurrent: node.id === options.currentNodeId,
    },
  }));
  const commitIds = new Set(nodes.map((node) => node.id));
  const edges: FlowEdge[] = graph.edges.map((edge) => ({
    id: edge.id,
    source: edge.source,
    target: edge.target,
    data: { kind: edge.kind, reason: edge.reason, isDisplayed: false },
  }));

  for (const thread of graph.threads.filter(isStub)) {
    const id = stubNodeId(thread.thread_id);
    const nextTurn = (thread.branch_point_turn ?? 0) + 1;
    nodes.push({
      id,
      type: 'stub',
      data: {
        thread_id: thread.thread_id,
        parent_thread_id: thread.parent_thread_id,
        reason: thread.reason,
        title: thread.title,
        turn_index: nextTurn,
        label: stepLabel(nextTurn, thread.suffix),
        lane: laneOf(thread.thread_id),
        isDisplayed: thread.thread_id === displayedThreadId,
        isCurrent: id === options.currentNodeId,
      },
    });
    if (thread.parent_thread_id !== null && thread.branch_point_turn !== null) {
      const source = graphNodeId(thread.parent_thread_id, thread.branch_point_turn);
      if (commitIds.has(source)) {
        edges.push({
          id: graphEdgeId(source, id),
          source,
          target: id,
          data: { kind: 'branch', reason: thread.reason, isDisplayed: false },
        });
      }
    }
  }

  nodes.sort((a, b) => a.data.lane - b.data.lane || a.data.turn_index - b.data.turn_index);
  const rank = new Map(nodes.map((node, index) => [node.id, index]));
  const isDisplayedNode = new Map(nodes.map((node) => [node.id, node.data.isDisplayed]));
  const orderedEdges = edges
    .map((edge) => ({
      ...edge,
      data: {
        ...edge.data,
        // An apply edge links two steps without being a path between them.
        isDisplayed:
          edge.data.kind !== 'apply' &&
          (isDisplayedNode.get(edge.source) ?? false) &&
          (isDisplayedNode.get(edge.target) ?? false),
      },
    }))
    .sort(
      (a, b) =>
        (rank.get(a.target) ?? 0) - (rank.get(b.target) ?? 0) ||
        (rank.get(a.source) ?? 0) - (rank.get(b.source) ?? 0),
    );
  return { nodes, edges: orderedEdges, lanes: Object.fromEntries(lanes) };
}

/**
 * Depth-first preorder from the root (then from any other parentless thread, in creation order), over
 * children in creation order; only threads that render something take a lane.
 */
function assignLanes(
  graph: FlowGraphInput,
  rendersSomething: (thread: GraphThread) => boolean,
): Map<string, number> {
  const ids = new Set(graph.threads.map((thread) => thread.thread_id));
  const childrenOf = new Map<string, GraphThread[]>();
  const starts: GraphThread[] = [];
  for (const thread of inCreationOrder(graph.threads)) {
    const parentId = thread.parent_thread_id;
    if (thread.thread_id === graph.root_thread_id || parentId === null || !ids.has(parentId)) {
      starts.push(thread);
      continue;
    }
    const siblings = childrenOf.get(parentId) ?? [];
    siblings.push(thread);
    childrenOf.set(parentId, siblings);
  }
  starts.sort((a, b) =>
    a.thread_id === graph.root_thread_id
      ? -1
      : b.thread_id === graph.root_thread_id
        ? 1
        : compareByCreation(a, b),
  );
  const lanes = new Map<string, number>();
  const visited = new Set<string>();
  const stack = [...starts].reverse();
  while (stack.length > 0) {
    const thread = stack.pop();
    if (thread === undefined || visited.has(thread.thread_id)) continue;
    visited.add(thread.thread_id);
    if (rendersSomething(thread)) lanes.set(thread.thread_id, lanes.size);
    const children = childrenOf.get(thread.thread_id) ?? [];
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== undefined) stack.push(child);
    }
  }
  return lanes;
}
