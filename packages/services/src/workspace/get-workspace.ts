import type { Workspace } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireOwnedThread, type ThreadActor } from '../conversations/conversation-access';
import { readLiveWorkspace } from './read-live-workspace';

export async function getWorkspace(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string },
): Promise<Workspace> {
  await requireOwnedThread(deps.db, actor, input.threadId);
  return readLiveWorkspace(deps.db, input.threadId);
}
