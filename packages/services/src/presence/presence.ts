import type { HeartbeatPresence, Presence } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { readPresence, recordHeartbeat, removePresence } from './presence-store';

/** Who has the family of `threadId` open: every tab heard from within the presence window. */
export async function getPresence(
  deps: Pick<ServiceDeps, 'db' | 'presence'>,
  actor: ThreadActor,
  input: { threadId: string },
): Promise<Presence> {
  const { conversation } = await requireThreadAccess(deps.db, actor, input.threadId, 'read');
  return readPresence(deps.db, conversation.rootThreadId, deps.presence.windowSeconds);
}

/**
 * A tab showing `threadId` says it is here (every 10 s, and at once when its step or typing
 * changes). Answers who is here, so a tab that just opened needs no second request.
 */
export async function heartbeatPresence(
  deps: Pick<ServiceDeps, 'db' | 'presence'>,
  actor: ThreadActor,
  input: { threadId: string; beat: HeartbeatPresence },
): Promise<Presence> {
  const { conversation } = await requireThreadAccess(deps.db, actor, input.threadId, 'read');
  await recordHeartbeat(
    deps.db,
    {
      threadId: input.threadId,
      clientId: input.beat.client_id,
      userId: actor.userId,
      turnIndex: input.beat.turn_index ?? null,
      isTyping: input.beat.is_typing ?? false,
    },
    deps.presence.windowSeconds,
  );
  return readPresence(deps.db, conversation.rootThreadId, deps.presence.windowSeconds);
}

/** A closing tab leaves at once instead of when its heartbeats stop being heard. */
export async function leavePresence(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; clientId: string },
): Promise<void> {
  await requireThreadAccess(deps.db, actor, input.threadId, 'read');
  await removePresence(deps.db, { threadId: input.threadId, clientId: input.clientId, userId: actor.userId });
}
