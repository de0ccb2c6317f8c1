import type { Message } from '@trellis/domain';
import { isRunActive, type TurnRun } from './turn-store';

export interface PendingTurnView {
  /** Show the run's user message and streamed reply as bubbles after the transcript. */
  showBubbles: boolean;
  /** Transcript rows of this turn to hide while the bubbles stand in for it. */
  hideTurn: number | null;
}

/**
 * How a turn in flight meets the stored transcript. While it runs, the bubbles
 * are the turn (stored rows of the same turn are hidden, so a refetch mid-stream
 * never shows it twice). Once it ends, the stored rows win as soon as the
 * transcript holds the turn; a turn that was never committed (409, network)
 * shows no bubble at all — its notice keeps the text for a retry.
 */
export function pendingTurnView(run: TurnRun | undefined, messages: readonly Message[]): PendingTurnView {
  if (!run) return { showBubbles: false, hideTurn: null };
  if (isRunActive(run)) return { showBubbles: true, hideTurn: run.turnIndex };
  if (run.turnIndex === null) return { showBubbles: false, hideTurn: null };
  // A retry in place is stored once its attempt is (the turn's earlier attempts were there before it).
  const stored = messages.some(
    (m) => m.turn_index === run.turnIndex && (run.attempt === 1 || (m.role === 'assistant' && (m.attempt ?? 1) >= run.attempt)),
  );
  return stored ? { showBubbles: false, hideTurn: null } : { showBubbles: true, hideTurn: null };
}

/**
 * A send the server refused before recording it: its message goes back to the composer. A followed
 * turn that turns out not to run (an imported question nobody answered, a reply already gone) is no
 * send of this person's: nothing is put in their composer.
 */
export function isRefusedSend(run: TurnRun | undefined): run is TurnRun {
  return run !== undefined && run.phase === 'failed' && run.turnIndex === null && !run.isFollowed;
}

/**
 * The displayed path's step whose reply is being written now: the turn of this page's active run
 * (its own send, or a turn it follows), else the turn the server says runs (`running_turn` of the
 * transcript) before this page has begun to follow it. Such a step reads "replying…", never "no reply
 * yet", and nothing that starts another turn on the path (edit, Regenerate) is offered meanwhile.
 */
export function replyingTurn(run: TurnRun | undefined, threadId: string | null, runningTurn: number | null): number | null {
  if (threadId === null) return null;
  if (isRunActive(run) && run?.threadId === threadId && run.turnIndex !== null) return run.turnIndex;
  return runningTurn;
}
