import { familyThreadSuffixes, stepLabel, type FamilyThreadRow } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { loadFamilyThreads } from './family-rows';

/**
 * Step labels as the family graph shows them, for steps named by (thread, turn) where the turn may be
 * inherited: one family read (with the label witnesses) per family of `threadIds`, then the suffix of
 * the thread that owns the step on the given thread's lineage.
 */
export async function loadStepLabels(
  db: DbOrTx,
  threadIds: readonly string[],
): Promise<(threadId: string, turnIndex: number) => string> {
  const byThread = new Map<string, { threads: ReadonlyMap<string, FamilyThreadRow>; suffixes: ReadonlyMap<string, string> }>();
  for (const threadId of new Set(threadIds)) {
    if (byThread.has(threadId)) continue;
    const { threads, labelTurns } = await loadFamilyThreads(db, threadId);
    const family = {
      threads: new Map(threads.map((thread) => [thread.thread_id, thread])),
      suffixes: familyThreadSuffixes({ requestedThreadId: threadId, threads, labelTurns }),
    };
    for (const thread of threads) byThread.set(thread.thread_id, family);
  }
  return (threadId, turnIndex) => {
    const family = byThread.get(threadId);
    let owner = family?.threads.get(threadId);
    while (owner?.branch_point_turn != null && owner.parent_thread_id !== null && turnIndex <= owner.branch_point_turn) {
      owner = family?.threads.get(owner.parent_thread_id);
    }
    return stepLabel(turnIndex, owner === undefined ? '' : (family?.suffixes.get(owner.thread_id) ?? ''));
  };
}
