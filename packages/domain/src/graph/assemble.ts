/**
 * Family-graph assembly (docs/branching.md, "The family graph"): a pure function over the rows the database
 * layer fetched in a constant number of queries. Everything is built from ids; row order and
 * timestamps never stand in for structure, and rows may arrive in ANY order.
 *
 * Two row sets give the same graph (assemble.property.test.ts proves it on random families):
 *
 * - **Complete**: every thread of the family with an active branch row (soft-deleted ones included)
 *   and every turn row of those threads.
 * - **Reduced** — what the graph endpoint fetches, so its cost follows the size of the answer
 *   (≤ `maxNodes` nodes), not the size of the family:
 *   - the same thread rows, each visible one carrying `owned_turn_count` (counted over all its rows);
 *   - as `turns`, at least the newest `maxNodes` owned turns of the visible threads
 *     ({@link familyGraphScope}) by captured_at (in ms, the cap's unit) — in practice every visible
 *     owned row captured in or after the millisecond of the `maxNodes`-th newest, so ties are all
 *     there — each carrying `previous_turn_index`;
 *   - as `labelTurns`, for every thread of the family with a parent P at k: P's first owned turn
 *     above k, and P's first owned turn above k captured (ms) before the thread's created_at — the
 *     two witnesses the label rules need (see labels.ts). Duplicates are fine.
 *
 * Output ordering (deterministic): threads in creation order (created_at, then thread_id, parents before
 * children, so the root comes first); nodes grouped by thread in that order, then by turn_index; tree
 * edges (turn, branch) in the order of their target node (every node has at most one incoming tree
 * edge), then the apply edges in the order of their target node, then the citation edges likewise.
 *
 * Cost: every timestamp is parsed once; sorting is per thread and once over the candidates of the cap;
 * graph objects are built only for the nodes that are kept.
 */
import type { ChangeSummary } from '../compare/contracts';
import {
  applyEdgeId,
  citeEdgeId,
  graphEdgeId,
  graphNodeId,
  type FamilyGraph,
  type GraphEdge,
  type GraphNode,
  type GraphReplyStatus,
  type GraphThread,
} from './contracts';
import { stepLabel, suffixesInCreationOrder, type SuffixNodeInput, type TimedTurn } from './labels';
import { isOnPath, lineageOf, pathTurnLimits } from './lineage';
import { compareStrings, inCreationOrder } from './order';
import { toEpochMs, type Timestamp } from './timestamps';

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
  /** Marked by its owner; drawn with a star. Absent means false. */
  readonly is_starred?: boolean;
  /**
   * Put away by its owner: hidden with its subtree like a soft delete (unless the request includes
   * archived paths, or it is on the requested lineage), but reversible. Absent means false.
   */
  readonly is_archived?: boolean;
  /**
   * Turns this thread owns (turn_index > branch_point_turn; all for a root), counted over ALL its
   * rows. Required on every visible thread when `turns` is reduced; otherwise the rows present are
   * counted.
   */
  readonly owned_turn_count?: number;
}

export interface TurnMetaRow {
  readonly thread_id: string;
  readonly turn_index: number;
  readonly user_message: string | null;
  readonly reply_preview: string | null;
  /** How the newest reply ended; null (or absent) while the step has none. */
  readonly reply_status?: GraphReplyStatus | null;
  readonly tool_count: number;
  readonly captured_at: Timestamp;
  readonly artifact_count: number;
  /** What the step changed, stored once per step; null (or absent) until it has been computed. */
  readonly change_summary?: ChangeSummary | null;
  /** Preferences and todos discarded at this step (the decision map's marker). */
  readonly discarded_count?: number;
  /**
   * Set on an apply step: the node its items came from and their descriptions. The graph draws an
   * `apply` edge from that node when both ends are in the answer. Null (or absent) on other steps.
   */
  readonly apply_provenance?: { readonly source_node_id?: unknown; readonly items?: unknown } | null;
  /**
   * The steps the step's reply read with `read_path` (its stored `citations`). The graph draws a
   * `cite` edge from each that is in the answer. Null (or absent) when the reply read none.
   */
  readonly citations?: unknown;
  /**
   * The thread's owned turn just before this one, null for its first owned turn. Required when
   * `turns` is reduced (the predecessor may be missing); otherwise derived from the rows present.
   */
  readonly previous_turn_index?: number | null;
}

/** A turn the label rules consult but that is never emitted as a node. */
export type LabelTurnRow = SuffixNodeInput;

export interface AssembleFamilyGraphInput {
  readonly requestedThreadId: string;
  readonly threads: readonly FamilyThreadRow[];
  /** Complete or reduced (see the module comment): rows of threads outside the family are ignored. */
  readonly turns: readonly TurnMetaRow[];
  /** Node cap; the oldest nodes beyond it are dropped. Default {@link DEFAULT_MAX_GRAPH_NODES}. */
  readonly maxNodes?: number;
  /** Extra turns for the label rules only (reduced rows); never emitted as nodes. */
  readonly labelTurns?: readonly LabelTurnRow[];
  /** Show archived threads and their subtrees too. Default false. */
  readonly includeArchived?: boolean;
}

/** The threads the graph shows, each with the turns it owns: turn_index > branch_point_turn (all when null). */
export interface FamilyGraphScope {
  readonly rootThreadId: string;
  readonly visibleThreads: readonly {
    readonly thread_id: string;
    readonly branch_point_turn: number | null;
  }[];
}

/** The node cap a request asks for, defaulted and validated (a RangeError for anything but a non-negative integer). */
export function resolveMaxGraphNodes(maxNodes: number | undefined): number {
  const resolved = maxNodes ?? DEFAULT_MAX_GRAPH_NODES;
  if (!Number.isInteger(resolved) || resolved < 0) {
    throw new RangeError(`maxNodes must be a non-negative integer, got ${resolved}`);
  }
  return resolved;
}

/**
 * Which threads' turns the graph of `requestedThreadId` can show (walk up, walk down, soft-delete
 * rules) — what the database layer needs to fetch only the newest visible turns.
 */
export function familyGraphScope(input: {
  readonly requestedThreadId: string;
  readonly threads: readonly FamilyThreadRow[];
  readonly includeArchived?: boolean;
}): FamilyGraphScope {
  const { root, visible } = resolveFamily(input.threads, input.requestedThreadId, input.includeArchived ?? false);
  return {
    rootThreadId: root.thread_id,
    visibleThreads: visible.map((thread) => ({
      thread_id: thread.thread_id,
      branch_point_turn: thread.branch_point_turn,
    })),
  };
}

/**
 * Throws when the rows break an invariant the database guarantees (duplicate thread or turn rows, an
 * unknown requested thread, an unparseable timestamp): those are query bugs, not user errors.
 */
export function assembleFamilyGraph(input: AssembleFamilyGraphInput): FamilyGraph {
  const maxNodes = resolveMaxGraphNodes(input.maxNodes);
  const { root, lineage, family, visible, createdMs } = resolveFamily(
    input.threads,
    input.requestedThreadId,
    input.includeArchived ?? false,
  );
  const owners = new Map(family.map((thread) => [thread.thread_id, thread]));
  const ownedTurns = indexOwnedTurns(owners, input.turns);
  const labelTurns = indexLabelTurns(owners, input.labelTurns ?? []);

  // Labels over the whole family, soft-deleted and archived subtrees included, before the cap:
  // neither deleting or archiving a branch nor truncation may renumber a step.
  const suffixes = familySuffixes({ root, family, createdMs }, (threadId) => {
    const owned = ownedTurns.get(threadId);
    const extra = labelTurns.get(threadId);
    return extra === undefined ? owned : [...(owned ?? []), ...extra];
  });
  const suffixOf = (threadId: string): string => suffixes.get(threadId) ?? '';
  const ownedCountOf = (thread: FamilyThreadRow): number =>
    thread.owned_turn_count ?? ownedTurns.get(thread.thread_id)?.length ?? 0;

  let visibleTurnCount = 0;
  for (const thread of visible) visibleTurnCount += ownedCountOf(thread);
  const truncated = visibleTurnCount > maxNodes;
  const kept = truncated ? newestTurns(visible, ownedTurns, maxNodes) : undefined;

  const limits = pathTurnLimits(lineage);
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const emitted = new Set<string>();
  const applied = new Map<string, { source: string; reason: string }>();
  const cited = new Map<string, { source: string; label: string }[]>();
  for (const thread of visible) {
    const suffix = suffixOf(thread.thread_id);
    let presentBefore: number | null = null;
    for (const turn of ownedTurns.get(thread.thread_id) ?? []) {
      const derivedPrevious = presentBefore;
      presentBefore = turn.turn;
      if (kept !== undefined && !kept.has(turn)) continue;
      const id = graphNodeId(thread.thread_id, turn.turn);
      nodes.push(toGraphNode(id, turn, suffix, isOnPath(limits, thread.thread_id, turn.turn)));
      emitted.add(id);
      const provenance = applyProvenanceOf(turn.row);
      if (provenance !== null) applied.set(id, provenance);
      const citations = citationsOf(turn.row);
      if (citations.length > 0) cited.set(id, citations);
      const previous = turn.row.previous_turn_index === undefined ? derivedPrevious : turn.row.previous_turn_index;
      if (previous !== null) {
        const sourceId = graphNodeId(thread.thread_id, previous);
        if (emitted.has(sourceId)) {
          edges.push({ id: graphEdgeId(sourceId, id), source: sourceId, target: id, kind: 'turn', reason: null });
        }
      } else if (thread !== root && thread.parent_thread_id !== null && thread.branch_point_turn !== null) {
        // The thread's first turn hangs off its fork; no edge from the empty start (k = 0): there is
        // no node to leave from. Parents come first, so a shown fork node is already emitted.
        const forkId = graphNodeId(thread.parent_thread_id, thread.branch_point_turn);
        if (emitted.has(forkId)) {
          edges.push({ id: graphEdgeId(forkId, id), source: forkId, target: id, kind: 'branch', reason: thread.reason });
        }
      }
    }
  }

  // Apply edges come after the tree edges, in node order; one whose source is not shown is dropped.
  for (const node of nodes) {
    const provenance = applied.get(node.id);
    if (provenance === undefined || !emitted.has(provenance.source)) continue;
    edges.push({ id: applyEdgeId(provenance.source, node.id), source: provenance.source, target: node.id, kind: 'apply', reason: provenance.reason });
  }
  // Then the citation edges, likewise: one per cited step that is shown, never to the step itself.
  for (const node of nodes) {
    for (const citation of cited.get(node.id) ?? []) {
      if (citation.source === node.id || !emitted.has(citation.source)) continue;
      edges.push({ id: citeEdgeId(citation.source, node.id), source: citation.source, target: node.id, kind: 'cite', reason: `cited ${citation.label}` });
    }
  }

  return {
    thread_id: input.requestedThreadId,
    root_thread_id: root.thread_id,
    nodes,
    edges,
    threads: visible.map((thread) =>
      toGraphThread(thread, createdMs(thread), suffixOf(thread.thread_id), ownedCountOf(thread)),
    ),
    truncated,
  };
}

/** One owned turn with its timestamp parsed once; a {@link TimedTurn} for the label rules. */
/**
 * `thread_id → label suffix` of every thread of the family of `requestedThreadId`, from the thread
 * rows and the label witnesses alone (the rows `loadFamilyThreads` reads): the same suffixes the
 * family graph shows, for callers that label steps without assembling the graph (search hits).
 */
export function familyThreadSuffixes(input: {
  readonly requestedThreadId: string;
  readonly threads: readonly FamilyThreadRow[];
  readonly labelTurns: readonly LabelTurnRow[];
}): ReadonlyMap<string, string> {
  const resolved = resolveFamily(input.threads, input.requestedThreadId, true);
  const owners = new Map(resolved.family.map((thread) => [thread.thread_id, thread]));
  const witnesses = indexLabelTurns(owners, input.labelTurns);
  return familySuffixes(resolved, (threadId) => witnesses.get(threadId));
}

function familySuffixes(
  { root, family, createdMs }: Pick<ResolvedFamily, 'root' | 'family' | 'createdMs'>,
  turnsOf: (threadId: string) => readonly TimedTurn[] | undefined,
): Map<string, string> {
  return suffixesInCreationOrder(
    inCreationOrder(family).map((thread) => ({
      thread_id: thread.thread_id,
      parent_thread_id: thread === root ? null : thread.parent_thread_id,
      branch_point_turn: thread.branch_point_turn,
      createdMs: createdMs(thread),
    })),
    turnsOf,
  );
}

interface OwnedTurn extends TimedTurn {
  readonly row: TurnMetaRow;
}

interface ResolvedFamily {
  readonly root: FamilyThreadRow;
  /** [root … requested]. */
  readonly lineage: readonly FamilyThreadRow[];
  /** Every thread reachable from the root, soft-deleted subtrees included (breadth-first order). */
  readonly family: readonly FamilyThreadRow[];
  /** The threads the graph shows, in creation order. */
  readonly visible: readonly FamilyThreadRow[];
  /** created_at in epoch ms, parsed once per thread. */
  readonly createdMs: (thread: FamilyThreadRow) => number;
}

function resolveFamily(
  rows: readonly FamilyThreadRow[],
  requestedThreadId: string,
  includeArchived: boolean,
): ResolvedFamily {
  const byId = indexThreads(rows);
  const lineage = lineageOf(byId, requestedThreadId, MAX_ANCESTOR_DEPTH);
  const root = lineage[0];
  if (root === undefined) {
    throw new Error(`requested thread ${requestedThreadId} is not among the family rows`);
  }
  const parsed = new Map<FamilyThreadRow, number>();
  const createdMs = (thread: FamilyThreadRow): number => {
    let ms = parsed.get(thread);
    if (ms === undefined) {
      ms = toEpochMs(thread.created_at);
      parsed.set(thread, ms);
    }
    return ms;
  };
  const lineageIds = new Set(lineage.map((thread) => thread.thread_id));
  const { family, visibleIds } = walkDown(byId, root, lineageIds, createdMs, includeArchived);
  const visible = inCreationOrder(family.filter((thread) => visibleIds.has(thread.thread_id)));
  return { root, lineage, family, visible, createdMs };
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
 * Archived threads are left out the same way unless `includeArchived`.
 */
function walkDown(
  byId: ReadonlyMap<string, FamilyThreadRow>,
  root: FamilyThreadRow,
  lineageIds: ReadonlySet<string>,
  createdMs: (thread: FamilyThreadRow) => number,
  includeArchived: boolean,
): { family: FamilyThreadRow[]; visibleIds: Set<string> } {
  const childrenOf = new Map<string, FamilyThreadRow[]>();
  for (const thread of byId.values()) {
    if (thread.parent_thread_id === null || thread === root) continue;
    const siblings = childrenOf.get(thread.parent_thread_id);
    if (siblings === undefined) childrenOf.set(thread.parent_thread_id, [thread]);
    else siblings.push(thread);
  }
  const byCreation = (a: FamilyThreadRow, b: FamilyThreadRow): number =>
    createdMs(a) - createdMs(b) || compareStrings(a.thread_id, b.thread_id);
  const family: FamilyThreadRow[] = [];
  const visibleIds = new Set<string>();
  const reached = new Set<string>([root.thread_id]);
  const queue: { thread: FamilyThreadRow; isVisible: boolean }[] = [{ thread: root, isVisible: true }];
  for (let head = 0; head < queue.length; head++) {
    const entry = queue[head];
    if (entry === undefined) break;
    family.push(entry.thread);
    if (entry.isVisible) visibleIds.add(entry.thread.thread_id);
    const children = childrenOf.get(entry.thread.thread_id)?.sort(byCreation) ?? [];
    for (const child of children) {
      if (reached.has(child.thread_id)) continue;
      reached.add(child.thread_id);
      const isPutAway = child.deleted_at !== null || (child.is_archived === true && !includeArchived);
      const isHidden = isPutAway && !lineageIds.has(child.thread_id);
      queue.push({ thread: child, isVisible: entry.isVisible && !isHidden });
    }
  }
  return { family, visibleIds };
}

/** Does `owner` own turn `turnIndex`? A branch owns turns > its branch point; a root owns all. */
function owns(owner: FamilyThreadRow, turnIndex: number): boolean {
  return owner.branch_point_turn === null || turnIndex > owner.branch_point_turn;
}

/** Owned turns per family thread, ascending by turn_index, each timestamp parsed once. */
function indexOwnedTurns(
  owners: ReadonlyMap<string, FamilyThreadRow>,
  rows: readonly TurnMetaRow[],
): Map<string, OwnedTurn[]> {
  const owned = new Map<string, OwnedTurn[]>();
  for (const row of rows) {
    const owner = owners.get(row.thread_id);
    if (owner === undefined || !owns(owner, row.turn_index)) continue;
    const turn: OwnedTurn = { turn: row.turn_index, capturedMs: toEpochMs(row.captured_at), row };
    const list = owned.get(row.thread_id);
    if (list === undefined) owned.set(row.thread_id, [turn]);
    else list.push(turn);
  }
  for (const [threadId, list] of owned) {
    list.sort((a, b) => a.turn - b.turn);
    for (let i = 1; i < list.length; i++) {
      if (list[i]?.turn === list[i - 1]?.turn) {
        throw new Error(`duplicate turn row ${graphNodeId(threadId, list[i]?.turn ?? Number.NaN)}`);
      }
    }
  }
  return owned;
}

/** The label-only turns per family thread (owned ones only, like every turn the label rules see). */
function indexLabelTurns(
  owners: ReadonlyMap<string, FamilyThreadRow>,
  rows: readonly LabelTurnRow[],
): Map<string, TimedTurn[]> {
  const byThread = new Map<string, TimedTurn[]>();
  for (const row of rows) {
    const owner = owners.get(row.thread_id);
    if (owner === undefined || !owns(owner, row.turn_index)) continue;
    const turn = { turn: row.turn_index, capturedMs: toEpochMs(row.captured_at) };
    const list = byThread.get(row.thread_id);
    if (list === undefined) byThread.set(row.thread_id, [turn]);
    else list.push(turn);
  }
  return byThread;
}

/** The `maxNodes` newest owned turns of the visible threads (captured_at, ties by node id). */
function newestTurns(
  visible: readonly FamilyThreadRow[],
  ownedTurns: ReadonlyMap<string, readonly OwnedTurn[]>,
  maxNodes: number,
): Set<OwnedTurn> {
  const candidates: { turn: OwnedTurn; id: string }[] = [];
  for (const thread of visible) {
    for (const turn of ownedTurns.get(thread.thread_id) ?? []) {
      candidates.push({ turn, id: graphNodeId(thread.thread_id, turn.turn) });
    }
  }
  candidates.sort((a, b) => b.turn.capturedMs - a.turn.capturedMs || compareStrings(b.id, a.id));
  return new Set(candidates.slice(0, maxNodes).map((candidate) => candidate.turn));
}

/** The apply edge a turn row asks for, read defensively: the provenance is stored JSON. */
function applyProvenanceOf(row: TurnMetaRow): { source: string; reason: string } | null {
  const provenance = row.apply_provenance;
  if (provenance == null || typeof provenance.source_node_id !== 'string') return null;
  const items = Array.isArray(provenance.items) ? provenance.items.filter((item): item is string => typeof item === 'string') : [];
  return { source: provenance.source_node_id, reason: items.join(', ') };
}

/** The cited steps a turn row names, read defensively (stored JSON), each once. */
function citationsOf(row: TurnMetaRow): { source: string; label: string }[] {
  if (!Array.isArray(row.citations)) return [];
  const out = new Map<string, { source: string; label: string }>();
  for (const entry of row.citations as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { thread_id: threadId, turn, label } = entry as { thread_id?: unknown; turn?: unknown; label?: unknown };
    if (typeof threadId !== 'string' || typeof turn !== 'number') continue;
    const source = graphNodeId(threadId, turn);
    if (!out.has(source)) out.set(source, { source, label: typeof label === 'string' ? label : source });
  }
  return [...out.values()];
}

function toGraphNode(id: string, turn: OwnedTurn, suffix: string, isOnActivePath: boolean): GraphNode {
  const { row } = turn;
  return {
    id,
    thread_id: row.thread_id,
    turn_index: row.turn_index,
    user_message: row.user_message,
    reply_preview: row.reply_preview,
    reply_status: row.reply_status ?? null,
    tool_count: row.tool_count,
    captured_at: new Date(turn.capturedMs).toISOString(),
    artifact_count: row.artifact_count,
    change_summary: row.change_summary ?? null,
    discarded_count: row.discarded_count ?? 0,
    applied_from: applyProvenanceOf(row)?.source ?? null,
    is_on_active_path: isOnActivePath,
    label: stepLabel(row.turn_index, suffix),
  };
}

function toGraphThread(
  thread: FamilyThreadRow,
  createdMs: number,
  suffix: string,
  ownedTurnCount: number,
): GraphThread {
  return {
    thread_id: thread.thread_id,
    parent_thread_id: thread.parent_thread_id,
    branch_point_turn: thread.branch_point_turn,
    reason: thread.reason,
    title: thread.title,
    starred: thread.is_starred ?? false,
    archived: thread.is_archived ?? false,
    created_at: new Date(createdMs).toISOString(),
    is_deleted: thread.deleted_at !== null,
    suffix,
    owned_turn_count: ownedTurnCount,
  };
}
