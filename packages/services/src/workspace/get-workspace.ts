import type { Workspace } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { readOwnedLiveWorkspace } from './read-live-workspace';

/** The caller's live workspace; ownership is checked in the same query (404/403). */
export async function getWorkspace(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string },
): Promise<Workspace> {
  return readOwnedLiveWorkspace(deps.db, actor, input.threadId);
}
