// Finishing the turns of a process that died. A lease whose instance's heartbeat is stale (or, without an
// instance, whose TTL ran out) belongs to a turn nobody runs any more: the
// sweeper takes the lease over, makes the checkpointer agree with the
// transcript, stores an `interrupted` reply with the reason, and frees the
// thread. A lease of a live instance is never touched, however long its model
// runs. Several sweepers may run at once: taking the lease over is a
// compare-and-set on the dead owner, so each turn is finished once.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ServiceDeps } from '../deps';
import { instanceIsLive } from './instances';
import { SHUTDOWN_REASON } from './turn-gate';
import { appendFamilyEvent } from '../live/family-events';

export interface ReclaimOptions {
  /** This process's instance (its leases are never reclaimed; it holds the ones it takes over). */
  instanceId: string | null;
  staleSeconds: number;
  /**
   * Treat every other instance as dead: a single-process studio at boot (its
   * embedded database has no other client) frees its previous incarnation's leases.
   */
  everyOtherInstance?: boolean;
  batch?: number;
}

type ReclaimDeps = Pick<ServiceDeps, 'db' | 'agent' | 'logger'>;

/** Returns how many dead turns were finished. */
export async function reclaimOrphanedTurns(deps: ReclaimDeps, options: ReclaimOptions): Promise<number> {
  const self = options.instanceId;
  const dead = options.everyOtherInstance
    ? sql`c.lease_instance is distinct from ${self}`
    : sql`not ${instanceIsLive(sql`c.lease_instance`, options.staleSeconds)}`;
  const orphans = await deps.db.execute<{ thread_id: string; lease_owner: string }>(sql`
    select c.thread_id, c.lease_owner from conversations c
    where c.lease_owner is not null
      and ((c.lease_instance is not null and c.lease_instance is distinct from ${self} and ${dead})
        or (c.lease_instance is null and c.lease_expires_at <= now()))
    limit ${options.batch ?? 100}`);
  let finished = 0;
  for (const orphan of orphans) {
    try {
      if (await finishOrphan(deps, orphan.thread_id, orphan.lease_owner, self)) finished += 1;
    } catch (error: unknown) {
      deps.logger.warn({ threadId: orphan.thread_id, err: error }, 'could not finish an orphaned turn; retrying later');
    }
  }
  return finished;
}

async function finishOrphan(deps: ReclaimDeps, threadId: string, deadOwner: string, self: string | null): Promise<boolean> {
  const owner = randomUUID();
  // Take the lease over (a bounded TTL only matters when this process has no instance).
  const [taken] = await deps.db.execute<{ turn_index: number }>(sql`
    update conversations set lease_owner = ${owner}, lease_instance = ${self},
      lease_expires_at = now() + interval '60 seconds'
    where thread_id = ${threadId} and lease_owner = ${deadOwner}
    returning turn_index`);
  if (!taken) return false; // another sweeper, or the owner itself, got there first
  try {
    const [question] = await deps.db.execute<{ id: string; content: string; answered: boolean }>(sql`
      select m.id::text as id, m.content, exists (select 1 from messages a where a.thread_id = m.thread_id
        and a.turn_index = m.turn_index and a.role = 'assistant') as answered
      from messages m where m.thread_id = ${threadId} and m.turn_index = ${taken.turn_index} and m.role = 'user'
      order by m.seq desc limit 1`);
    let content = '';
    if (question && !question.answered) {
      ({ content } = await deps.agent.settleAbandonedTurn({
        threadId,
        userMessageId: question.id,
        userMessage: question.content,
      }));
    }
    await deps.db.execute(sql`
      with reply as (
        insert into messages (thread_id, turn_index, role, content, status, reason)
        select ${threadId}, ${taken.turn_index}, 'assistant', ${content}, 'interrupted', ${SHUTDOWN_REASON}
        where ${question?.answered === false}
        returning id
      )
      update conversations set lease_owner = null, lease_expires_at = null, lease_instance = null,
        message_count = message_count + (select count(*) from reply), updated_at = now()
      where thread_id = ${threadId} and lease_owner = ${owner}`);
    await appendFamilyEvent(deps.db, {
      threadId,
      kind: 'turn_finished',
      data: { turn_index: taken.turn_index, status: 'interrupted', reason: SHUTDOWN_REASON, message_id: null },
    });
    deps.logger.info({ threadId, turnIndex: taken.turn_index }, 'finished a turn its process left behind');
    return true;
  } catch (error: unknown) {
    // Let the lease lapse to the next sweep rather than strand the thread.
    await deps.db
      .execute(sql`update conversations set lease_instance = null, lease_expires_at = now()
        where thread_id = ${threadId} and lease_owner = ${owner}`)
      .catch(() => undefined);
    throw error;
  }
}
