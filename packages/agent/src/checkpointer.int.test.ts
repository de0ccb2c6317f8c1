import { HumanMessage } from '@langchain/core/messages';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkpointBytes,
  countCheckpointThreads,
  createCheckpointer,
  deleteCheckpointThread,
  setupCheckpointer,
} from './checkpointer';
import { buildAgentGraph } from './graph';
import { CHAT_NODE } from './nodes/chat';

const url = process.env.TRELLIS_TEST_DATABASE_URL!;
let pool: pg.Pool;

beforeAll(async () => {
  await setupCheckpointer({ connectionString: url });
  pool = new pg.Pool({ connectionString: url, max: 4 });
});
afterAll(async () => {
  await pool.end();
});

describe('setupCheckpointer', () => {
  it('creates LangGraph tables in their own schema, idempotently and concurrently', async () => {
    const schema = `lg_${Math.random().toString(16).slice(2, 10)}`;
    await Promise.all([1, 2, 3].map(() => setupCheckpointer({ connectionString: url, schema })));
    await setupCheckpointer({ connectionString: url, schema });
    const { rows } = await pool.query<{ table_name: string }>(
      'select table_name from information_schema.tables where table_schema = $1 order by table_name',
      [schema],
    );
    expect(rows.map((r) => r.table_name)).toEqual([
      'checkpoint_blobs',
      'checkpoint_migrations',
      'checkpoint_writes',
      'checkpoints',
    ]);
    const publicTables = await pool.query("select 1 from information_schema.tables where table_schema = 'public' and table_name = 'checkpoints'");
    expect(publicTables.rowCount).toBe(0);
  });

  it('rejects a schema name that is not a plain identifier', async () => {
    await expect(setupCheckpointer({ connectionString: url, schema: 'x"; drop' })).rejects.toThrow(/invalid/);
  });
});

describe('checkpointer threads', () => {
  it('counts, measures, prunes and deletes one thread without touching another', async () => {
    const saver = createCheckpointer({ pool });
    const graph = buildAgentGraph({ budget: { maxMessages: 10 }, checkpointer: saver });
    const a = `th_${crypto.randomUUID()}`;
    const b = `th_${crypto.randomUUID()}`;
    for (const thread of [a, b]) {
      for (let i = 0; i < 3; i += 1) {
        await graph.updateState({ configurable: { thread_id: thread } }, { messages: [new HumanMessage(`m${i}`)] }, CHAT_NODE);
      }
    }
    expect(await countCheckpointThreads(pool, 'langgraph', a)).toBe(1);
    const before = await checkpointBytes(pool, 'langgraph', a);
    expect(before).toBeGreaterThan(0);

    await saver.pruneThread(a);
    const { rows } = await pool.query('select count(*)::int as n from langgraph.checkpoints where thread_id = $1', [a]);
    expect(rows[0].n).toBe(1);
    expect(await checkpointBytes(pool, 'langgraph', a)).toBeLessThan(before);
    const state = await graph.getState({ configurable: { thread_id: a } });
    expect((state.values as { messages: HumanMessage[] }).messages.map((m) => m.text)).toEqual(['m0', 'm1', 'm2']);

    await deleteCheckpointThread(saver, a);
    await deleteCheckpointThread(saver, a);
    expect(await countCheckpointThreads(pool, 'langgraph', a)).toBe(0);
    expect(await checkpointBytes(pool, 'langgraph', a)).toBe(0);
    expect(await countCheckpointThreads(pool, 'langgraph', b)).toBe(1);
  });
});
