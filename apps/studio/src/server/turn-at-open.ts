import { AppError } from '@trellis/domain';
import { listMessages, type ServiceDeps } from '@trellis/services';
import { turnToFollow, type TurnToFollow } from '@/lib/turns/turn-to-follow';
import { logger } from './logger';

/**
 * The turn running on a path as its page is rendered (a reload mid-reply): handed to the page, which
 * starts following its reply as it hydrates, beside its first reads rather than after the transcript's.
 * Null when none runs, and when the path cannot be read (the page's own reads say why).
 */
export async function turnRunningAtOpen(deps: Pick<ServiceDeps, 'db'>, userId: string, threadId: string): Promise<TurnToFollow | null> {
  try {
    const page = await listMessages(deps, { userId }, { threadId, limit_turns: 1 });
    if (page.running_turn == null) return null;
    return turnToFollow(threadId, page.messages, page.running_turn);
  } catch (error) {
    if (!(error instanceof AppError)) logger.warn({ err: error, threadId }, 'could not read the running turn of a page being opened');
    return null;
  }
}
