import { siblingsAtStep, type FamilyGraph } from '@trellis/domain';

/** Where the displayed path stands among the siblings of one step: `‹ index+1/count ›`. */
export interface ForkPoint {
  /** 0-based position of the displayed path. */
  index: number;
  count: number;
  /**
   * Where `‹ i/n ›` sits: on the reply when every sibling is a regeneration of the same question (only
   * the answer differs), else on the user message (an edit or a continue-from-here is among them).
   */
  place: 'message' | 'reply';
}

/**
 * The steps of `threadId`'s path where siblings diverge (count > 1), from the family graph the page
 * already holds, so the chat knows where to draw `‹ i/n ›` without a request per message. Same rule
 * as the siblings endpoint (`siblingsAtStep`); only steps right after some branch point can fork.
 *
 * Every thread of a family reads the same graph, so one fetched for another thread of the family
 * (kept on screen while the displayed thread's own loads) answers for `threadId` too; a thread the
 * graph does not hold yet has no known forks.
 */
export function forkPointsOf(graph: FamilyGraph | undefined, threadId: string | null): ReadonlyMap<number, ForkPoint> {
  const forks = new Map<number, ForkPoint>();
  if (!graph || threadId === null || !graph.threads.some((t) => t.thread_id === threadId)) return forks;
  const displayed = graph.thread_id === threadId ? graph : { ...graph, thread_id: threadId };
  const reasons = new Map(graph.threads.map((t) => [t.thread_id, t.reason]));
  const steps = new Set<number>();
  for (const thread of graph.threads) {
    if (thread.parent_thread_id !== null && thread.branch_point_turn !== null) steps.add(thread.branch_point_turn + 1);
  }
  for (const step of steps) {
    const { index, siblings, base_thread_id } = siblingsAtStep(displayed, step);
    if (siblings.length <= 1) continue;
    const isRegenerations = siblings.every(
      (s) => s.thread_id === base_thread_id || reasons.get(s.thread_id) === 'regenerate',
    );
    forks.set(step, { index, count: siblings.length, place: isRegenerations ? 'reply' : 'message' });
  }
  return forks;
}
