// Phases 2 and 3 of a compensated creation (docs/branching.md, "Creating a branch: three phases and the sweeper"), shared by
// every writer that creates threads behind PENDING branch rows: branch creation (one thread) and
// transcript import (a whole family). There is no transaction spanning Postgres and the
// checkpointer, so the rows stay invisible until every checkpointer thread is seeded, and any
// failure removes both.
import { sql } from 'drizzle-orm';
import { AppError } from '@trellis/domain';
import type { conversationBranches } from '@trellis/db';
import { createThreadSeeder, deleteCheckpointThread, type PrefixMessage } from '@trellis/agent';
import type { ServiceDeps } from '../deps';
import { forEachLimited } from '../util/limited';

export interface PendingThread {
  threadId: string;
  /** The thread's working-context prefix; only the budgeted window is kept. */
  prefix: () => Promise<PrefixMessage[]> | PrefixMessage[];
}

/** How many checkpointer threads are seeded at once (each one is a few round trips). */
const SEED_CONCURRENCY = 4;

/**
 * The pending marker of a family ROOT. A root has no parent, so no ordinary branch row; a
 * self-referencing pending row hides it exactly like a pending branch — every reader and the turn
 * loop refuse a thread whose own row is pending, lists skip it, lineage walks stop at it — and lets
 * the sweeper reclaim it after a crash. Activation deletes the row, leaving a plain root.
 */
export function pendingRootRow(threadId: string, userId: string): typeof conversationBranches.$inferInsert {
  return { threadId, parentThreadId: threadId, branchPointTurn: 0, reason: null, userId, status: 'pending' };
}

/**
 * Seeds every pending thread's checkpointer, then activates them all in ONE statement. Activation
 * is each thread's moment of creation as readers see it: `threads[i]` gets the activation time plus
 * i milliseconds, so sibling order (lanes, ordinals) follows the order given and never shifts.
 * Any failure deletes the pending rows (their conversations cascade) and the checkpointer
 * threads, logs the cause and throws 502 with `failureMessage`.
 */
export async function seedAndActivate(
  deps: ServiceDeps,
  input: {
    userId: string;
    threads: readonly PendingThread[];
    failureMessage: string;
    /** The thread ids were minted for this creation: no checkpointer thread to clear first. */
    freshThreads?: boolean;
  },
): Promise<void> {
  const threadIds = input.threads.map((t) => t.threadId);
  const seed = createThreadSeeder({ checkpointer: deps.checkpointer, contextBudget: deps.contextBudget });
  try {
    await deps.fault?.('branch.after-tx1');
    await deps.fault?.('branch.hang-after-tx1');
    await forEachLimited(input.threads, SEED_CONCURRENCY, async (thread, index) => {
      const prefix = await thread.prefix();
      if (index === 0) await deps.fault?.('branch.seed');
      await seed(thread.threadId, prefix, { fresh: input.freshThreads === true });
    });
    await deps.fault?.('branch.tx2');
    await activate(deps, input.userId, threadIds);
  } catch (cause) {
    await compensatePendingThreads(deps, threadIds, input.userId);
    deps.logger.error({ err: cause, thread_ids: threadIds.slice(0, 20) }, 'thread creation failed; compensated');
    throw new AppError('upstream_failed', input.failureMessage, { cause });
  }
}

/**
 * Pending branch rows → active (created_at = activation time + position), pending root markers
 * deleted, in one statement. Rows that vanished meanwhile (a sweeper that judged them stale)
 * make it throw, so the caller compensates instead of answering with threads that are gone.
 */
async function activate(deps: ServiceDeps, userId: string, threadIds: readonly string[]): Promise<void> {
  const order = JSON.stringify(threadIds.map((thread_id, position) => ({ thread_id, position })));
  const [result] = await deps.db.execute<{ activated: number }>(sql`
    with ordered as (
      select o.thread_id, o.position from jsonb_to_recordset(${order}::jsonb) as o(thread_id text, position int)
    ),
    clock as (select clock_timestamp() as now),
    activated as (
      update conversation_branches b
      set status = 'active', created_at = (select now from clock) + o.position * interval '1 millisecond'
      from ordered o
      where b.thread_id = o.thread_id and b.user_id = ${userId} and b.status = 'pending'
        and b.parent_thread_id <> b.thread_id
      returning b.thread_id, b.created_at
    ),
    roots as (
      delete from conversation_branches b using ordered o
      where b.thread_id = o.thread_id and b.user_id = ${userId} and b.status = 'pending'
        and b.parent_thread_id = b.thread_id
      returning b.thread_id
    ),
    dated as (
      update conversations c set created_at = a.created_at from activated a where c.thread_id = a.thread_id
    )
    select (select count(*) from activated)::int + (select count(*) from roots)::int as activated`);
  if (result?.activated !== threadIds.length) {
    throw new Error(`activated ${result?.activated ?? 0} of ${threadIds.length} pending threads; the rest were reclaimed`);
  }
}

/** Deletes what TX1 created for these threads (the conversation rows cascade) and their checkpointer threads. */
export async function compensatePendingThreads(
  deps: Pick<ServiceDeps, 'db' | 'checkpointer' | 'logger'>,
  threadIds: readonly string[],
  userId: string,
): Promise<void> {
  for (const threadId of threadIds) {
    try {
      await deleteCheckpointThread(deps.checkpointer, threadId);
    } catch (error) {
      deps.logger.error({ err: error, thread_id: threadId }, 'compensation: checkpointer delete failed');
    }
  }
  await deps.db.execute(sql`
    delete from conversations c using conversation_branches b
    where c.thread_id in (select jsonb_array_elements_text(${JSON.stringify(threadIds)}::jsonb))
      and b.thread_id = c.thread_id and b.user_id = ${userId} and b.status = 'pending'`);
}
