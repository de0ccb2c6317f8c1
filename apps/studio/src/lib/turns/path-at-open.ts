import type { MessageList } from '@trellis/domain';
import type { TurnToFollow } from './turn-to-follow';
import { runOf, type FollowedSoFar, type TurnRun } from './turn-store';

/** Turns per page of a transcript: enough to fill a tall screen, small enough to load fast. */
export const TURNS_PER_PAGE = 25;

/**
 * A path as its page was rendered on the server: the transcript's newest page (what the browser's
 * first read would answer) and the turn running on it, if any. The page shows both from its first
 * paint instead of after its scripts have run and read them again.
 */
export interface PathAtOpen {
  threadId: string;
  transcript: MessageList;
  /** When the server read it (ms since the epoch): the read counts as fresh from then. */
  readAt: number;
  runningTurn: TurnToFollow | null;
  /**
   * The running turn's reply as far as it had come when the page was rendered (its text and tool
   * calls), when this server process runs it; null otherwise (the page then shows it once the
   * reply's stream answers).
   */
  replySoFar: FollowedSoFar | null;
}

/**
 * The reply the page shows from its first paint, before its scripts follow the turn's stream: the
 * run that follow will be (its question, the text and tool calls so far, streaming), so the HTML
 * holds the streaming reply and hydration shows the same. Null without a reply so far.
 */
export function openedRunOf(atOpen: PathAtOpen | null): TurnRun | null {
  if (!atOpen?.runningTurn || !atOpen.replySoFar) return null;
  const { turn, content, attempt } = atOpen.runningTurn;
  return runOf({
    runId: 0,
    threadId: atOpen.threadId,
    content,
    turnIndex: turn,
    isFollowed: true,
    attempt,
    soFar: atOpen.replySoFar,
    phase: 'streaming',
  });
}
