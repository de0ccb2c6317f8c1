import { AppError, assembleFamilyGraph, leafOfSibling, pagersAtStep, siblingsAtStep, type SiblingList, type SiblingPath } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { loadFamilyThreads, loadFamilyTurns } from '../graph/family-rows';
import { loadFamilyActivity } from './family-activity';

/**
 * `‹ i/n ›` at step k (docs/branching.md, "Siblings: edit and regenerate"): every path that diverges where the displayed
 * one does — made by edit, regenerate or continue-from-here alike — oldest first,
 * each with the thread that choosing it opens; and the same split between the message's pager
 * (edits, continues) and the reply's (its regeneration alternatives), `pagersAtStep`.
 */
export async function listSiblings(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; turn: number },
): Promise<SiblingList> {
  const { conversation } = await requireThreadAccess(deps.db, actor, input.threadId, 'read');
  if (input.turn < 1 || input.turn > conversation.turnIndex) throw AppError.notFound(`Turn ${input.turn}`);
  const root = conversation.rootThreadId;
  // Every turn row (any step's node may be asked for), so the label witnesses are not needed.
  const [{ threads }, turns, activity] = await Promise.all([
    loadFamilyThreads(deps.db, root),
    loadFamilyTurns(deps.db, root),
    loadFamilyActivity(deps.db, root, actor.userId),
  ]);
  const graph = assembleFamilyGraph({ requestedThreadId: input.threadId, threads, turns, maxNodes: Number.MAX_SAFE_INTEGER });
  const { index, siblings, base_thread_id } = siblingsAtStep(graph, input.turn);
  const pagers = pagersAtStep(graph, input.turn);
  const withLeaf = (s: SiblingPath) => ({
    ...s,
    leaf_thread_id: leafOfSibling(graph, { thread_id: s.thread_id, base_thread_id, k: input.turn }, activity),
  });
  return {
    index,
    siblings: siblings.map(withLeaf),
    message: { index: pagers.message.index, siblings: pagers.message.siblings.map(withLeaf) },
    reply: { index: pagers.reply.index, siblings: pagers.reply.siblings.map(withLeaf) },
  };
}
