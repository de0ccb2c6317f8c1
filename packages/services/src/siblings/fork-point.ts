import { AppError, ownerOfTurn } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import { assertAccessReading, type ThreadActor } from '../conversations/conversation-access';
import { lineageFacts, loadLineage, type LineageRow } from '../lineage/load-lineage';

/**
 * Where an edit or a regeneration of step k forks: the thread of the displayed
 * lineage that owns turn k−1 (the root for k = 1), at turn k−1.
 */
export async function forkPointOfStep(
  db: DbOrTx,
  actor: ThreadActor,
  input: { threadId: string; turn: number },
): Promise<{ lineage: LineageRow[]; baseThreadId: string; fromTurn: number }> {
  const lineage = await loadLineage(db, input.threadId);
  const displayed = lineage.at(-1);
  if (!displayed) throw AppError.notFound('Conversation');
  await assertAccessReading(db, lineageFacts(displayed), actor, 'edit');
  if (input.turn < 1 || input.turn > displayed.turn_index) throw AppError.notFound(`Turn ${input.turn}`);
  return { lineage, baseThreadId: ownerOfTurn(lineage, input.turn - 1), fromTurn: input.turn - 1 };
}
