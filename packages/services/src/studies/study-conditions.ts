// A study's condition applies to its participant's family server-side, whoever acts in it: the
// family's own row says which condition it runs under.
import { sql, type SQL } from 'drizzle-orm';
import { AppError } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';

/** What a study's family runs under: its condition's model, added system prompt and tools, and whether it may branch. */
export type FamilyCondition = {
  model: string;
  systemPrompt: string | null;
  tools: string[] | null;
  branching: boolean;
};

/**
 * The condition the family of `threadId` (any of its threads) runs under, as one statement (no row:
 * outside any study), so that opening a turn reads it in the round trip that takes the lease.
 */
export function familyConditionStatement(threadId: string): SQL {
  return sql`select c.model, c.system_prompt as "systemPrompt", c.tools, c.branching
    from study_participants p join study_conditions c on c.id = p.condition_id
    where p.thread_id = (select root_thread_id from conversations where thread_id = ${threadId})`;
}

/** A linear condition's family never gains a branch: continue from here, edit and regenerate are refused. */
export async function assertBranchingAllowed(db: DbOrTx, threadId: string): Promise<void> {
  const [condition] = await db.execute<FamilyCondition>(familyConditionStatement(threadId));
  if (condition && !condition.branching) {
    throw new AppError('branching_disabled', 'This study runs without branching: continue the conversation where it is');
  }
}
