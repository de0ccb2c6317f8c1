import { assembleFamilyGraph, familyGraphScope, resolveMaxGraphNodes, type FamilyGraph } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { loadFamilyThreads, loadNewestFamilyTurns } from './family-rows';

/**
 * The family graph of a thread (docs/branching.md, "The family graph"): three queries
 * whatever the family's size, in two waits — the ownership check beside the
 * family's threads (with the label witnesses), then only the newest `maxNodes`
 * visible turns with each visible thread's turn count — and the pure assembly
 * in `domain` (walks, active path, labels, cap) over those reduced rows. Its
 * cost follows the size of the answer, not the family's.
 */
export async function getFamilyGraph(
  deps: Pick<ServiceDeps, 'db'> & Partial<Pick<ServiceDeps, 'gate'>>,
  actor: ThreadActor,
  input: { threadId: string; maxNodes?: number; includeArchived?: boolean },
): Promise<FamilyGraph> {
  const { threadId } = input;
  const maxNodes = resolveMaxGraphNodes(input.maxNodes);
  // The threads are keyed by the requested thread, so they need not wait for the check; when the
  // check fails its error wins and the rows are dropped unseen.
  const [access, family] = await Promise.allSettled([
    requireThreadAccess(deps.db, actor, threadId, 'read'),
    loadFamilyThreads(deps.db, threadId),
  ]);
  if (access.status === 'rejected') throw access.reason;
  if (family.status === 'rejected') throw family.reason;
  const { threads, labelTurns } = family.value;
  const includeArchived = input.includeArchived ?? false;
  const scope = familyGraphScope({ requestedThreadId: threadId, threads, includeArchived });
  // A turn that just answered may still be storing its step's change counts (send-turn.ts).
  await deps.gate?.followUpsOf(scope.visibleThreads.map((t) => t.thread_id));
  const { turns, ownedTurnCounts } = await loadNewestFamilyTurns(deps.db, scope, maxNodes);
  return assembleFamilyGraph({
    requestedThreadId: threadId,
    threads: threads.map((thread) => {
      const count = ownedTurnCounts.get(thread.thread_id);
      return count === undefined ? thread : { ...thread, owned_turn_count: count };
    }),
    turns,
    labelTurns,
    maxNodes,
    includeArchived,
  });
}
