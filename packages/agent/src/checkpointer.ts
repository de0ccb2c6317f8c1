// The LangGraph checkpointer lives in its own Postgres schema (default
// `langgraph`), created by `setupCheckpointer` — never by drizzle, whose
// migrations do not see it (STYLE §7). It holds only the agent's working
// context; Trellis's `messages` table is the canonical transcript.
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import pg from 'pg';

export const DEFAULT_CHECKPOINT_SCHEMA = 'langgraph';
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** Serializes `setupCheckpointer` across processes (PostgresSaver.setup is not concurrency-safe). */
const SETUP_LOCK_KEY = 727_275;

export function checkpointSchema(schema: string | undefined): string {
  const name = schema ?? DEFAULT_CHECKPOINT_SCHEMA;
  if (!SCHEMA_NAME.test(name)) throw new Error(`invalid checkpointer schema name: ${name}`);
  return name;
}

/**
 * PostgresSaver plus `pruneThread`: LangGraph keeps every checkpoint of a
 * thread forever, although resuming only ever reads the latest one.
 */
export class TrellisCheckpointSaver extends PostgresSaver {
  readonly schema: string;
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool, schema: string) {
    super(pool, undefined, { schema });
    this.schema = schema;
    this.#pool = pool;
  }

  /**
   * Deletes every checkpoint of the thread but the latest (per namespace), the
   * writes that belonged to them and the blobs the latest no longer
   * references. One transaction; the surviving checkpoint loads exactly as
   * before, so the next run is unaffected. Only call it while no run is in
   * flight on the thread (the services layer's per-thread lease).
   */
  async pruneThread(threadId: string): Promise<void> {
    const s = `"${this.schema}"`;
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `delete from ${s}.checkpoints c
          where c.thread_id = $1
            and c.checkpoint_id <> (select max(l.checkpoint_id) from ${s}.checkpoints l
                                     where l.thread_id = c.thread_id and l.checkpoint_ns = c.checkpoint_ns)`,
        [threadId],
      );
      await client.query(
        `delete from ${s}.checkpoint_writes w
          where w.thread_id = $1
            and not exists (select 1 from ${s}.checkpoints c
                             where c.thread_id = w.thread_id and c.checkpoint_ns = w.checkpoint_ns
                               and c.checkpoint_id = w.checkpoint_id)`,
        [threadId],
      );
      await client.query(
        `delete from ${s}.checkpoint_blobs b
          where b.thread_id = $1
            and not exists (select 1 from ${s}.checkpoints c
                             cross join lateral jsonb_each_text(c.checkpoint -> 'channel_versions') v
                             where c.thread_id = b.thread_id and c.checkpoint_ns = b.checkpoint_ns
                               and v.key = b.channel and v.value = b.version)`,
        [threadId],
      );
      await client.query('COMMIT');
    } catch (error: unknown) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

export function isPrunableCheckpointer(
  saver: BaseCheckpointSaver,
): saver is BaseCheckpointSaver & { pruneThread(threadId: string): Promise<void> } {
  return typeof (saver as { pruneThread?: unknown }).pruneThread === 'function';
}

/** The checkpointer on the caller's pool. The pool's lifetime is the caller's. */
export function createCheckpointer(options: { pool: pg.Pool; schema?: string }): TrellisCheckpointSaver {
  return new TrellisCheckpointSaver(options.pool, checkpointSchema(options.schema));
}

/**
 * Creates the schema and LangGraph's tables (PostgresSaver.setup). Idempotent,
 * and safe when several processes start at once (advisory lock).
 */
export async function setupCheckpointer(options: { connectionString: string; schema?: string }): Promise<void> {
  const schema = checkpointSchema(options.schema);
  const pool = new pg.Pool({ connectionString: options.connectionString, max: 2 });
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [SETUP_LOCK_KEY]);
    try {
      await new PostgresSaver(pool, undefined, { schema }).setup();
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [SETUP_LOCK_KEY]);
    }
  } finally {
    lock.release();
    await pool.end();
  }
}

/** Removes every checkpoint, write and blob of the thread. Safe to repeat. */
export async function deleteCheckpointThread(checkpointer: BaseCheckpointSaver, threadId: string): Promise<void> {
  await checkpointer.deleteThread(threadId);
}

const TABLE_BYTES = {
  checkpoints: `coalesce(sum(pg_column_size(thread_id) + pg_column_size(checkpoint_ns) + pg_column_size(checkpoint_id)
    + coalesce(pg_column_size(parent_checkpoint_id), 0) + coalesce(pg_column_size(type), 0)
    + pg_column_size(checkpoint) + pg_column_size(metadata)), 0)`,
  checkpoint_blobs: `coalesce(sum(pg_column_size(thread_id) + pg_column_size(checkpoint_ns) + pg_column_size(channel)
    + pg_column_size(version) + pg_column_size(type) + coalesce(pg_column_size(blob), 0)), 0)`,
  checkpoint_writes: `coalesce(sum(pg_column_size(thread_id) + pg_column_size(checkpoint_ns) + pg_column_size(checkpoint_id)
    + pg_column_size(task_id) + pg_column_size(idx) + pg_column_size(channel) + coalesce(pg_column_size(type), 0)
    + pg_column_size(blob)), 0)`,
} as const;

/**
 * Bytes stored in the checkpointer's tables (checkpoints, checkpoint_blobs,
 * checkpoint_writes), for one thread or in total: the sum of every live row's
 * column sizes as Postgres stores them (after TOAST compression). For tests
 * and benchmarks.
 */
export async function checkpointBytes(pool: pg.Pool, schema: string = DEFAULT_CHECKPOINT_SCHEMA, threadId?: string): Promise<number> {
  const s = `"${checkpointSchema(schema)}"`;
  const where = threadId === undefined ? '' : 'where thread_id = $1';
  const params = threadId === undefined ? [] : [threadId];
  const parts = Object.entries(TABLE_BYTES).map(([table, expr]) => `(select ${expr} from ${s}.${table} ${where})`);
  const { rows } = await pool.query<{ bytes: string }>(`select (${parts.join(' + ')})::bigint as bytes`, params);
  return Number(rows[0]?.bytes ?? 0);
}

/**
 * Threads with anything stored in the checkpointer (a checkpoint, blob or
 * write), in total or for `threadId` (then 0 or 1). For tests and benchmarks.
 */
export async function countCheckpointThreads(pool: pg.Pool, schema: string = DEFAULT_CHECKPOINT_SCHEMA, threadId?: string): Promise<number> {
  const s = `"${checkpointSchema(schema)}"`;
  const where = threadId === undefined ? '' : 'where thread_id = $1';
  const { rows } = await pool.query<{ n: string }>(
    `select count(*)::bigint as n from (
       select thread_id from ${s}.checkpoints ${where}
       union select thread_id from ${s}.checkpoint_blobs ${where}
       union select thread_id from ${s}.checkpoint_writes ${where}) t`,
    threadId === undefined ? [] : [threadId],
  );
  return Number(rows[0]?.n ?? 0);
}
