import { assembleFamilyGraph, type FamilyGraph } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireOwnedThread, type ThreadActor } from '../conversations/conversation-access';
import { loadFamilyThreads, loadFamilyTurns } from './family-rows';

/**
 * The family graph of a thread (seed 003, "The history graph"): three queries
 * whatever the family's size — the ownership check, the threads, the turn
 * metadata — then the pure assembly in `domain` (walks, active path, labels, cap).
 */
export async function getFamilyGraph(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; maxNodes?: number },
): Promise<FamilyGraph> {
  const { threadId, maxNodes } = input;
  const { conversation } = await requireOwnedThread(deps.db, actor, threadId);
  const root = conversation.rootThreadId;
  const [threads, turns] = await Promise.all([loadFamilyThreads(deps.db, root), loadFamilyTurns(deps.db, root)]);
  return assembleFamilyGraph({ requestedThreadId: threadId, threads, turns, maxNodes });
}
