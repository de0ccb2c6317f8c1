// A study's condition applies to its participant's family server-side, whoever acts in it: the
// family's own row says which condition it runs under.
import { eq, sql, type SQL } from 'drizzle-orm';
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

/** What a turn of a study's family runs under: its condition's model, added system prompt and tools. */
export type TurnCondition = {
  model: string;
  systemPrompt: string | null;
  tools: string[] | null;
};

/**
 * The condition the family of `threadId` runs under, as one statement (no row: outside any study),
 * so that opening a turn reads it in the round trip that takes the lease.
 */
export function turnConditionStatement(threadId: string): SQL {
  return sql`select c.model, c.system_prompt as "systemPrompt", c.tools
    from study_participants p join study_conditions c on c.id = p.condition_id
    where p.thread_id = (select root_thread_id from conversations where thread_id = ${threadId})`;
}

/** A linear condition's family never gains a branch: continue from here, edit and regenerate are refused. */
export async function assertBranchingAllowed(db: DbOrTx, rootThreadId: string): Promise<void> {
  const condition = await conditionOfFamily(db, rootThreadId);
  if (condition && !condition.branching) {
    throw new AppError('branching_disabled', 'This study runs without branching: continue the conversation where it is');
  }
}
