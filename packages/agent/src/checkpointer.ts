// The LangGraph checkpointer lives in its own Postgres schema (default
// `langgraph`), created by `setupCheckpointer` — never by drizzle, whose
// migrations do not see it (STYLE §7). It holds only the agent's working
// context; Trellis's `messages` table is the canonical transcript.
import type { RunnableConfig } from '@langchain/core/runnables';
import type { BaseCheckpointSaver, Checkpoint, CheckpointMetadata, CheckpointTuple } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { reusingMessageJson } from './message-serde';

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
 * PostgresSaver on the same tables, with fewer round trips and cheaper reads, keeping only the
 * latest checkpoint of a thread unless told otherwise (LangGraph keeps every checkpoint of a thread
 * forever, although resuming only ever reads the latest one).
 *
 * - `getTuple` reads the checkpoint, its blobs and its pending writes as one row each, in one
 *   query. The stock query folds the blobs into a `bytea[][]` column, which node-postgres parses
 *   character by character in JavaScript (milliseconds for a 40-message context); a plain `bytea`
 *   column is decoded natively.
 * - `put` writes the blobs and the checkpoint in one statement (the stock saver: BEGIN, one insert
 *   per blob, the checkpoint, COMMIT — a round trip each). Unless the saver keeps history, the same
 *   statement deletes the thread's superseded checkpoints, their writes and the blobs the new one
 *   no longer references (what `pruneThread` does, without a round trip of its own).
 * - A thread's latest checkpoint that this saver wrote is remembered (as written, for the most
 *   recently written threads). When `isLatestAndClean` confirms it is still the thread's latest,
 *   with no writes pending, the next `getTuple` of the thread's latest checkpoint answers from
 *   memory: no query, no deserialisation. LangGraph treats loaded values as immutable (it copies
 *   the checkpoint, and reducers return new values), and the caller guarantees, as for skipping
 *   settlement, that nothing else writes the thread between the two calls (the per-thread lease).
 * - A message list (the working context) is written from each message's JSON as first written
 *   (see `reusingMessageJson`).
 * - Its statements are prepared once per connection (named): the stock saver sends each one unnamed,
 *   and PostgreSQL parses and plans the put's five-CTE statement again on every turn.
 * Serialisation (the bytes the saver's serde writes) and the rows written are the stock ones, so
 * either saver reads what the other wrote.
 */
export class TrellisCheckpointSaver extends PostgresSaver {
  readonly schema: string;
  /** Every checkpoint is kept (no pruning on put), like the stock saver. */
  readonly keepsHistory: boolean;
  readonly #pool: pg.Pool;
  /** Per thread (root namespace), the latest checkpoint this saver wrote, as `getTuple` would read it. */
  readonly #written = new Map<string, CheckpointTuple>();
  /** Threads whose remembered checkpoint `isLatestAndClean` just confirmed, for the next `getTuple`. */
  readonly #confirmed = new Set<string>();
  /** The name each statement text is prepared under. */
  readonly #statementNames = new Map<string, string>();

  constructor(pool: pg.Pool, schema: string, options: { keepHistory?: boolean } = {}) {
    super(pool, undefined, { schema });
    this.serde = reusingMessageJson(this.serde);
    this.schema = schema;
    this.keepsHistory = options.keepHistory ?? false;
    this.#pool = pool;
  }

  /** The id of the latest checkpoint this saver wrote on the thread (root namespace), if it remembers one. */
  lastWritten(threadId: string): string | undefined {
    return this.#written.get(threadId)?.checkpoint.id;
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const { thread_id: threadId, checkpoint_ns: namespace = '', checkpoint_id: checkpointId } = (config.configurable ?? {}) as {
      thread_id?: string;
      checkpoint_ns?: string;
      checkpoint_id?: string;
    };
    if (!checkpointId && namespace === '' && threadId !== undefined && this.#confirmed.delete(threadId)) {
      const written = this.#written.get(threadId);
      if (written !== undefined) return written;
    }
    const s = `"${this.schema}"`;
    const which = checkpointId ? 'and checkpoint_id = $3' : 'order by checkpoint_id desc limit 1';
    const { rows } = await this.#query<TupleRow>(
      `with cp as (
         select thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata
           from ${s}.checkpoints where thread_id = $1 and checkpoint_ns = $2 ${which})
       select * from (
         select 0 as part, cp.checkpoint_id, cp.parent_checkpoint_id, cp.checkpoint, cp.metadata,
                null::text as task_id, null::int as idx, null::text as channel, null::text as type, null::bytea as blob
           from cp
         union all
         select 1, null, null, null, null, null, null, bl.channel, bl.type, bl.blob
           from cp cross join lateral jsonb_each_text(cp.checkpoint -> 'channel_versions') v
           join ${s}.checkpoint_blobs bl on bl.thread_id = cp.thread_id and bl.checkpoint_ns = cp.checkpoint_ns
            and bl.channel = v.key and bl.version = v.value
         union all
         select 2, null, null, null, null, cw.task_id, cw.idx, cw.channel, cw.type, cw.blob
           from cp join ${s}.checkpoint_writes cw on cw.thread_id = cp.thread_id and cw.checkpoint_ns = cp.checkpoint_ns
            and cw.checkpoint_id = cp.checkpoint_id
       ) tuple
       order by part, task_id collate "C", idx`,
      checkpointId ? [threadId, namespace, checkpointId] : [threadId, namespace],
    );
    const head = rows[0];
    if (head?.part !== 0) return undefined;
    // Checkpoints older than format 4 keep their sends elsewhere: the stock reader migrates them.
    if ((head.checkpoint as { v: number }).v < 4 && head.parent_checkpoint_id != null) return super.getTuple(config);
    const channelValues: Record<string, unknown> = {};
    const pendingWrites: [string, string, unknown][] = [];
    for (const row of rows) {
      if (row.part === 1 && row.type !== 'empty') channelValues[row.channel!] = await this.serde.loadsTyped(row.type!, row.blob!);
      if (row.part === 2) pendingWrites.push([row.task_id!, row.channel!, await this.serde.loadsTyped(row.type!, row.blob!)]);
    }
    const checkpoint = head.checkpoint as Omit<Checkpoint, 'channel_values'>;
    const at = (id: string) => ({ configurable: { thread_id: threadId, checkpoint_ns: namespace, checkpoint_id: id } });
    return {
      config: at(head.checkpoint_id!),
      checkpoint: {
        ...checkpoint,
        channel_versions: checkpoint.channel_versions ?? {},
        versions_seen: checkpoint.versions_seen ?? {},
        channel_values: channelValues,
      },
      metadata: (await this._loadMetadata(head.metadata!)) as CheckpointMetadata,
      ...(head.parent_checkpoint_id ? { parentConfig: at(head.parent_checkpoint_id) } : {}),
      pendingWrites,
    };
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: Parameters<PostgresSaver['put']>[3],
  ): Promise<RunnableConfig> {
    if (config.configurable === undefined) throw new Error('Missing "configurable" field in "config" param');
    const { thread_id: threadId, checkpoint_ns: namespace = '', checkpoint_id: parentId } = config.configurable as {
      thread_id: string;
      checkpoint_ns?: string;
      checkpoint_id?: string;
    };
    const [blobs, serializedMetadata]: [Awaited<ReturnType<PostgresSaver['_dumpBlobs']>>, unknown] = await Promise.all([
      this._dumpBlobs(threadId, namespace, checkpoint.channel_values, newVersions),
      this._dumpMetadata(metadata) as Promise<unknown>,
    ]);
    const s = `"${this.schema}"`;
    const serializedCheckpoint = this._dumpCheckpoint(checkpoint);
    this.#confirmed.delete(threadId);
    // One statement, hence atomic: the blobs first (a CTE), then the checkpoint that references them;
    // when history is not kept, the superseded rows go in the same statement (its CTEs all see the
    // snapshot from before it, so none of them can touch what it inserts).
    // Each blob is a parameter of its own, which node-postgres sends in binary (in an array it would
    // travel as hex text, twice its size).
    const blobRows = blobs.map((_, i) => `($1, $2, $${7 + 4 * i}, $${8 + 4 * i}, $${9 + 4 * i}, $${10 + 4 * i}::bytea)`);
    const ctes = [
      ...(blobRows.length === 0
        ? []
        : [
            `blobs as (
               insert into ${s}.checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)
               values ${blobRows.join(', ')}
               on conflict (thread_id, checkpoint_ns, channel, version) do nothing)`,
          ]),
      ...(this.keepsHistory
        ? []
        : [
            `old_checkpoints as (
               delete from ${s}.checkpoints where thread_id = $1 and checkpoint_ns = $2 and checkpoint_id <> $3)`,
            `old_writes as (
               delete from ${s}.checkpoint_writes where thread_id = $1 and checkpoint_ns = $2 and checkpoint_id <> $3)`,
            `old_blobs as (
               delete from ${s}.checkpoint_blobs b where b.thread_id = $1 and b.checkpoint_ns = $2
                 and not exists (select 1 from jsonb_each_text($5::jsonb -> 'channel_versions') v
                                 where v.key = b.channel and v.value = b.version))`,
          ]),
    ];
    await this.#query(
      `${ctes.length === 0 ? '' : `with ${ctes.join(',\n')}`}
       insert into ${s}.checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
       values ($1, $2, $3, $4, $5, $6)
       on conflict (thread_id, checkpoint_ns, checkpoint_id) do update set checkpoint = excluded.checkpoint, metadata = excluded.metadata`,
      [
        threadId,
        namespace,
        checkpoint.id,
        parentId ?? null,
        serializedCheckpoint,
        serializedMetadata,
        ...blobs.flatMap(([, , channel, version, type, blob]) => [channel, version, type, blob ?? null]),
      ],
    );
    const at = (id: string) => ({ configurable: { thread_id: threadId, checkpoint_ns: namespace, checkpoint_id: id } });
    if (namespace === '') {
      // What getTuple reads back: the values of the channels the checkpoint versions, no pending writes.
      const versions = checkpoint.channel_versions ?? {};
      const channelValues = Object.fromEntries(Object.entries(checkpoint.channel_values).filter(([channel]) => channel in versions));
      this.#remember(threadId, {
        config: at(checkpoint.id),
        checkpoint: { ...checkpoint, channel_versions: versions, versions_seen: checkpoint.versions_seen ?? {}, channel_values: channelValues },
        metadata: (await this._loadMetadata(serializedMetadata as CheckpointMetadata)) as CheckpointMetadata,
        ...(parentId ? { parentConfig: at(parentId) } : {}),
        pendingWrites: [],
      });
    }
    return at(checkpoint.id);
  }

  override async putWrites(config: RunnableConfig, writes: Parameters<PostgresSaver['putWrites']>[1], taskId: string): Promise<void> {
    const threadId = (config.configurable as { thread_id?: string } | undefined)?.thread_id;
    if (threadId !== undefined) this.#forget(threadId);
    await super.putWrites(config, writes, taskId);
  }

  override async deleteThread(threadId: string): Promise<void> {
    this.#forget(threadId);
    await super.deleteThread(threadId);
  }

  /**
   * A statement of this saver's, prepared on each connection the first time it runs there: named by
   * its text's hash (a put's text depends on how many blobs it writes, so there are a few).
   */
  #query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    let name = this.#statementNames.get(text);
    if (name === undefined) {
      name = `trellis_cp_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      this.#statementNames.set(text, name);
    }
    return this.#pool.query<R>({ name, text, values });
  }

  #remember(threadId: string, tuple: CheckpointTuple): void {
    this.#written.delete(threadId);
    if (this.#written.size >= WRITTEN_LIMIT) this.#forget(this.#written.keys().next().value!);
    this.#written.set(threadId, tuple);
  }

  #forget(threadId: string): void {
    this.#written.delete(threadId);
    this.#confirmed.delete(threadId);
  }

  /**
   * Deletes every checkpoint of the thread but the latest (per namespace), the
   * writes that belonged to them and the blobs the latest no longer
   * references. One statement, hence atomic; the surviving checkpoint loads exactly as
   * before, so the next run is unaffected. Only call it while no run is in
   * flight on the thread (the services layer's per-thread lease).
   * Checkpoint ids are time-ordered (uuid6), as LangGraph's own "latest" query assumes.
   * Returns the id of the checkpoint kept in the root namespace (null when the thread has none).
   */
  async pruneThread(threadId: string): Promise<string | null> {
    // One statement: every data-modifying CTE sees the same snapshot, so the
    // keep-sets are computed from the latest checkpoints, not from what the
    // other deletes leave behind.
    const s = `"${this.schema}"`;
    const { rows } = await this.#pool.query<{ latest: string | null }>(
      `with latest as (
         select distinct on (checkpoint_ns) checkpoint_ns, checkpoint_id, checkpoint
           from ${s}.checkpoints where thread_id = $1
          order by checkpoint_ns, checkpoint_id desc),
       kept_blobs as (
         select l.checkpoint_ns, v.key as channel, v.value as version
           from latest l cross join lateral jsonb_each_text(l.checkpoint -> 'channel_versions') v),
       old_checkpoints as (
         delete from ${s}.checkpoints c where c.thread_id = $1
            and not exists (select 1 from latest l where l.checkpoint_ns = c.checkpoint_ns and l.checkpoint_id = c.checkpoint_id)
         returning 1),
       old_writes as (
         delete from ${s}.checkpoint_writes w where w.thread_id = $1
            and not exists (select 1 from latest l where l.checkpoint_ns = w.checkpoint_ns and l.checkpoint_id = w.checkpoint_id)
         returning 1),
       old_blobs as (
         delete from ${s}.checkpoint_blobs b where b.thread_id = $1
            and not exists (select 1 from kept_blobs k
                             where k.checkpoint_ns = b.checkpoint_ns and k.channel = b.channel and k.version = b.version)
         returning 1)
       select (select count(*) from old_checkpoints) + (select count(*) from old_writes) + (select count(*) from old_blobs) as deleted,
         (select checkpoint_id from latest where checkpoint_ns = '') as latest`,
      [threadId],
    );
    return rows[0]?.latest ?? null;
  }

  /**
   * Whether `checkpointId` is still the thread's latest checkpoint with no writes pending on it: the
   * thread is then exactly as the run that saved it left it. One small query, no blob read. When it
   * is, and it is the checkpoint this saver last wrote on the thread, the next read of the thread's
   * latest checkpoint answers from memory (the caller lets nothing else write the thread meanwhile).
   */
  async isLatestAndClean(threadId: string, checkpointId: string): Promise<boolean> {
    const s = `"${this.schema}"`;
    const { rows } = await this.#query<{ clean: boolean }>(
      `select coalesce((
         select cp.checkpoint_id = $2 and not exists (
             select 1 from ${s}.checkpoint_writes w
             where w.thread_id = cp.thread_id and w.checkpoint_ns = cp.checkpoint_ns and w.checkpoint_id = cp.checkpoint_id)
           from ${s}.checkpoints cp where cp.thread_id = $1 and cp.checkpoint_ns = ''
           order by cp.checkpoint_id desc limit 1), false) as clean`,
      [threadId, checkpointId],
    );
    const clean = rows[0]?.clean === true;
    if (clean) this.vouchFor(threadId, checkpointId);
    else this.#confirmed.delete(threadId);
    return clean;
  }

  /**
   * What `isLatestAndClean` concludes when it answers true, taken on the caller's word, without the
   * query: for a caller that knows nothing has written the thread since that checkpoint. When it is
   * the checkpoint this saver last wrote on the thread, the next read of the thread's latest
   * checkpoint answers from memory.
   */
  vouchFor(threadId: string, checkpointId: string): void {
    if (this.#written.get(threadId)?.checkpoint.id === checkpointId) this.#confirmed.add(threadId);
    else this.#confirmed.delete(threadId);
  }
}

/** Threads whose latest written checkpoint a saver remembers (the most recently written ones). */
const WRITTEN_LIMIT = 256;

type TupleRow = {
  part: 0 | 1 | 2;
  checkpoint_id: string | null;
  parent_checkpoint_id: string | null;
  checkpoint: unknown;
  metadata: Record<string, unknown> | null;
  task_id: string | null;
  idx: number | null;
  channel: string | null;
  type: string | null;
  blob: Uint8Array | null;
};

export interface PrunableCheckpointer {
  pruneThread(threadId: string): Promise<string | null>;
  isLatestAndClean(threadId: string, checkpointId: string): Promise<boolean>;
  vouchFor(threadId: string, checkpointId: string): void;
  lastWritten(threadId: string): string | undefined;
}

export function isPrunableCheckpointer(saver: BaseCheckpointSaver): saver is BaseCheckpointSaver & PrunableCheckpointer {
  const candidate = saver as { pruneThread?: unknown; isLatestAndClean?: unknown; vouchFor?: unknown; lastWritten?: unknown };
  return [candidate.pruneThread, candidate.isLatestAndClean, candidate.vouchFor, candidate.lastWritten].every((m) => typeof m === 'function');
}

/**
 * The checkpointer on the caller's pool. The pool's lifetime is the caller's. It keeps only each
 * thread's latest checkpoint unless `keepHistory` (Trellis never reads checkpoint history: its
 * transcript and snapshots live in its own tables).
 */
export function createCheckpointer(options: { pool: pg.Pool; schema?: string; keepHistory?: boolean }): TrellisCheckpointSaver {
  return new TrellisCheckpointSaver(options.pool, checkpointSchema(options.schema), { keepHistory: options.keepHistory });
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
