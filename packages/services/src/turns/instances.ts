// Studio instances: every process that
// runs turns registers a row and renews its heartbeat every few seconds. A
// lease names its instance; an instance whose heartbeat is stale is gone, and
// the sweeper (reclaim-turns.ts) finishes its turns and frees its threads.
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { Db } from '@trellis/db';

export interface InstanceTiming {
  /** How often a live instance renews its heartbeat. */
  heartbeatMs: number;
  /** A heartbeat older than this means the instance is gone. */
  staleSeconds: number;
}

export const DEFAULT_INSTANCE_TIMING: InstanceTiming = { heartbeatMs: 3_000, staleSeconds: 15 };

export async function registerInstance(db: Db, id: string): Promise<void> {
  await db.execute(sql`
    insert into studio_instances (id, pid, host) values (${id}, ${process.pid}, ${hostname()})
    on conflict (id) do update set heartbeat_at = now()`);
}

/** Renews the heartbeat; re-registers an instance whose row a sweeper removed. */
export async function beatHeart(db: Db, id: string): Promise<void> {
  const rows = await db.execute(sql`update studio_instances set heartbeat_at = now() where id = ${id} returning id`);
  if (rows.length === 0) await registerInstance(db, id);
}

export async function unregisterInstance(db: Db, id: string): Promise<void> {
  await db.execute(sql`delete from studio_instances where id = ${id}`);
}

/** The SQL condition "the instance `column` names has a fresh heartbeat". */
export function instanceIsLive(column: ReturnType<typeof sql>, staleSeconds: number) {
  return sql`exists (select 1 from studio_instances i where i.id = ${column}
    and i.heartbeat_at > now() - make_interval(secs => ${staleSeconds}))`;
}

/** Removes rows of instances long gone that hold no lease (bookkeeping only). */
export async function forgetDeadInstances(db: Db, staleSeconds: number): Promise<void> {
  await db.execute(sql`
    delete from studio_instances i
    where i.heartbeat_at < now() - make_interval(secs => ${staleSeconds * 4})
      and not exists (select 1 from conversations c where c.lease_owner is not null and c.lease_instance = i.id)`);
}
