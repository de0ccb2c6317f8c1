import type { MessageList } from '@trellis/domain';
import type { TurnToFollow } from './turn-to-follow';

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
}
