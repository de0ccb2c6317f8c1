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
 * - regeneration alternatives of one reply (./reply-alternatives) are stacked on that reply's card
 *   (`stackedReplies`) and take no lane while stacked; a stack expands when asked (`expandedStacks`)
 *   or when the displayed path or "you are here" is one of them;
 * - a fork can be collapsed (`collapsedForks`, node ids): the paths branching at that step, with
 *   everything under them, are left out (`collapsedBranches` counts them) — never the displayed path.
 *
 * Output order is canonical — nodes by lane then step, edges by their target's position in that list —
 * so the same family gives the same result whatever order its arrays arrive in.
 */
import {
  graphEdgeId,
  graphNodeId,
  isProvenanceEdge,
  type FamilyGraph,
  type GraphEdgeKind,
  type GraphNode,
  type GraphThread,
} from './contracts';
import { stepLabel } from './labels';
import { isOnPath, lineageOf, pathTurnLimits } from './lineage';
import { compareByCreation, inCreationOrder } from './order';
import { replyAlternatives } from './reply-alternatives';

export interface FlowGraphOptions {
  /** The thread shown in the studio; its path is highlighted. Default: the graph's requested thread. */
  readonly displayedThreadId?: string;
  /** The "you are here" node (a commit id or a stub id). */
  readonly currentNodeId?: string;
  /** Stacks of regeneration alternatives shown as lanes, by their anchor's node id. */
  readonly expandedStacks?: ReadonlySet<string>;
  /** Forks whose branches are folded away, by the fork's node id. */
  readonly collapsedForks?: ReadonlySet<string>;
}

type FlowNodeMarks = {
  /** Ordinal lane of the node's thread (0 = the root's); the step is the node's `turn_index`. */
  readonly lane: number;
  readonly isDisplayed: boolean;
  readonly isCurrent: boolean;
};

type CommitFlowMarks = {
  /** Regeneration alternatives of this step's reply (0: none); stacked on this card unless expanded. */
  readonly stackedReplies: number;
  readonly isStackExpanded: boolean;
  /** Paths that branch at this step (stacked alternatives aside), folded or not. */
  readonly branchCount: number;
  /** The fork is collapsed: this many of its branches (with their subtrees) are left out. */
  readonly collapsedBranches: number;
};

// Object types (not interfaces) so they satisfy React Flow's `Record<string, unknown>` data bound.
export type CommitFlowNodeData = GraphNode & FlowNodeMarks & CommitFlowMarks;

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

export function buildFlowGraph(family: FlowGraphInput, options: FlowGraphOptions = {}): FlowGraph {
  const folded = foldFamily(family, options);
  const graph = folded.graph;
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
      stackedReplies: folded.stacks.get(node.id)?.count ?? 0,
      isStackExpanded: folded.stacks.get(node.id)?.isExpanded ?? false,
      branchCount: folded.branchCount.get(node.id) ?? 0,
      collapsedBranches: folded.collapsedBranches.get(node.id) ?? 0,
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
        // An apply or citation edge links two steps without being a path between them.
        isDisplayed:
          !isProvenanceEdge(edge.data.kind) &&
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

interface FoldedFamily {
  readonly graph: FlowGraphInput;
  readonly stacks: ReadonlyMap<string, { count: number; isExpanded: boolean }>;
  readonly branchCount: ReadonlyMap<string, number>;
  readonly collapsedBranches: ReadonlyMap<string, number>;
}

/** The family without stacked alternatives and collapsed forks' subtrees (see the module comment). */
function foldFamily(graph: FlowGraphInput, options: FlowGraphOptions): FoldedFamily {
  const byId = new Map(graph.threads.map((thread) => [thread.thread_id, thread]));
  const displayedId = options.displayedThreadId ?? graph.thread_id;
  // The displayed path and "you are here" are never folded away.
  const kept = new Set(lineageOf(byId, displayedId).map((t) => t.thread_id));
  const currentThread = options.currentNodeId?.slice(0, options.currentNodeId.lastIndexOf(':'));
  if (currentThread) for (const t of lineageOf(byId, currentThread)) kept.add(t.thread_id);

  const hidden = new Set<string>();
  const stacks = new Map<string, { count: number; isExpanded: boolean }>();
  const alternatives = replyAlternatives(graph);
  for (const group of alternatives.byAnchorNode.values()) {
    const isExpanded =
      (options.expandedStacks?.has(group.anchorNodeId) ?? false) ||
      group.alternativeThreadIds.some((id) => kept.has(id));
    stacks.set(group.anchorNodeId, { count: group.alternativeThreadIds.length, isExpanded });
    if (!isExpanded) for (const id of group.alternativeThreadIds) hidden.add(id);
  }

  const childrenOf = new Map<string, GraphThread[]>();
  const branchesAt = new Map<string, GraphThread[]>();
  for (const thread of graph.threads) {
    if (thread.parent_thread_id === null) continue;
    childrenOf.set(thread.parent_thread_id, [...(childrenOf.get(thread.parent_thread_id) ?? []), thread]);
    if (thread.branch_point_turn === null || hidden.has(thread.thread_id)) continue;
    const at = graphNodeId(thread.parent_thread_id, thread.branch_point_turn);
    branchesAt.set(at, [...(branchesAt.get(at) ?? []), thread]);
  }
  const branchCount = new Map([...branchesAt].map(([id, branches]) => [id, branches.length]));
  const collapsedBranches = new Map<string, number>();
  for (const forkId of options.collapsedForks ?? []) {
    let count = 0;
    for (const branch of branchesAt.get(forkId) ?? []) {
      const subtree = [branch.thread_id];
      for (let i = 0; i < subtree.length; i++) {
        for (const child of childrenOf.get(subtree[i]!) ?? []) subtree.push(child.thread_id);
      }
      if (subtree.some((id) => kept.has(id))) continue;
      count++;
      for (const id of subtree) hidden.add(id);
    }
    if (count > 0) collapsedBranches.set(forkId, count);
  }
  if (hidden.size === 0) return { graph, stacks, branchCount, collapsedBranches };
  const nodes = graph.nodes.filter((node) => !hidden.has(node.thread_id));
  const nodeIds = new Set(nodes.map((node) => node.id));
  return {
    graph: {
      ...graph,
      threads: graph.threads.filter((thread) => !hidden.has(thread.thread_id)),
      nodes,
      edges: graph.edges.filter((edge) => nodeIds.has(edge.source) && nodeIds.has(edge.target)),
    },
    stacks,
    branchCount,
    collapsedBranches,
  };
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
