import { sql } from 'drizzle-orm';
import type { ServiceDeps } from './deps';
import { CHECKPOINTER_SCHEMA } from './migrate-all';
import { eventLoopDelay, type EventLoopDelay } from './watchdog/event-loop-watch';

/** Database reachable, the checkpointer's tables in place, and how late the event loop ran lately. */
export async function checkHealth(
  deps: Pick<ServiceDeps, 'db'>,
): Promise<{ ok: boolean; database: boolean; checkpointer: boolean; event_loop_delay: EventLoopDelay }> {
  let database = false;
  let checkpointer = false;
  try {
    const rows = await deps.db.execute<{ present: boolean }>(
      sql`select to_regclass(${`${CHECKPOINTER_SCHEMA}.checkpoints`}) is not null as present`,
    );
    database = true;
    checkpointer = rows[0]?.present === true;
  } catch {
    database = false;
  }
  return { ok: database && checkpointer, database, checkpointer, event_loop_delay: eventLoopDelay() };
}
