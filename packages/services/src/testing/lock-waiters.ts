// Waiting for other sessions to queue on a lock: a test that holds a row or an advisory lock goes on
// only once the writers it races are really waiting, so the race it checks always happens.
import type postgres from 'postgres';

/**
 * Resolves once `count` sessions wait on the one with backend `pid`, directly or queued behind one
 * that does (PostgreSQL's `pg_blocking_pids`); throws after about five seconds without them.
 */
export async function waitForLockWaiters(sql: postgres.Sql, pid: number, count: number): Promise<void> {
  for (let waited = 0; ; waited++) {
    const { n } = (await sql<{ n: number }[]>`
      with recursive chain(pid) as (
        select ${pid}::int
        union
        select a.pid from pg_stat_activity a join chain c on c.pid = any(pg_blocking_pids(a.pid))
      ) select (count(*) - 1)::int as n from chain`)[0]!;
    if (n >= count) return;
    if (waited > 500) throw new Error(`${count} sessions never waited on the lock`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
