import { sql } from 'drizzle-orm';
import { AppError, ownerOfTurn, type DiscardedItem, type StepChanges } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { assertAccessReading, type ThreadActor } from '../conversations/conversation-access';
import { lineageFacts, loadPathLineage, type LineageRow } from '../lineage/load-lineage';
import { compareSteps } from './compare-steps';
import { readStepAuthors } from './step-authors';

/**
 * "What changed at this step": the compare of step k−1 and step k on `{id}`'s lineage, plus what was
 * discarded at step k — the preferences and todos deleted during turn k or by hand before turn k+1,
 * as they were when deleted (the decision log) — and who did what at step k (`by_author`).
 */
export async function getStepChanges(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; turn: number },
): Promise<StepChanges> {
  const { threadId, turn: k } = input;
  const lineage = await loadPathLineage(deps.db, threadId);
  const displayed = lineage.at(-1);
  if (!displayed) throw AppError.notFound('Conversation');
  await assertAccessReading(deps.db, displayed && lineageFacts(displayed), actor, 'read');
  if (k < 1 || k > displayed.turn_index) throw AppError.notFound(`Turn ${k}`);
  const [comparison, discarded, byAuthor] = await Promise.all([
    compareSteps(deps, actor, {
      threadId,
      a: { thread_id: threadId, turn: k - 1 },
      b: { thread_id: threadId, turn: k },
    }),
    readDiscarded(deps.db, lineage, k),
    readStepAuthors(deps.db, lineage, k),
  ]);
  return { ...comparison, discarded, by_author: byAuthor };
}

/**
 * Deletions that shaped the workspace after step k on this lineage. They are logged with the turn
 * index their thread had at the time, so they are the step-k rows of the thread that owns turn k
 * (the agent's, and the person's made there) and, when another thread of the lineage takes over after
 * k (a branch at k), that thread's step-k rows (edits made on the branch before its first turn) — the
 * owner's only up to the moment that branch was made, since later ones never reached it.
 */
export async function readDiscarded(
  db: DbOrTx,
  lineage: readonly LineageRow[],
  k: number,
): Promise<DiscardedItem[]> {
  const stepOwner = ownerOfTurn(lineage, k);
  const displayed = lineage.at(-1)!;
  const afterOwner = k >= displayed.turn_index ? displayed.thread_id : ownerOfTurn(lineage, k + 1);
  const rows = await db.execute<{
    kind: 'preference' | 'todo';
    key: string;
    text: string;
    locked: boolean | null;
    done: boolean | null;
    depth: number | null;
    editor: 'person' | 'agent';
  }>(sql`
    select d.kind, d.key::text as key, d.text, d.locked, d.done, d.depth, d.editor
    from discarded_items d
    where d.turn_index = ${k} and (
      d.thread_id = ${afterOwner}
      or (d.thread_id = ${stepOwner} and d.discarded_at < coalesce(
        (select b.created_at from conversation_branches b where b.thread_id = ${afterOwner} and b.parent_thread_id = ${stepOwner}),
        'infinity')))
    order by d.id`);
  return rows.map((row): DiscardedItem =>
    row.kind === 'preference'
      ? { kind: 'preference', key: row.key, text: row.text, locked: row.locked ?? false, by: row.editor }
      : {
          kind: 'todo',
          key: row.key,
          text: row.text,
          done: row.done ?? false,
          depth: row.depth ?? 0,
          by: row.editor,
        },
  );
}
