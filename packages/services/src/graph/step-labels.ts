import { familyThreadSuffixes, stepLabel, type FamilyThreadRow } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { loadFamiliesThreads } from './family-rows';

/**
 * Step labels as the family graph shows them, for steps named by (thread, turn) where the turn may be
 * inherited: one read of every family of `threadIds` (with the label witnesses), then the suffix of
 * the thread that owns the step on the given thread's lineage.
 */
export async function loadStepLabels(
  db: DbOrTx,
  threadIds: readonly string[],
): Promise<(threadId: string, turnIndex: number) => string> {
  const byThread = new Map<string, { threads: ReadonlyMap<string, FamilyThreadRow>; suffixes: ReadonlyMap<string, string> }>();
  const families = await loadFamiliesThreads(db, [...new Set(threadIds)]);
  for (const { threads, labelTurns } of families.values()) {
    const first = threads[0];
    if (first === undefined) continue;
    const family = {
      threads: new Map(threads.map((thread) => [thread.thread_id, thread])),
      suffixes: familyThreadSuffixes({ requestedThreadId: first.thread_id, threads, labelTurns }),
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
