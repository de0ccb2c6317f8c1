// Workspace rows that are not changes: a new thread's empty document, and a branch's copy of its
// parent's workspace at the branch point. A copy writes no change row — the branch's log inherits
// its parent's up to `parent_change_seq` (`branchCut`), so replaying the path still gives its text.
// Only the write path's callers that create threads use these (branch creation, conversations, import).
import { sql } from 'drizzle-orm';
import type { WorkspaceState } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { lineageWalk } from '../../lineage/load-lineage';

/** Empty documents (version 0: nothing to replay) for threads created in this transaction. */
export async function createEmptyDocuments(tx: DbOrTx, threadIds: readonly string[]): Promise<void> {
  if (threadIds.length === 0) return;
  await tx.execute(sql`
    insert into documents (thread_id) select value from jsonb_array_elements_text(${JSON.stringify(threadIds)}::jsonb)`);
}

/**
 * Where a branch at turn k cuts its parent's log: the parent's last change of a step ≤ k (a step's
 * changes are a prefix of the thread's seqs, since turns only grow), and the document's version there
 * on the path (the last document change at or before the cut, walking up the lineage). Read under the
 * parent's lock, in the transaction that copies the rows, so the copy and the cut agree.
 */
export async function branchCut(
  tx: DbOrTx,
  parentId: string,
  k: number,
): Promise<{ parentChangeSeq: number; documentVersion: number }> {
  const [row] = await tx.execute<{ parent_change_seq: number; document_version: number | null }>(sql`
    ${lineageWalk(parentId)},
    parent_cut as (
      select coalesce((select seq from workspace_changes where thread_id = ${parentId} and turn <= ${k}
        order by turn desc, seq desc limit 1), 0) as seq
    ),
    cut as (
      select up.thread_id, up.depth,
        case when up.depth = 0 then (select seq from parent_cut) else child.parent_change_seq end as cutoff
      from up left join up child on child.depth = up.depth - 1
    )
    select (select seq from parent_cut) as parent_change_seq,
      (select v.version from cut cross join lateral (
        select (w.after->>'version')::int as version from workspace_changes w
        where w.thread_id = cut.thread_id and w.kind in ('document', 'document_title') and w.seq <= cut.cutoff
        order by w.seq desc limit 1) v
       order by cut.depth limit 1) as document_version`);
  return { parentChangeSeq: Number(row?.parent_change_seq ?? 0), documentVersion: Number(row?.document_version ?? 0) };
}

/** The branch's copy of the workspace at its branch point: document, items (keys kept), artifacts ≤ k (numbers kept). */
export async function copyBranchWorkspace(
  tx: DbOrTx,
  b: { childId: string; parentId: string; k: number; state: WorkspaceState; documentVersion: number },
): Promise<void> {
  await tx.execute(sql`
    insert into documents (thread_id, title, content, version)
    values (${b.childId}, ${b.state.document.title}, ${b.state.document.content}, ${b.documentVersion})`);
  if (b.state.preferences.length > 0) {
    // A copy keeps the key of the item it copies; a key-less (older) item gets a new one. Versions start afresh.
    await tx.execute(sql`
      insert into preferences (thread_id, position, text, locked, key)
      select ${b.childId}, r.position, r.text, r.locked, coalesce(r.key, gen_random_uuid())
      from jsonb_to_recordset(${JSON.stringify(b.state.preferences.map((p, position) => ({ ...p, position })))}::jsonb)
        as r(key uuid, text text, locked boolean, position int)`);
  }
  if (b.state.todos.length > 0) {
    await tx.execute(sql`
      insert into todos (thread_id, position, text, done, depth, key)
      select ${b.childId}, r.position, r.text, r.done, r.depth, coalesce(r.key, gen_random_uuid())
      from jsonb_to_recordset(${JSON.stringify(b.state.todos.map((t, position) => ({ ...t, position })))}::jsonb)
        as r(key uuid, text text, done boolean, depth int, position int)`);
  }
  // Artifacts made up to turn k, in ascending original id order (newest stays last), numbers kept.
  await tx.execute(sql`
    insert into artifacts (thread_id, turn_index, kind, title, content, created_at, key, number)
    select ${b.childId}, turn_index, kind, title, content, created_at, key, number
    from artifacts where thread_id = ${b.parentId} and turn_index <= ${b.k}
    order by id`);
}

/** A new family's copy of another path's artifacts up to turn k (a copy from a share link), numbers kept. */
export async function copyPathArtifacts(tx: DbOrTx, c: { threadId: string; sourceThreadId: string; k: number }): Promise<void> {
  await tx.execute(sql`
    insert into artifacts (thread_id, turn_index, kind, title, content, created_at, key, number)
    select ${c.threadId}, turn_index, kind, title, content, created_at, key, number
    from artifacts where thread_id = ${c.sourceThreadId} and turn_index <= ${c.k}
    order by id`);
}
