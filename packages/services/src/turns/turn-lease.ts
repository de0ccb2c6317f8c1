// The per-thread turn lease: one run per thread across every
// studio process, enforced in Postgres. LangGraph JS loses a turn when two runs
// share a thread (LESSONS.md), so this is not optional. A lease is free when it
// has no owner or has expired, so a crashed process holds a thread for one TTL
// at most; a live run renews it well before it expires.
import { sql } from 'drizzle-orm';
import type { Db } from '@trellis/db';

export interface LeaseTiming {
  /** How long a lease lives without renewal. */
  ttlSeconds: number;
  /** How often a running turn renews it. */
  renewEveryMs: number;
}

export const DEFAULT_LEASE_TIMING: LeaseTiming = { ttlSeconds: 120, renewEveryMs: 30_000 };

/** The SQL condition "nobody holds this thread's lease", for the acquiring UPDATE. */
export const leaseIsFree = sql`(conversations.lease_owner is null
  or (conversations.lease_instance is null
    and (conversations.lease_expires_at is null or conversations.lease_expires_at <= now())))`;

export function leaseExpiry(timing: LeaseTiming) {
  return sql`now() + make_interval(secs => ${timing.ttlSeconds})`;
}

/** Extends the lease; false when `owner` no longer holds it (it expired and someone took it). */
export async function renewLease(db: Db, threadId: string, owner: string, timing: LeaseTiming): Promise<boolean> {
  const rows = await db.execute(sql`
    update conversations set lease_expires_at = ${leaseExpiry(timing)}
    where thread_id = ${threadId} and lease_owner = ${owner}
    returning thread_id`);
  return rows.length > 0;
}

export async function releaseLease(db: Db, threadId: string, owner: string): Promise<void> {
  await db.execute(sql`
    update conversations set lease_owner = null, lease_expires_at = null, lease_instance = null
    where thread_id = ${threadId} and lease_owner = ${owner}`);
}
