import { familyThreadSuffixes, stepLabel, type FamilyThreadRow } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { loadFamiliesThreads } from './family-rows';

/** Steps named by (thread, turn), where the turn may be inherited: the step's label, and the thread that owns it. */
export interface StepIndex {
  /** The label the family graph shows for the step. */
  labelOf: (threadId: string, turnIndex: number) => string;
  /** The thread on `threadId`'s lineage that owns `turnIndex` (undefined for a thread of none of the families read). */
  ownerOf: (threadId: string, turnIndex: number) => string | undefined;
}

/**
 * Step labels as the family graph shows them, for steps named by (thread, turn) where the turn may be
 * inherited: one read of every family of `threadIds` (with the label witnesses), then the suffix of
 * the thread that owns the step on the given thread's lineage.
 */
export async function loadStepLabels(
  db: DbOrTx,
  threadIds: readonly string[],
): Promise<(threadId: string, turnIndex: number) => string> {
  return (await loadStepIndex(db, threadIds)).labelOf;
}

/** {@link loadStepLabels}, with the owner of each step as well (the same one read). */
export async function loadStepIndex(db: DbOrTx, threadIds: readonly string[]): Promise<StepIndex> {
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
  const ownerOf = (threadId: string, turnIndex: number): string | undefined => {
    const family = byThread.get(threadId);
    let owner = family?.threads.get(threadId);
    while (owner?.branch_point_turn != null && owner.parent_thread_id !== null && turnIndex <= owner.branch_point_turn) {
      owner = family?.threads.get(owner.parent_thread_id);
    }
    return owner?.thread_id;
  };
  return {
    ownerOf,
    labelOf: (threadId, turnIndex) => {
      const owner = ownerOf(threadId, turnIndex);
      return stepLabel(turnIndex, owner === undefined ? '' : (byThread.get(threadId)?.suffixes.get(owner) ?? ''));
    },
  };
}
