import type { PatchWorkspace, Workspace } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { setObjective, writeDocument } from './document-mutations';
import { readLiveWorkspace } from './read-live-workspace';
import { withOwnedThreadLock } from './thread-lock';

/** A manual edit between turns: it lands in the live rows, hence in the next snapshot. */
export async function patchWorkspace(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; patch: PatchWorkspace },
): Promise<Workspace> {
  const { threadId, patch } = input;
  return withOwnedThreadLock(deps.db, actor, threadId, async (tx) => {
    if (patch.objective !== undefined) await setObjective(tx, threadId, patch.objective);
    if (patch.document) await writeDocument(tx, threadId, patch.document);
    return readLiveWorkspace(tx, threadId);
  });
}
