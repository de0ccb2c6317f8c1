import { pagersAtStep, replyAlternatives, type FamilyGraph } from '@trellis/domain';

export type ForkPlace = 'message' | 'reply';

/** Where the displayed path stands in one pager of a step: `‹ index+1/count ›`. */
export interface ForkPoint {
  /** 0-based position of the displayed path. */
  index: number;
  count: number;
  /**
   * Which `‹ i/n ›`: the user message's pages through edits and continue-from-here paths, the
   * reply's through its regeneration alternatives (`pagersAtStep`).
   */
  place: ForkPlace;
}

/** The pagers of one step that have more than one page. */
export type StepForks = Partial<Record<ForkPlace, ForkPoint>>;

/**
 * The steps of `threadId`'s path where siblings diverge, each with the pager(s) that page there, from
 * the family graph the page already holds, so the chat knows where to draw `‹ i/n ›` without a request
 * per message. Same rule as the siblings endpoint (`pagersAtStep`); only steps right after some branch
 * point can fork.
 *
 * Every thread of a family reads the same graph, so one fetched for another thread of the family
 * (kept on screen while the displayed thread's own loads) answers for `threadId` too; a thread the
 * graph does not hold yet has no known forks.
 */
export function forkPointsOf(graph: FamilyGraph | undefined, threadId: string | null): ReadonlyMap<number, StepForks> {
  const forks = new Map<number, StepForks>();
  if (!graph || threadId === null || !graph.threads.some((t) => t.thread_id === threadId)) return forks;
  const displayed = graph.thread_id === threadId ? graph : { ...graph, thread_id: threadId };
  const alternatives = replyAlternatives(graph);
  const steps = new Set<number>();
  for (const thread of graph.threads) {
    if (thread.parent_thread_id !== null && thread.branch_point_turn !== null) steps.add(thread.branch_point_turn + 1);
  }
  for (const step of steps) {
    const { message, reply } = pagersAtStep(displayed, step, alternatives);
    const at: StepForks = {};
    if (message.siblings.length > 1) at.message = { index: message.index, count: message.siblings.length, place: 'message' };
    if (reply.siblings.length > 1) at.reply = { index: reply.index, count: reply.siblings.length, place: 'reply' };
    if (at.message || at.reply) forks.set(step, at);
  }
  return forks;
}
