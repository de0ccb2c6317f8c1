import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@trellis/db';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Runs `fn` in a transaction holding the thread's conversation row lock. Every
 * workspace mutation goes through here (REST edits and agent tools alike), so
 * concurrent edits of one thread apply one at a time, list positions stay dense,
 * and a turn's snapshot (which updates the same row) sees either all of an edit
 * or none of it.
 */
export async function withThreadLock<T>(db: Db, threadId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await lockThreadRow(tx, threadId);
    return fn(tx);
  });
}

/** `withThreadLock` after the access rule (404/403 unless the caller may edit), for the REST services. */
export async function withEditableThreadLock<T>(
  db: Db,
  actor: ThreadActor,
  threadId: string,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await requireThreadAccess(tx, actor, threadId, 'edit', { lock: true });
    const result = await fn(tx);
    return result;
  });
}

async function lockThreadRow(tx: DbOrTx, threadId: string): Promise<void> {
  await tx.execute(sql`select 1 from conversations where thread_id = ${threadId} for no key update`);
}
