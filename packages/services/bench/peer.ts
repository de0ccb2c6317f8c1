// `npm run bench` — Trellis beside the stock design it replaces, on the same
// Postgres, in the same run, with the same workload (~500-character messages, a
// 100 KB document that TOAST cannot compress, no model calls). The stock design
// (docs/branching.md's predecessor): LangGraph's stock messages channel
// (MessagesAnnotation, i.e. messagesStateReducer) on PostgresSaver keeping every
// checkpoint of the whole transcript; a snapshot row per turn carrying the full
// document body; a branch seeded with the whole prefix in one `updateState` of a
// one-node graph; the first read loads the whole transcript from the checkpointer.
//
//   turn overhead (median of a few real turns) around turns 10, 200 and 1000
//   bytes stored by the thread at turns 10 and 200 (real turns on both sides)
//   branch creation and the branch's first read at turns 10, 200 and 1000
//
// Turn 1000: the stock channel stores the transcript again at every checkpoint
// (quadratic: ~55 MiB at 200 turns, ~1.4 GB at 1000), which cannot be driven for
// real within minutes. So at 1000 each side's history is written in bulk (Trellis:
// SQL copies of a real turn; the peer: the whole transcript in one checkpoint, which
// is what its next turn reads anyway) and only the timed turns are real; the peer's
// storage at 1000 is not measured. --quick (BENCH_QUICK) times fewer turns, and fewer of the
// peer's branches and first reads at 1000.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { checkpointBytes, setupCheckpointer } from '@trellis/agent';
import { createScratchDatabase } from '@trellis/db/testing';
import { newThreadId } from '@trellis/domain';
import { createServiceDeps } from '../src/deps';
import { migrateAll } from '../src/migrate-all';
import { createConversation } from '../src/conversations/create-conversation';
import { patchWorkspace } from '../src/workspace/patch-workspace';
import { createBranch } from '../src/branching/create-branch';
import { listMessages } from '../src/lineage/list-messages';
import { getWorkspace } from '../src/workspace/get-workspace';
import { copyTurns, incompressibleDocument, message, runTurn, threadBytes } from './harness';
import { seedUser } from './seed-history';
import { median, ratio, round, time } from './stats';

const QUICK = Boolean(process.env.BENCH_QUICK);
const SAMPLE = QUICK ? 3 : 5; // timed turns centred on each depth
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
/** The peer's branch and first read at turn 1000 take most of a second each: --quick times 3 of them. */
const peerRuns = (depth: number) => (QUICK && depth === 1000 ? { runs: 3, warmup: 1 } : { runs: RUNS });
const DEPTHS = [10, 200, 1000] as const;
const PEER_SCHEMA = 'peer_langgraph';
const REPLY = 'A considered reply of about five hundred characters. '.repeat(10);

const startedAt = performance.now();
const database = await createScratchDatabase('trellis_bench_peer');
try {
  await migrateAll({ databaseUrl: database.url });
  await setupCheckpointer({ connectionString: database.url, schema: PEER_SCHEMA });
  const deps = createServiceDeps({ databaseUrl: database.url, model: { provider: 'offline' }, poolSize: 5 });
  const pool = new pg.Pool({ connectionString: database.url, max: 5 });
  const actor = { userId: await seedUser(deps.sql) };
  const document = incompressibleDocument();
  const peer = await createPeer(pool);

  // Turns: both sides driven for real to 200 + half a sample, bytes at 10 and 200 on the way.
  const half = Math.floor(SAMPLE / 2);
  const trellisThread = (await createConversation(deps, actor, { title: 'trellis' })).thread_id;
  await patchWorkspace(deps, actor, { threadId: trellisThread, patch: { objective: 'Measure', document: { title: 'Bench', content: document } } });
  const peerThread = await peer.createThread(document);
  const turnMs: Record<'trellis' | 'peer', Record<number, number[]>> = { trellis: {}, peer: {} };
  const bytes: Record<'trellis' | 'peer', Record<number, number>> = { trellis: {}, peer: {} };
  const timed = async (side: 'trellis' | 'peer', centre: number, fn: () => Promise<void>) => {
    const start = performance.now();
    await fn();
    (turnMs[side][centre] ??= []).push(performance.now() - start);
  };
  for (let turn = 1; turn <= 200 + half; turn++) {
    const centre = DEPTHS.find((d) => Math.abs(d - turn) <= half);
    // alternate sides so whatever else the machine does weighs on both alike
    const trellisTurn = () => runTurn(deps, actor, trellisThread, message(turn));
    const peerTurn = () => peer.turn(peerThread, message(turn));
    if (centre === undefined) await Promise.all([trellisTurn(), peerTurn()]);
    else {
      await timed('trellis', centre, trellisTurn);
      await timed('peer', centre, peerTurn);
    }
    if (turn === 10 || turn === 200) {
      bytes.trellis[turn] = await threadBytes(deps, pool, trellisThread);
      bytes.peer[turn] = await peer.threadBytes(peerThread);
    }
  }
  // Turn 1000: history written in bulk, then real timed turns.
  let next = await copyTurns(deps, trellisThread, 200 + half, 1000 - half - 1);
  const deepPeer = await peer.createThread(document, 1000 - half - 1);
  for (let i = 0; i < SAMPLE; i++, next++) {
    const turn = next;
    await timed('trellis', 1000, () => runTurn(deps, actor, trellisThread, message(turn)));
    await timed('peer', 1000, () => peer.turn(deepPeer, message(turn)));
  }

  // Branch creation at turn k = depth - 1 of a depth-turn thread, and the new branch's first read.
  const branchMs: Record<'trellis' | 'peer', Record<number, number>> = { trellis: {}, peer: {} };
  const readMs: Record<'trellis' | 'peer', Record<number, number>> = { trellis: {}, peer: {} };
  for (const depth of DEPTHS) {
    const source = depth === 10 || depth === 200 ? { trellis: trellisThread, peer: peerThread } : { trellis: trellisThread, peer: deepPeer };
    const k = depth - 1;
    const created = { trellis: '', peer: '' };
    branchMs.trellis[depth] = (
      await time(async () => (created.trellis = (await createBranch(deps, actor, { threadId: source.trellis, from_turn: k })).thread_id), { runs: RUNS })
    ).p50;
    branchMs.peer[depth] = (await time(async () => (created.peer = await peer.branch(source.peer, k)), peerRuns(depth))).p50;
    readMs.trellis[depth] = (
      await time(
        () => Promise.all([listMessages(deps, actor, { threadId: created.trellis, limit_turns: 100 }), getWorkspace(deps, actor, { threadId: created.trellis })]),
        { runs: RUNS },
      )
    ).p50;
    readMs.peer[depth] = (await time(() => peer.firstRead(created.peer), peerRuns(depth))).p50;
  }

  const byDepth = (values: Record<number, number | undefined>) =>
    Object.fromEntries(DEPTHS.map((d) => [`turn_${d}`, values[d] === undefined ? null : round(values[d])]));
  const side = (s: 'trellis' | 'peer') => ({
    turn_overhead_ms: byDepth(Object.fromEntries(DEPTHS.map((d) => [d, median(turnMs[s][d]!)]))),
    storage_bytes: byDepth(bytes[s]),
    branch_create_ms: byDepth(branchMs[s]),
    first_read_ms: byDepth(readMs[s]),
  });
  const trellis = side('trellis');
  const stock = side('peer');
  const vs = (value: number) => ({ value, goal: '≥ 5', meets_goal: value >= 5 });
  console.log(
    JSON.stringify({
      name: 'services.peer',
      unit: 'ms',
      workload: { message_chars: 500, document_bytes: document.length, document: 'incompressible', timed_turns_per_depth: SAMPLE, runs: RUNS },
      trellis,
      peer: stock,
      vs_peer: {
        turn_overhead_at_200: vs(ratio(stock.turn_overhead_ms.turn_200!, trellis.turn_overhead_ms.turn_200!)),
        storage_at_200: vs(ratio(stock.storage_bytes.turn_200!, trellis.storage_bytes.turn_200!)),
        branch_create_at_1000: vs(ratio(stock.branch_create_ms.turn_1000!, trellis.branch_create_ms.turn_1000!)),
        first_read_at_1000: vs(ratio(stock.first_read_ms.turn_1000!, trellis.first_read_ms.turn_1000!)),
        turn_overhead_at_1000: ratio(stock.turn_overhead_ms.turn_1000!, trellis.turn_overhead_ms.turn_1000!),
        branch_create_at_200: ratio(stock.branch_create_ms.turn_200!, trellis.branch_create_ms.turn_200!),
        first_read_at_200: ratio(stock.first_read_ms.turn_200!, trellis.first_read_ms.turn_200!),
        note: 'peer ÷ Trellis. At turn 1000 both histories are written in bulk and only the timed turns are real; the peer keeps its whole transcript in one checkpoint there (a real run would hold ~1.4 GB), so storage is compared at 200 only.',
      },
      seconds: round((performance.now() - startedAt) / 1000),
    }),
  );
  await pool.end();
  await deps.close();
} finally {
  await database.dispose();
}

/**
 * The stock design on its own tables and its own checkpointer schema: LangGraph's own PostgresSaver
 * (not Trellis's leaner subclass), never pruned.
 */
async function createPeer(pool: pg.Pool) {
  await pool.query(`create table peer_threads (thread_id text primary key, parent_thread_id text, branch_point_turn int,
      turn_index int not null default 0, status text not null default 'active', created_at timestamptz not null default now());
    create table peer_documents (thread_id text primary key, content text not null);
    create table peer_snapshots (id bigserial primary key, thread_id text not null, turn_index int not null, document text not null,
      user_message text, captured_at timestamptz not null default now(), unique (thread_id, turn_index));`);
  const checkpointer = new PostgresSaver(pool, undefined, { schema: PEER_SCHEMA });
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('reply', () => ({ messages: [new AIMessage(REPLY)] }))
    .addEdge(START, 'reply')
    .addEdge('reply', END)
    .compile({ checkpointer });
  const config = (threadId: string) => ({ configurable: { thread_id: threadId } });
  /** The seeder of the stock design: a one-node graph on the same checkpointer, only to call updateState. */
  const seeder = () =>
    new StateGraph(MessagesAnnotation).addNode('seed', () => ({})).addEdge(START, 'seed').addEdge('seed', END).compile({ checkpointer });

  return {
    /** A thread with its document; with `turns`, that many turns of transcript in one checkpoint and the last turn's snapshot. */
    async createThread(document: string, turns = 0): Promise<string> {
      const threadId = newThreadId(randomUUID);
      await pool.query('insert into peer_threads (thread_id, turn_index) values ($1, $2)', [threadId, turns]);
      await pool.query('insert into peer_documents (thread_id, content) values ($1, $2)', [threadId, document]);
      if (turns > 0) {
        const transcript: BaseMessage[] = [];
        for (let t = 1; t <= turns; t++) transcript.push(new HumanMessage(message(t)), new AIMessage(REPLY));
        await seeder().updateState(config(threadId), { messages: transcript }, '__start__');
        await pool.query(
          `insert into peer_snapshots (thread_id, turn_index, document, user_message)
           select $1, t, $2, 'Question ' || t from generate_series(greatest(1, $3::int - 1), $3::int) t`,
          [threadId, document, turns],
        );
      }
      return threadId;
    },
    /** One turn: the lease (turn counter), the snapshot with the full document body, the graph run. */
    async turn(threadId: string, content: string): Promise<void> {
      const { rows } = await pool.query<{ turn_index: number }>(
        'update peer_threads set turn_index = turn_index + 1 where thread_id = $1 returning turn_index',
        [threadId],
      );
      await pool.query(
        `insert into peer_snapshots (thread_id, turn_index, document, user_message)
         select $1, $2, d.content, $3 from peer_documents d where d.thread_id = $1`,
        [threadId, rows[0]!.turn_index, content],
      );
      await graph.invoke({ messages: [new HumanMessage(content)] }, config(threadId));
    },
    /** Branch at turn k: the parent's whole transcript read, the prefix written in one updateState, the document copied. */
    async branch(parent: string, k: number): Promise<string> {
      const child = newThreadId(randomUUID);
      const state = await graph.getState(config(parent));
      const messages = (state.values as { messages: BaseMessage[] }).messages;
      let humans = 0;
      const cut = messages.findIndex((m) => m.getType() === 'human' && ++humans === k + 1);
      const prefix = cut === -1 ? messages : messages.slice(0, cut);
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(`insert into peer_threads (thread_id, parent_thread_id, branch_point_turn, turn_index, status) values ($1, $2, $3, $3, 'pending')`, [
          child,
          parent,
          k,
        ]);
        await client.query(
          `insert into peer_documents (thread_id, content)
           select $1, coalesce((select document from peer_snapshots where thread_id = $2 and turn_index = $3 + 1),
             (select content from peer_documents where thread_id = $2))`,
          [child, parent, k],
        );
        await client.query('commit');
      } finally {
        client.release();
      }
      await seeder().updateState(config(child), { messages: prefix.map((m) => m) }, '__start__');
      await pool.query(`update peer_threads set status = 'active' where thread_id = $1`, [child]);
      return child;
    },
    /** The first read of a thread: its whole transcript from the checkpointer, and its workspace. */
    async firstRead(threadId: string): Promise<void> {
      await Promise.all([
        graph.getState(config(threadId)),
        pool.query('select t.turn_index, d.content from peer_threads t join peer_documents d using (thread_id) where t.thread_id = $1', [threadId]),
      ]);
    },
    async threadBytes(threadId: string): Promise<number> {
      const { rows } = await pool.query<{ bytes: string }>(
        `select (coalesce((select sum(pg_column_size(s.*)) from peer_snapshots s where s.thread_id = $1), 0)
           + coalesce((select sum(pg_column_size(d.*)) from peer_documents d where d.thread_id = $1), 0))::bigint as bytes`,
        [threadId],
      );
      return Number(rows[0]?.bytes ?? 0) + (await checkpointBytes(pool, PEER_SCHEMA, threadId));
    },
  };
}
