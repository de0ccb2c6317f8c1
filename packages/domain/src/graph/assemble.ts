/**
 * Family-graph assembly (seed 003, "The history graph"): a pure function over the rows the database
 * layer fetched in a constant number of queries — every thread of the family with an active branch row
 * (soft-deleted ones included) and every turn row of those threads, in ANY order. Everything is built
 * from ids; row order and timestamps never stand in for structure.
 *
 * Output ordering (deterministic): threads in creation order (created_at, then thread_id, parents before
 * children, so the root comes first); nodes grouped by thread in that order, then by turn_index; edges in
 * the order of their target node (every node has at most one incoming edge).
 */
import {
  graphEdgeId,
  graphNodeId,
  type FamilyGraph,
  type GraphEdge,
  type GraphNode,
  type GraphThread,
} from './contracts';
import { computeThreadSuffixes, stepLabel } from './labels';
import { isOnPath, lineageOf, pathTurnLimits } from './lineage';
import { compareByCreation, compareStrings, inCreationOrder } from './order';
import { toEpochMs, toIsoString, type Timestamp } from './timestamps';

export const DEFAULT_MAX_GRAPH_NODES = 500;
/** How many parent links the walk up to the root follows at most. */
export const MAX_ANCESTOR_DEPTH = 50;

export interface FamilyThreadRow {
  readonly thread_id: string;
  readonly parent_thread_id: string | null;
  readonly branch_point_turn: number | null;
  readonly reason: string | null;
  readonly title: string;
  readonly created_at: Timestamp;
  readonly deleted_at: Timestamp | null;
}

export interface TurnMetaRow {
  readonly thread_id: string;
  readonly turn_index: number;
  readonly user_message: string | null;
  readonly reply_preview: string | null;
  readonly tool_count: number;
  readonly captured_at: Timestamp;
  readonly artifact_count: number;
}

export interface AssembleFamilyGraphInput {
  readonly requestedThreadId: string;
  readonly threads: readonly FamilyThreadRow[];
  readonly turns: readonly TurnMetaRow[];
  /** Node cap; the oldest nodes beyond it are dropped. Default {@link DEFAULT_MAX_GRAPH_NODES}. */
  readonly maxNodes?: number;
}

/**
 * Throws when the rows break an invariant the database guarantees (duplicate thread or turn rows, an
 * unknown requested thread, an unparseable timestamp): those are query bugs, not user errors.
 */
export function assembleFamilyGraph(input: AssembleFamilyGraphInput): FamilyGraph {
  const maxNodes = input.maxNodes ?? DEFAULT_MAX_GRAPH_NODES;
  if (!Number.isInteger(maxNodes) || maxNodes < 0) {
    throw new RangeError(`maxNodes must be a non-negative integer, got ${maxNodes}`);
  }
  const byId = indexThreads(input.threads);
  const lineage = lineageOf(byId, input.requestedThreadId, MAX_ANCESTOR_DEPTH);
  const root = lineage[0];
  if (root === undefined) {
    throw new Error(`requested thread ${input.requestedThreadId} is not among the family rows`);
  }
  const lineageIds = new Set(lineage.map((thread) => thread.thread_id));
  const { family, visibleIds } = walkDown(byId, root, lineageIds);
  const ownedTurns = indexOwnedTurns(family, input.turns);

  // Labels over the whole family, soft-deleted subtrees included, before the cap: neither deleting a
  // branch nor truncation may renumber a step.
  const suffixes = computeThreadSuffixes({
    threads: family.map((thread) => (thread === root ? { ...thread, parent_thread_id: null } : thread)),
    nodes: [...ownedTurns.values()].flat(),
  });
  const suffixOf = (threadId: string): string => suffixes[threadId] ?? '';

  const visible = inCreationOrder(family.filter((thread) => visibleIds.has(thread.thread_id)));
  const limits = pathTurnLimits(lineage);
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const nodeIds = new Set<string>();
  for (const thread of visible) {
    const turns = ownedTurns.get(thread.thread_id) ?? [];
    let previousId: string | undefined;
    for (const turn of turns) {
      const id = graphNodeId(thread.thread_id, turn.turn_index);
      nodes.push(
        toGraphNode(
          id,
          turn,
          suffixOf(thread.thread_id),
          isOnPath(limits, thread.thread_id, turn.turn_index),
        ),
      );
      nodeIds.add(id);
      if (previousId !== undefined) {
        edges.push({
          id: graphEdgeId(previousId, id),
          source: previousId,
          target: id,
          kind: 'turn',
          reason: null,
        });
      } else if (thread !== root && thread.parent_thread_id !== null && thread.branch_point_turn !== null) {
        // No edge from the empty start (k = 0): there is no node to leave from.
        const forkId = graphNodeId(thread.parent_thread_id, thread.branch_point_turn);
        if (nodeIds.has(forkId)) {
          edges.push({
            id: graphEdgeId(forkId, id),
            source: forkId,
            target: id,
            kind: 'branch',
            reason: thread.reason,
          });
        }
      }
      previousId = id;
    }
  }

  const kept = keepNewest(nodes, maxNodes);
  return {
    thread_id: input.requestedThreadId,
    root_thread_id: root.thread_id,
    nodes: kept.nodes,
    edges: kept.truncated
      ? edges.filter((edge) => kept.ids.has(edge.source) && kept.ids.has(edge.target))
      : edges,
    threads: visible.map((thread) =>
      toGraphThread(thread, suffixOf(thread.thread_id), ownedTurns.get(thread.thread_id)?.length ?? 0),
    ),
    truncated: kept.truncated,
  };
}

function indexThreads(rows: readonly FamilyThreadRow[]): Map<string, FamilyThreadRow> {
  const byId = new Map<string, FamilyThreadRow>();
  for (const row of rows) {
    if (byId.has(row.thread_id)) throw new Error(`duplicate thread row ${row.thread_id}`);
    byId.set(row.thread_id, row);
  }
  return byId;
}

/**
 * Breadth-first from the root over child links derived from parent links. `family` is every thread
 * reachable from the root; `visibleIds` leaves out soft-deleted threads and their subtrees, except a
 * deleted thread on the requested lineage (a live branch still renders the history it inherits).
 */
function walkDown(
  byId: ReadonlyMap<string, FamilyThreadRow>,
  root: FamilyThreadRow,
  lineageIds: ReadonlySet<string>,
): { family: FamilyThreadRow[]; visibleIds: Set<string> } {
  const childrenOf = new Map<string, FamilyThreadRow[]>();
  for (const thread of byId.values()) {
    if (thread.parent_thread_id === null || thread === root) continue;
    const siblings = childrenOf.get(thread.parent_thread_id) ?? [];
    siblings.push(thread);
    childrenOf.set(thread.parent_thread_id, siblings);
  }
  const family: FamilyThreadRow[] = [];
  const visibleIds = new Set<string>();
  const reached = new Set<string>([root.thread_id]);
  const queue: { thread: FamilyThreadRow; isVisible: boolean }[] = [{ thread: root, isVisible: true }];
  for (let head = 0; head < queue.length; head++) {
    const entry = queue[head];
    if (entry === undefined) break;
    family.push(entry.thread);
    if (entry.isVisible) visibleIds.add(entry.thread.thread_id);
    const children = [...(childrenOf.get(entry.thread.thread_id) ?? [])].sort(compareByCreation);
    for (const child of children) {
      if (reached.has(child.thread_id)) continue;
      reached.add(child.thread_id);
      const isHidden = child.deleted_at !== null && !lineageIds.has(child.thread_id);
      queue.push({ thread: child, isVisible: entry.isVisible && !isHidden });
    }
  }
  return { family, visibleIds };
}

/** Owned turns per thread, ascending: a branch owns turns > its branch point; the root owns all. */
function indexOwnedTurns(
  family: readonly FamilyThreadRow[],
  rows: readonly TurnMetaRow[],
): Map<string, TurnMetaRow[]> {
  const owners = new Map(family.map((thread) => [thread.thread_id, thread]));
  const owned = new Map<string, TurnMetaRow[]>();
  const seen = new Set<string>();
  for (const row of rows) {
    const owner = owners.get(row.thread_id);
    if (owner === undefined) continue;
    if (owner.branch_point_turn !== null && row.turn_index <= owner.branch_point_turn) continue;
    const id = graphNodeId(row.thread_id, row.turn_index);
    if (seen.has(id)) throw new Error(`duplicate turn row ${id}`);
    seen.add(id);
    const list = owned.get(row.thread_id) ?? [];
    list.push(row);
    owned.set(row.thread_id, list);
  }
  for (const list of owned.values()) list.sort((a, b) => a.turn_index - b.turn_index);
  return owned;
}

function toGraphNode(id: string, turn: TurnMetaRow, suffix: string, isOnActivePath: boolean): GraphNode {
  return {
    id,
    thread_id: turn.thread_id,
    turn_index: turn.turn_index,
    user_message: turn.user_message,
    reply_preview: turn.reply_preview,
    tool_count: turn.tool_count,
    captured_at: toIsoString(turn.captured_at),
    artifact_count: turn.artifact_count,
    is_on_active_path: isOnActivePath,
    label: stepLabel(turn.turn_index, suffix),
  };
}

function toGraphThread(thread: FamilyThreadRow, suffix: string, ownedTurnCount: number): GraphThread {
  return {
    thread_id: thread.thread_id,
    parent_thread_id: thread.parent_thread_id,
    branch_point_turn: thread.branch_point_turn,
    reason: thread.reason,
    title: thread.title,
    created_at: toIsoString(thread.created_at),
    is_deleted: thread.deleted_at !== null,
    suffix,
    owned_turn_count: ownedTurnCount,
  };
}

/** Keeps the `maxNodes` newest nodes (captured_at, ties by id), preserving the output order. */
function keepNewest(
  nodes: readonly GraphNode[],
  maxNodes: number,
): { nodes: GraphNode[]; ids: Set<string>; truncated: boolean } {
  if (nodes.length <= maxNodes) {
    return { nodes: [...nodes], ids: new Set(nodes.map((node) => node.id)), truncated: false };
  }
  const newestFirst = nodes
    .map((node) => ({ id: node.id, capturedMs: toEpochMs(node.captured_at) }))
    .sort((a, b) => b.capturedMs - a.capturedMs || compareStrings(b.id, a.id));
  const ids = new Set(newestFirst.slice(0, maxNodes).map((node) => node.id));
  return { nodes: nodes.filter((node) => ids.has(node.id)), ids, truncated: true };
}
