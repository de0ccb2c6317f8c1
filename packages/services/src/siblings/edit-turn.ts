import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { createBranch } from '../branching/create-branch';
import { forkPointOfStep } from './fork-point';

/**
 * Editing step k's message creates its sibling: a branch at k−1 (docs/branching.md,
 * "Siblings: edit and regenerate": this call creates the sibling; the client then sends the edited text
 * there as an ordinary turn). The original path is never touched.
 */
export async function editTurn(
  deps: ServiceDeps,
  actor: ThreadActor,
  input: { threadId: string; turn: number; content: string },
): Promise<{ thread_id: string }> {
  const fork = await forkPointOfStep(deps.db, actor, input);
  const branch = await createBranch(deps, actor, { threadId: fork.baseThreadId, from_turn: fork.fromTurn, reason: 'edit' });
  return { thread_id: branch.thread_id };
}
