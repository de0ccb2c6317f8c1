import { AppError, type Message } from '@trellis/domain';
import { listMessages, type ServiceDeps } from '@trellis/services';
import { TURNS_PER_PAGE, type PathAtOpen } from '@/lib/turns/path-at-open';
import type { FollowedSoFar } from '@/lib/turns/turn-store';
import { turnToFollow } from '@/lib/turns/turn-to-follow';
import { logger } from './logger';

/**
 * The path as its page is rendered (a reload mid-reply among others): the transcript's newest page,
 * which the page renders into its HTML, the turn running on it, which the page starts following as
 * it hydrates, beside its first reads rather than after the transcript's, and that turn's reply so
 * far when this process runs it (the HTML shows it streaming). Null when the path cannot be read
 * (the page's own reads say why).
 */
export async function pathAtOpen(
  deps: Pick<ServiceDeps, 'db' | 'liveTurns'>,
  userId: string,
  threadId: string,
): Promise<PathAtOpen | null> {
  try {
    const page = await listMessages(deps, { userId }, { threadId, limit_turns: TURNS_PER_PAGE });
    // As the browser's read would have it: plain JSON.
    const transcript = JSON.parse(JSON.stringify(page)) as typeof page;
    const runningTurn = page.running_turn == null ? null : turnToFollow(threadId, transcript.messages, page.running_turn);
    return { threadId, transcript, readAt: Date.now(), runningTurn, replySoFar: replySoFar(deps, threadId, transcript.messages, runningTurn?.turn) };
  } catch (error) {
    if (!(error instanceof AppError)) logger.warn({ err: error, threadId }, 'could not read the path of a page being opened');
    return null;
  }
}

/** The running reply so far, when this process runs it (another process's turn streams in once followed). */
function replySoFar(
  deps: Pick<ServiceDeps, 'liveTurns'>,
  threadId: string,
  messages: readonly Message[],
  turn: number | undefined,
): FollowedSoFar | null {
  if (turn === undefined) return null;
  const live = deps.liveTurns.get(threadId, turn);
  const question = messages.findLast((m) => m.role === 'user' && m.turn_index === turn);
  if (!live || !question) return null;
  const { text, tools } = live.soFar();
  // Plain JSON, as the page's props are.
  return JSON.parse(JSON.stringify({ text, tools, startedAt: question.created_at })) as FollowedSoFar;
}
