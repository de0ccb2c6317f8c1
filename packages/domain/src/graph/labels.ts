/**
 * Path-wide step labels (docs/branching.md, "Step labels"). A node's label is
 * `${turn_index}${suffix}` where the suffix belongs to its thread: "" for the root path, ".2" for the
 * second branch opened from it, ".1.1" for a branch of a branch.
 *
 * The model, in one pass over the threads in creation order (created_at, then thread_id):
 *
 * - A *group* is a maximal chain of tip-continuations; it owns ONE ordinal counter. The root starts a
 *   group.
 * - A child T of P at turn k is a *tip-continuation* iff, when T was created, P owned no turn > k (no
 *   node of P with turn_index > k was captured before T.created_at) and no earlier sibling had forked
 *   from P at k. It then joins P's group; any other child starts a new group.
 * - Every child of any thread of group G takes the next ordinal of G's counter — a tip-continuation
 *   too, which is how it silently reserves its ordinal.
 * - Display suffix: a new-group child is `suffix(P) + "." + ordinal`. A tip-continuation shows
 *   `suffix(P)` while P still owns no turn > k, and flips to `suffix(P) + "." + ordinal` once P does.
 *   Every descendant's suffix is derived from its parent's, so its subtree re-roots with it; no sibling
 *   is renumbered.
 *
 * Why labels are unique: threads sharing a display suffix are an unflipped tip-continuation chain,
 * whose owned turn ranges are disjoint by construction; children of one group draw distinct ordinals
 * from one counter, so two different parents that display the same suffix can never hand out the same
 * child suffix. The properties (unique labels; adding a branch never changes a label; adding a turn
 * changes exactly the flipped subtree) are checked in labels.property.test.ts.
 *
 * Compute on the FULL family (before truncation, soft-deleted threads included) so that neither the
 * node cap nor deleting a branch renumbers anything. The rules only ask two things of a parent P's
 * turns for a child at k: does P own any turn > k, and did P own one > k captured before the child
 * was created — so P's FIRST turn above k, and its first one above k captured before the child, are
 * witnesses enough: a subset of P's turns that holds them answers exactly like all of them (the graph
 * endpoint relies on that to read only its newest rows; see `AssembleFamilyGraphInput.labelTurns`).
 */
import { inCreationOrder } from './order';
import { toEpochMs, type Timestamp } from './timestamps';

export interface SuffixThreadInput {
  readonly thread_id: string;
  readonly parent_thread_id: string | null;
  readonly branch_point_turn: number | null;
  readonly created_at: Timestamp;
}

export interface SuffixNodeInput {
  readonly thread_id: string;
  readonly turn_index: number;
  readonly captured_at: Timestamp;
}

export interface SuffixGraphInput {
  readonly threads: readonly SuffixThreadInput[];
  readonly nodes: readonly SuffixNodeInput[];
}

export function stepLabel(turnIndex: number, suffix: string): string {
  return `${turnIndex}${suffix}`;
}

/**
 * `thread_id → suffix` for every thread of the graph. A thread whose parent is null or absent from
 * `threads` is a root and gets "".
 */
export function computeThreadSuffixes(graph: SuffixGraphInput): Record<string, string> {
  const ordered = inCreationOrder(graph.threads).map((thread) => ({
    thread_id: thread.thread_id,
    parent_thread_id: thread.parent_thread_id,
    branch_point_turn: thread.branch_point_turn,
    createdMs: toEpochMs(thread.created_at),
  }));
  const turnsOf = new Map<string, TimedTurn[]>();
  for (const node of graph.nodes) {
    const list = turnsOf.get(node.thread_id);
    const turn = { turn: node.turn_index, capturedMs: toEpochMs(node.captured_at) };
    if (list === undefined) turnsOf.set(node.thread_id, [turn]);
    else list.push(turn);
  }
  return Object.fromEntries(suffixesInCreationOrder(ordered, (threadId) => turnsOf.get(threadId)));
}

/** A turn as the label rules see it: its index and when it was captured (epoch ms). */
export interface TimedTurn {
  readonly turn: number;
  readonly capturedMs: number;
}

/** A thread with its creation time already parsed. */
export interface TimedSuffixThread {
  readonly thread_id: string;
  readonly parent_thread_id: string | null;
  readonly branch_point_turn: number | null;
  readonly createdMs: number;
}

/**
 * The fold behind {@link computeThreadSuffixes}, for callers that already hold the threads in creation
 * order and parsed timestamps (the graph assembly): nothing is parsed here. `turnsOf` lists a thread's
 * turns in any order; it is asked only about threads that have children, once each.
 */
export function suffixesInCreationOrder(
  ordered: readonly TimedSuffixThread[],
  turnsOf: (threadId: string) => readonly TimedTurn[] | undefined,
): Map<string, string> {
  const groupOf = new Map<string, { next: number }>();
  const suffixes = new Map<string, string>();
  const firstForkAt = new Set<string>();
  const indexed = new Map<string, ThreadTurns | undefined>();
  const turnsOfParent = (threadId: string): ThreadTurns | undefined => {
    if (!indexed.has(threadId)) {
      const list = turnsOf(threadId);
      indexed.set(threadId, list === undefined || list.length === 0 ? undefined : indexTurns(list));
    }
    return indexed.get(threadId);
  };

  for (const thread of ordered) {
    const parentId = thread.parent_thread_id;
    // A parent outside the threads, or not yet placed (only a corrupt parent cycle does that), makes a root.
    const parentGroup = parentId === null ? undefined : groupOf.get(parentId);
    if (parentId === null || parentGroup === undefined) {
      groupOf.set(thread.thread_id, { next: 1 });
      suffixes.set(thread.thread_id, '');
      continue;
    }
    const k = thread.branch_point_turn ?? 0;
    const ordinal = parentGroup.next++;
    const forkKey = `${parentId}\u0000${k}`;
    const isFirstForkHere = !firstForkAt.has(forkKey);
    firstForkAt.add(forkKey);
    const parentTurns = turnsOfParent(parentId);
    const isTipContinuation =
      isFirstForkHere && !(parentTurns?.hasTurnAfterCapturedBefore(k, thread.createdMs) ?? false);
    groupOf.set(thread.thread_id, isTipContinuation ? parentGroup : { next: 1 });
    const parentSuffix = suffixes.get(parentId) ?? '';
    const showsPlain = isTipContinuation && !((parentTurns?.maxTurn ?? Number.NEGATIVE_INFINITY) > k);
    suffixes.set(thread.thread_id, showsPlain ? parentSuffix : `${parentSuffix}.${ordinal}`);
  }
  return suffixes;
}

interface ThreadTurns {
  readonly maxTurn: number;
  /** Did the thread own a turn > k captured strictly before `beforeMs`? */
  hasTurnAfterCapturedBefore(k: number, beforeMs: number): boolean;
}

/**
 * One thread's turns sorted ascending with a suffix minimum of captured_at, so "a turn > k captured
 * before t" is one binary search.
 */
function indexTurns(turns: readonly TimedTurn[]): ThreadTurns {
  const list = [...turns].sort((a, b) => a.turn - b.turn);
  const turnsAsc = list.map((entry) => entry.turn);
  const minCapturedFrom = new Array<number>(list.length + 1).fill(Number.POSITIVE_INFINITY);
  for (let i = list.length - 1; i >= 0; i--) {
    minCapturedFrom[i] = Math.min(
      list[i]?.capturedMs ?? Number.POSITIVE_INFINITY,
      minCapturedFrom[i + 1] ?? Number.POSITIVE_INFINITY,
    );
  }
  return {
    maxTurn: turnsAsc[turnsAsc.length - 1] ?? Number.NEGATIVE_INFINITY,
    hasTurnAfterCapturedBefore(k, beforeMs) {
      const first = firstIndexAbove(turnsAsc, k);
      return (minCapturedFrom[first] ?? Number.POSITIVE_INFINITY) < beforeMs;
    },
  };
}

/** Index of the first element > k in an ascending array (its length when none). */
function firstIndexAbove(sorted: readonly number[], k: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] ?? Number.POSITIVE_INFINITY) > k) high = mid;
    else low = mid + 1;
  }
  return low;
}
