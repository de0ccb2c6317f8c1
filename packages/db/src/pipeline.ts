import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client';

const dialect = new PgDialect();

/**
 * Runs `statements` as one transaction sent in one go on one connection — `begin`, each statement,
 * `commit` — so the whole transaction costs one round trip instead of one per statement.
 * PostgreSQL still runs them in order, each under its own snapshot (READ COMMITTED): a statement
 * sees what the ones before it wrote, and whatever other transactions committed while an earlier one
 * waited for a row lock. A failing statement aborts the transaction: the ones after it fail, `commit`
 * rolls back, and the first error is thrown. Returns each statement's rows, in order.
 *
 * Only for statements that do not depend on the application reading an earlier one's result: make
 * a later statement conditional in SQL instead (it cannot be skipped once sent).
 */
export async function pipelinedTransaction(db: Db, statements: readonly SQL[]): Promise<Record<string, unknown>[][]> {
  const connection = await db.$client.reserve();
  try {
    const sent = [
      connection.unsafe('begin'),
      ...statements.map((statement) => {
        const query = dialect.sqlToQuery(statement);
        return connection.unsafe(query.sql, query.params as never[], { prepare: true });
      }),
      connection.unsafe('commit'),
    ];
    const settled = await Promise.allSettled(sent);
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.slice(1, -1).map((outcome) => [...(outcome as PromiseFulfilledResult<Record<string, unknown>[]>).value]);
  } finally {
    connection.release();
  }
}
