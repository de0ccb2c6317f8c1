import type { Message } from '@trellis/domain';

/** A turn of the displayed path that this page did not start and should show streaming. */
export interface TurnToFollow {
  turn: number;
  /** The turn's question, shown above the reply as it streams. */
  content: string;
  /** The attempt that runs: one past the replies the turn already has (a retry's next attempt). */
  attempt: number;
}

/**
 * The turn a page follows: the one the server says runs (`running_turn`: a send or a retry, started
 * in another tab or still running when the page opened), else the newest question when it has no
 * reply. Null when neither. Pure, so the page's server render and the transcript read agree on it.
 */
export function turnToFollow(threadId: string | null, messages: readonly Message[], runningTurn: number | null): TurnToFollow | null {
  if (threadId === null) return null;
  const last = messages.at(-1);
  const unanswered = last?.role === 'user' && last.thread_id === threadId ? last.turn_index : null;
  const turn = runningTurn ?? unanswered;
  if (turn === null) return null;
  const question = messages.findLast((m) => m.role === 'user' && m.turn_index === turn);
  const attempt = messages.filter((m) => m.role === 'assistant' && m.turn_index === turn).length + 1;
  return { turn, content: question?.content ?? '', attempt };
}
