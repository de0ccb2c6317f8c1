// A study's condition applies to its participant's family server-side, whoever acts in it: the
// family's own row says which condition it runs under.
import { eq } from 'drizzle-orm';
import { AppError } from '@trellis/domain';
import { studyConditions, studyParticipants, type DbOrTx } from '@trellis/db';

type StudyConditionRow = typeof studyConditions.$inferSelect;

/** The condition the family rooted at `rootThreadId` runs under; null for a family outside any study. */
export async function conditionOfFamily(db: DbOrTx, rootThreadId: string): Promise<StudyConditionRow | null> {
  const [row] = await db
    .select({ condition: studyConditions })
    .from(studyParticipants)
    .innerJoin(studyConditions, eq(studyConditions.id, studyParticipants.conditionId))
    .where(eq(studyParticipants.threadId, rootThreadId));
  return row?.condition ?? null;
}

/** A linear condition's family never gains a branch: continue from here, edit and regenerate are refused. */
export async function assertBranchingAllowed(db: DbOrTx, rootThreadId: string): Promise<void> {
  const condition = await conditionOfFamily(db, rootThreadId);
  if (condition && !condition.branching) {
    throw new AppError('branching_disabled', 'This study runs without branching: continue the conversation where it is');
  }
}
