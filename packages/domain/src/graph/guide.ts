/**
 * The displayed path as the chat shows it (docs/branching.md, "The family graph"): one entry per
 * step of the path, root first, with its label and the other paths that continue from that step.
 *
 * The path is the displayed thread's lineage: each ancestor's nodes up to the branch point of the next
 * thread down, then all of the displayed thread's nodes. The alternatives at step t of thread A are the
 * visible paths whose first step comes right after t and that are not on the displayed lineage:
 *
 * - every child of A that branched at t (including paths that own no turn yet), and
 * - when t is where the lineage leaves A (the fork turn), A's own continuation — A's next node after t —
 *   since from the branch the original line is the alternative.
 *
 * An alternative's label is the label of its first owned node, or `${k + 1}${suffix}` when that node is
 * not in the graph (a stub, or dropped by the node cap); A's continuation is offered only when its node
 * is in the graph. Soft-deleted threads are never offered (only an ancestor can be deleted and still be
 * shown, and it cannot be opened). Alternatives are listed in creation order of their threads.
 */
import type { FamilyGraph, GraphNode, GraphThread } from './contracts';
import { stepLabel } from './labels';
import { isOnPath, lineageOf, pathTurnLimits } from './lineage';
import { compareByCreation } from './order';

export type PathAlternative = {
  readonly thread_id: string;
  readonly label: string;
  readonly title: string;
};

export type PathGuideStep = {
  readonly turn_index: number;
  readonly node_id: string;
  readonly label: string;
  readonly thread_id: string;
  readonly alternatives: PathAlternative[];
};

export interface PathGuideOptions {
  /** Default: the graph's requested thread. */
  readonly displayedThreadId?: string;
}

type PathGuideInput = Pick<FamilyGraph, 'thread_id' | 'nodes' | 'threads'>;

export function activePathGuide(graph: PathGuideInput, options: PathGuideOptions = {}): PathGuideStep[] {
  const byId = new Map(graph.threads.map((thread) => [thread.thread_id, thread]));
  const lineage = lineageOf(byId, options.displayedThreadId ?? graph.thread_id);
  const lineageIds = new Set(lineage.map((thread) => thread.thread_id));
  const forkTurnOf = new Map<string, number>();
  lineage.forEach((thread, index) => {
    const next = lineage[index + 1];
    if (next !== undefined) forkTurnOf.set(thread.thread_id, next.branch_point_turn ?? 0);
  });
  const limits = pathTurnLimits(lineage);
  const nodesOf = groupNodes(graph.nodes);
  const childrenAt = new Map<string, GraphThread[]>();
  for (const thread of graph.threads) {
    if (thread.parent_thread_id === null || thread.is_deleted || lineageIds.has(thread.thread_id)) continue;
    const key = forkKey(thread.parent_thread_id, thread.branch_point_turn ?? 0);
    const siblings = childrenAt.get(key) ?? [];
    siblings.push(thread);
    childrenAt.set(key, siblings);
  }

  const firstLabel = (thread: GraphThread): string => {
    const first = nodesOf.get(thread.thread_id)?.[0];
    return first?.label ?? stepLabel((thread.branch_point_turn ?? 0) + 1, thread.suffix);
  };

  return graph.nodes
    .filter((node) => isOnPath(limits, node.thread_id, node.turn_index))
    .sort((a, b) => a.turn_index - b.turn_index)
    .map((node) => {
      const offered: { thread: GraphThread; label: string }[] = (
        childrenAt.get(forkKey(node.thread_id, node.turn_index)) ?? []
      ).map((thread) => ({ thread, label: firstLabel(thread) }));
      const owner = byId.get(node.thread_id);
      if (owner !== undefined && !owner.is_deleted && forkTurnOf.get(node.thread_id) === node.turn_index) {
        const continuation = nodesOf
          .get(node.thread_id)
          ?.find((candidate) => candidate.turn_index > node.turn_index);
        if (continuation !== undefined) offered.push({ thread: owner, label: continuation.label });
      }
      offered.sort((a, b) => compareByCreation(a.thread, b.thread));
      return {
        turn_index: node.turn_index,
        node_id: node.id,
        label: node.label,
        thread_id: node.thread_id,
        alternatives: offered.map(({ thread, label }) => ({
          thread_id: thread.thread_id,
          label,
          title: thread.title,
        })),
      };
    });
}

function forkKey(threadId: string, turnIndex: number): string {
  return `${threadId}\u0000${turnIndex}`;
}

/** Nodes per thread, ascending by turn. */
function groupNodes(nodes: readonly GraphNode[]): Map<string, GraphNode[]> {
  const grouped = new Map<string, GraphNode[]>();
  for (const node of nodes) {
    const list = grouped.get(node.thread_id) ?? [];
    list.push(node);
    grouped.set(node.thread_id, list);
  }
  for (const list of grouped.values()) list.sort((a, b) => a.turn_index - b.turn_index);
  return grouped;
}
