import pg from 'pg';
import type { Logger } from './logger';

declare module 'pg' {
  // pg-pool runs it on each new connection before handing it out (not in the published types).
  interface PoolConfig {
    onConnect?: (client: pg.PoolClient) => Promise<void>;
  }
}

/**
 * The pool the LangGraph checkpointer writes through. Its commits do not wait for the WAL flush
 * (`synchronous_commit = off`): every checkpointer write is followed by a commit of Trellis's own that
 * does wait — a turn's checkpoint by its reply, a branch's or an import's seed by the statement that
 * activates the thread, a settled turn by its interrupted reply — and PostgreSQL flushes the WAL in
 * order, so that later commit makes the checkpoint durable with it. A crash of the machine between
 * the two loses at most a checkpoint whose transcript row was never stored, which is the state the
 * boot reclaim and the next turn's settling already repair; a crash of the studio loses nothing.
 * The turn saves one WAL flush (a disk sync) per turn.
 */
export function createCheckpointerPool(databaseUrl: string, options: { max: number; logger: Logger }): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.max,
    // The pool hands a new connection out once this has run on it.
    onConnect: async (client) => void (await client.query('set synchronous_commit to off')),
  });
  // An idle client losing its connection (a database restart) must not crash the process.
  pool.on('error', (error) => options.logger.warn({ err: error }, 'checkpointer pool: idle connection lost'));
  return pool;
}
