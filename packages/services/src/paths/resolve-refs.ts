// A message's references to other paths, checked before the turn opens: each names a path the caller
// may read (else refused like any access to it: the access rule), of this thread's family (else 422), and a step that
// path has (else 422). A step a path inherited is named by the path that owns it, as the graph does.
import { AppError, type FieldIssue, type PathRef, type PathRefInput } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { loadStepIndex } from '../graph/step-labels';

/** A checked reference, with the referenced path's name (what the agent is told it reads). */
export interface ResolvedRef extends PathRef {
  title: string;
}

export async function resolveRefs(
  db: DbOrTx,
  actor: ThreadActor,
  threadId: string,
  refs: readonly PathRefInput[] | undefined,
): Promise<ResolvedRef[]> {
  if (refs === undefined || refs.length === 0) return [];
  const { conversation } = await requireThreadAccess(db, actor, threadId, 'edit');
  const issues: FieldIssue[] = [];
  const found: Array<{ threadId: string; turn: number; title: string }> = [];
  for (const [i, ref] of refs.entries()) {
    const { conversation: target } = await requireThreadAccess(db, actor, ref.thread_id, 'read');
    if (target.rootThreadId !== conversation.rootThreadId) {
      issues.push({ path: `refs.${i}.thread_id`, message: 'is not a path of this conversation' });
      continue;
    }
    const turn = ref.turn ?? target.turnIndex;
    if (turn < 1 || turn > target.turnIndex) {
      issues.push({ path: `refs.${i}.turn`, message: target.turnIndex === 0 ? 'that path has no step yet' : `that path has no step ${turn}` });
      continue;
    }
    found.push({ threadId: ref.thread_id, turn, title: target.title });
  }
  if (issues.length > 0) throw AppError.validation(issues, 'A reference names no step of this conversation’s paths');
  // One read of the family: the owner of an inherited step (as the graph names it) and its label.
  const { ownerOf, labelOf } = await loadStepIndex(db, [threadId]);
  const unique = new Map<string, ResolvedRef>();
  for (const ref of found) {
    const owner = ownerOf(ref.threadId, ref.turn) ?? ref.threadId;
    const key = `${owner}:${ref.turn}`;
    if (!unique.has(key)) unique.set(key, { thread_id: owner, turn: ref.turn, label: labelOf(owner, ref.turn), title: ref.title });
  }
  return [...unique.values()];
}
