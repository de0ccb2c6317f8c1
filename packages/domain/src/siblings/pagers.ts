import type { FamilyGraph } from '../graph/contracts';
import { replyAlternatives, type ReplyAlternatives } from '../graph/reply-alternatives';
import { siblingsAtStep, type SiblingsAtStep } from './siblings';

/** The two `‹ i/n ›` of one step: the user message's and the reply's. */
export interface StepPagers {
  /** Edits and continue-from-here paths at this step (each regeneration group counts once, by its anchor). */
  readonly message: SiblingsAtStep;
  /** The reply shown at this step and its regeneration alternatives (one entry when it has none). */
  readonly reply: SiblingsAtStep;
}

/**
 * Splits the siblings of step k (`siblingsAtStep`) between the two pagers: a regeneration alternative (graph/reply-alternatives) is a page of the
 * reply it answers again, so it leaves the message's pager and joins its anchor's reply pager. Paging
 * the reply moves between answers to the same message at the same step; paging the message moves
 * between different messages, landing on the anchor's reply.
 */
export function pagersAtStep(graph: FamilyGraph, k: number, alternatives: ReplyAlternatives = replyAlternatives(graph)): StepPagers {
  const all = siblingsAtStep(graph, k);
  const anchorOf = (threadId: string): string => {
    const group = alternatives.groupOf.get(threadId);
    return group !== undefined && group.turn === k ? group.anchorThreadId : threadId;
  };
  const displayed = all.siblings[all.index]?.thread_id;
  if (displayed === undefined) return { message: all, reply: all };
  const displayedAnchor = anchorOf(displayed);
  const message = all.siblings.filter((s) => anchorOf(s.thread_id) === s.thread_id);
  const reply = all.siblings.filter((s) => anchorOf(s.thread_id) === displayedAnchor);
  return {
    message: {
      index: Math.max(0, message.findIndex((s) => s.thread_id === displayedAnchor)),
      siblings: message,
      base_thread_id: all.base_thread_id,
    },
    reply: {
      index: Math.max(0, reply.findIndex((s) => s.thread_id === displayed)),
      siblings: reply,
      base_thread_id: all.base_thread_id,
    },
  };
}
