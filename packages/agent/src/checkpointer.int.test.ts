import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkpointBytes,
  countCheckpointThreads,
  createCheckpointer,
  deleteCheckpointThread,
  setupCheckpointer,
} from './checkpointer';
import { createAgent } from './agent';
import { buildAgentGraph } from './graph';
import { OfflineChatModel } from './models/offline';
import { CHAT_NODE } from './nodes/chat';
import { drain } from './testing/drain';
import { createInMemoryWorkspace } from './testing/in-memory-workspace';

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
    const saver = createCheckpointer({ pool, keepHistory: true });
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

describe('the saver beside the stock PostgresSaver', () => {
  it('reads exactly what the stock saver reads, whichever of the two wrote the checkpoints', async () => {
    const trellis = createCheckpointer({ pool, keepHistory: true });
    const stock = new PostgresSaver(pool, undefined, { schema: 'langgraph' });
    for (const [writer, reader] of [
      [stock, trellis],
      [trellis, stock],
    ] as const) {
      const graph = buildAgentGraph({ budget: { maxMessages: 10 }, checkpointer: writer });
      const thread = `th_${crypto.randomUUID()}`;
      const config = { configurable: { thread_id: thread } };
      for (let i = 0; i < 3; i += 1) {
        await graph.updateState(config, { messages: [new HumanMessage(`q${i}`), new AIMessage(`a${i} ${'x'.repeat(500)}`)] }, CHAT_NODE);
      }
      const latest = await writer.getTuple(config);
      // Pending writes on the latest checkpoint (what an interrupted run leaves), in two tasks.
      await writer.putWrites(latest!.config, [['messages', [new HumanMessage('pending')]], ['branch:to:chat', null]], 'task-b');
      await writer.putWrites(latest!.config, [['messages', [new AIMessage('first')]]], 'task-a');

      const read = await reader.getTuple(config);
      expect(read).toEqual(await writer.getTuple(config));
      expect(read!.pendingWrites!.map(([task, channel]) => `${task}/${channel}`)).toEqual(['task-a/messages', 'task-b/messages', 'task-b/branch:to:chat']);
      expect((read!.checkpoint.channel_values.messages as AIMessage[]).map((m) => m.text.slice(0, 2))).toEqual(['q0', 'a0', 'q1', 'a1', 'q2', 'a2']);
      // An earlier checkpoint by id, with its parent link.
      const parent = read!.parentConfig!;
      expect(await reader.getTuple(parent)).toEqual(await writer.getTuple(parent));
      expect(await reader.getTuple({ configurable: { thread_id: `th_${crypto.randomUUID()}` } })).toBeUndefined();
    }
  });
});

describe('a saver that keeps only the latest checkpoint (the default)', () => {
  const blobCount = async (thread: string) =>
    (await pool.query<{ n: number }>('select count(*)::int as n from langgraph.checkpoint_blobs where thread_id = $1', [thread])).rows[0]!.n;

  it('drops the superseded checkpoints, their writes and unreferenced blobs as it writes the new one', async () => {
    const saver = createCheckpointer({ pool });
    const graph = buildAgentGraph({ budget: { maxMessages: 10 }, checkpointer: saver });
    const thread = `th_${crypto.randomUUID()}`;
    const config = { configurable: { thread_id: thread } };
    await graph.updateState(config, { messages: [new HumanMessage('m0')] }, CHAT_NODE);
    const first = await saver.getTuple(config);
    await saver.putWrites(first!.config, [['messages', [new AIMessage('pending')]]], 'task-a');
    for (let i = 1; i < 4; i += 1) await graph.updateState(config, { messages: [new HumanMessage(`m${i}`)] }, CHAT_NODE);

    const rows = async (table: string) =>
      (await pool.query<{ n: number }>(`select count(*)::int as n from langgraph.${table} where thread_id = $1`, [thread])).rows[0]!.n;
    expect(await rows('checkpoints')).toBe(1);
    expect(await rows('checkpoint_writes')).toBe(0);
    const latest = await createCheckpointer({ pool }).getTuple(config);
    expect(await blobCount(thread)).toBe(Object.keys(latest!.checkpoint.channel_versions).length);
    expect((latest!.checkpoint.channel_values.messages as HumanMessage[]).map((m) => m.text)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(saver.lastWritten(thread)).toBe(latest!.checkpoint.id);
  });

  it('answers the read after isLatestAndClean from memory with exactly what a fresh read returns', async () => {
    const saver = createCheckpointer({ pool });
    const agent = createAgent({ checkpointer: saver, model: new OfflineChatModel() });
    const workspace = createInMemoryWorkspace();
    const thread = `th_${crypto.randomUUID()}`;
    const config = { configurable: { thread_id: thread } };
    // Turns with tool calls and results, and one without.
    await drain(agent.runTurn({ threadId: thread, userMessage: 'objective: Birds\ntodo: Pigeons\nprefer: short', workspace }));
    await drain(agent.runTurn({ threadId: thread, userMessage: 'hello', workspace }));
    await drain(agent.runTurn({ threadId: thread, userMessage: 'done: pigeons', workspace }));
    const id = saver.lastWritten(thread)!;
    expect(await saver.isLatestAndClean(thread, id)).toBe(true);
    // Whatever is in the table now, the remembered tuple answers (the caller holds the thread).
    const fresh = await createCheckpointer({ pool }).getTuple(config);
    const queried: string[] = [];
    const query = pool.query.bind(pool);
    pool.query = ((...args: Parameters<typeof query>) => (queried.push(String(args[0])), query(...args))) as typeof pool.query;
    try {
      expect(await saver.getTuple(config)).toEqual(fresh);
      expect(queried).toEqual([]);
      // Only once: the next read queries again.
      expect(await saver.getTuple(config)).toEqual(fresh);
      expect(queried).toHaveLength(1);
    } finally {
      pool.query = query;
    }
  });

  it('reads from the table when writes landed, another saver wrote, or the checkpoint is not the latest', async () => {
    const saver = createCheckpointer({ pool });
    const other = createCheckpointer({ pool });
    const graph = buildAgentGraph({ budget: { maxMessages: 10 }, checkpointer: saver });
    const thread = `th_${crypto.randomUUID()}`;
    const config = { configurable: { thread_id: thread } };
    await graph.updateState(config, { messages: [new HumanMessage('q0')] }, CHAT_NODE);
    const id = saver.lastWritten(thread)!;

    // Pending writes on the remembered checkpoint: not clean, and the read sees them.
    expect(await saver.isLatestAndClean(thread, id)).toBe(true);
    await saver.putWrites({ configurable: { thread_id: thread, checkpoint_ns: '', checkpoint_id: id } }, [['messages', [new AIMessage('w')]]], 'task-a');
    expect((await saver.getTuple(config))!.pendingWrites).toHaveLength(1);
    expect(await saver.isLatestAndClean(thread, id)).toBe(false);

    // Another process's saver wrote a newer checkpoint: not the latest any more.
    await buildAgentGraph({ budget: { maxMessages: 10 }, checkpointer: other }).updateState(config, { messages: [new HumanMessage('q1')] }, CHAT_NODE);
    expect(await saver.isLatestAndClean(thread, id)).toBe(false);
    const read = await saver.getTuple(config);
    expect(read!.checkpoint.id).toBe(other.lastWritten(thread));
    expect((read!.checkpoint.channel_values.messages as HumanMessage[]).map((m) => m.text)).toEqual(['q0', 'q1']);
  });
});
