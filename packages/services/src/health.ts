import { sql } from 'drizzle-orm';
import type { ServiceDeps } from './deps';
import { CHECKPOINTER_SCHEMA } from './migrate-all';

/** Database reachable, and the checkpointer's tables in place. */
export async function checkHealth(deps: Pick<ServiceDeps, 'db'>): Promise<{ ok: boolean; database: boolean; checkpointer: boolean }> {
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
  return { ok: database && checkpointer, database, checkpointer };
}
