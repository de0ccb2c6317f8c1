import { sql } from 'drizzle-orm';
import { deleteCheckpointThread } from '@trellis/agent';
import type { ServiceDeps } from '../deps';

/**
 * Reclaims branches stuck in `pending` (a process died between TX1 and TX2):
 * their rows (the conversation row cascades to every copy) and their
 * checkpointer thread. Idempotent; several studio processes may run it at once —
 * each row is claimed with FOR UPDATE SKIP LOCKED, so no two sweepers touch it.
 */
export async function sweepPendingBranches(
  deps: Pick<ServiceDeps, 'db' | 'checkpointer'>,
  options: { olderThanSeconds: number; batch?: number },
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const stale = await tx.execute<{ thread_id: string }>(sql`
      select thread_id from conversation_branches
      where status = 'pending' and created_at < now() - make_interval(secs => ${options.olderThanSeconds})
      order by created_at
      limit ${options.batch ?? 100}
      for update skip locked`);
    for (const { thread_id } of stale) {
      await deleteCheckpointThread(deps.checkpointer, thread_id);
      await tx.execute(sql`delete from conversations where thread_id = ${thread_id}`);
    }
    return stale.length;
  });
}
