/**
 * Regeneration alternatives: the other replies to one step. Regenerating step k's reply makes a branch at k−1 that re-sends step k's message
 * (services `regenerateTurn`, reason `regenerate`, title "Regenerated at step k"). While such a branch
 * is nothing more than another answer, it is a page of the reply it answers again — not a path of its
 * own: the map stacks it on that reply's card and the reply's `‹ i/n ›` pages through it. Which
 * paths are alternatives is the one rule of siblings/reply-alternatives (`isReplyAlternative`),
 * shared with the history; this module groups them on the graph.
 *
 * Which reply it answers: the threads that diverge at the same point (the parent's own step k, and the
 * parent's children branched at k−1) and whose step-k message is the same text. Its *anchor* is the
 * oldest of those that is not an alternative itself; with none, the oldest alternative anchors the
 * others. Pure: the family graph in, thread ids out.
 */
import { isReplyAlternative } from '../siblings/reply-alternatives';
import type { GraphNode, GraphThread } from './contracts';

type AlternativeThread = Pick<
  GraphThread,
  'thread_id' | 'parent_thread_id' | 'branch_point_turn' | 'reason' | 'title' | 'starred' | 'owned_turn_count' | 'is_deleted'
>;

export interface ReplyGroup {
  /** The step the alternatives answer again. */
  readonly turn: number;
  /** The thread whose reply at `turn` the alternatives stack on (may be the parent's own continuation). */
  readonly anchorThreadId: string;
  /** The anchor's node id at `turn` (`"{anchor}:{turn}"`). */
  readonly anchorNodeId: string;
  /** The alternatives, oldest first (the anchor is not among them). */
  readonly alternativeThreadIds: readonly string[];
}

export interface ReplyAlternatives {
  /** Every alternative of the family (its thread id) → the group it belongs to. */
  readonly groupOf: ReadonlyMap<string, ReplyGroup>;
  /** Groups by anchor thread id and turn: `"{anchor}:{turn}"` → group. */
  readonly byAnchorNode: ReadonlyMap<string, ReplyGroup>;
}

export interface AlternativesGraphInput {
  readonly threads: readonly (AlternativeThread & Pick<GraphThread, 'created_at'>)[];
  readonly nodes: readonly Pick<GraphNode, 'id' | 'user_message' | 'captured_at'>[];
}

/** The family's regeneration alternatives, grouped under the reply each one answers again. */
export function replyAlternatives(graph: AlternativesGraphInput): ReplyAlternatives {
  const childCount = new Map<string, number>();
  for (const t of graph.threads) {
    if (t.parent_thread_id !== null && !t.is_deleted) childCount.set(t.parent_thread_id, (childCount.get(t.parent_thread_id) ?? 0) + 1);
  }
  const nodeById = new Map(graph.nodes.map((n) => [n.id, n]));
  const byId = new Map(graph.threads.map((t) => [t.thread_id, t]));
  const alternatives = graph.threads.filter(
    (t) =>
      t.parent_thread_id !== null &&
      !t.is_deleted &&
      isReplyAlternative({ ...t, child_count: childCount.get(t.thread_id) ?? 0 }),
  );
  const groupOf = new Map<string, ReplyGroup>();
  const byAnchorNode = new Map<string, ReplyGroup>();
  if (alternatives.length === 0) return { groupOf, byAnchorNode };
  const altIds = new Set(alternatives.map((t) => t.thread_id));

  // Fork points (parent, k) that hold at least one alternative.
  const forks = new Map<string, { parent: string; turn: number }>();
  for (const alt of alternatives) forks.set(`${alt.parent_thread_id}@${alt.branch_point_turn}`, { parent: alt.parent_thread_id!, turn: alt.branch_point_turn! + 1 });
  const childrenAt = new Map<string, (typeof graph.threads)[number][]>();
  for (const t of graph.threads) {
    if (t.parent_thread_id === null || t.branch_point_turn === null || t.is_deleted) continue;
    const key = `${t.parent_thread_id}@${t.branch_point_turn}`;
    if (!forks.has(key)) continue;
    childrenAt.set(key, [...(childrenAt.get(key) ?? []), t]);
  }

  for (const [key, { parent, turn }] of forks) {
    type Candidate = { threadId: string; createdAt: string; message: string | null; isAlternative: boolean };
    const candidates: Candidate[] = [];
    const parentNode = nodeById.get(`${parent}:${turn}`);
    const parentThread = byId.get(parent);
    if (parentNode !== undefined && parentThread !== undefined && !parentThread.is_deleted) {
      candidates.push({ threadId: parent, createdAt: parentNode.captured_at, message: parentNode.user_message, isAlternative: false });
    }
    for (const child of childrenAt.get(key) ?? []) {
      const node = nodeById.get(`${child.thread_id}:${turn}`);
      candidates.push({
        threadId: child.thread_id,
        createdAt: child.created_at,
        message: node?.user_message ?? null,
        isAlternative: altIds.has(child.thread_id),
      });
    }
    candidates.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.threadId < b.threadId ? -1 : 1));
    // One group per distinct message among the alternatives.
    const messages = new Set(candidates.filter((c) => c.isAlternative).map((c) => c.message));
    for (const message of messages) {
      const same = candidates.filter((c) => c.message === message);
      const anchor = same.find((c) => !c.isAlternative) ?? same[0]!;
      const members = same.filter((c) => c.isAlternative && c.threadId !== anchor.threadId).map((c) => c.threadId);
      if (members.length === 0) continue;
      const group: ReplyGroup = {
        turn,
        anchorThreadId: anchor.threadId,
        anchorNodeId: `${anchor.threadId}:${turn}`,
        alternativeThreadIds: members,
      };
      byAnchorNode.set(group.anchorNodeId, group);
      for (const id of members) groupOf.set(id, group);
    }
  }
  return { groupOf, byAnchorNode };
}
