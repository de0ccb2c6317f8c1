// `npm run soak [-- --rounds N]` (not part of `npm test`): crash-safety of turns,
// branch creations and imports. Two studio worker processes share one
// PostgreSQL; each round SIGKILLs one of them with turns, branch creations and
// an import in flight, restarts it, and checks in SQL: no pending branch past
// the grace period, no snapshot gap, every question has a reply row, no orphan
// checkpointer thread, and every thread touched accepts a turn within 20 s of
// the kill. Prints one JSON document; exits 1 when an invariant fails.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDb, migrateDatabase, startEmbeddedPostgres } from '@trellis/db';
import { freePort } from '../packages/db/src/testing/free-port.ts';
import { spawnWorker, type Worker } from '../packages/services/src/testing/worker.ts';
import { claudeCodeSession } from '../packages/services/src/transcripts/fixtures/claude-code-sessions.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '20' } } });
const ROUNDS = Number(values.rounds);
const THREADS_PER_ROUND = 4;
const PENDING_GRACE_SECONDS = 3;
const FREE_WITHIN_SECONDS = 20;

const log = (msg: string) => process.stderr.write(`[soak] ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dataDir = await mkdtemp(path.join(tmpdir(), 'trellis-soak-'));
const postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port: await freePort() });
await migrateDatabase(postgres.url);
const admin = createDb({ url: postgres.url, max: 2 });
const workerEnv = {
  DATABASE_URL: postgres.url,
  WORKER_CHUNK_DELAY_MS: '40',
  WORKER_PENDING_GRACE_SECONDS: String(PENDING_GRACE_SECONDS),
};

async function startWorker(): Promise<Worker> {
  const worker = spawnWorker(workerEnv);
  await worker.waitFor((e) => e.ev === 'ready', 60_000);
  return worker;
}

/** Sends turns until the thread accepts one (its turn opens); the seconds since `since`, once that turn ended. */
async function secondsUntilFree(worker: Worker, userId: string, threadId: string, since: number): Promise<number> {
  for (;;) {
    const id = worker.send({ op: 'turn', userId, threadId, content: 'still there?' });
    const reply = await worker.waitFor((e) => e.id === id && (e.ev === 'turn-open' || e.ev === 'refused'), 60_000);
    if (reply.ev === 'turn-open') {
      const seconds = (Date.now() - since) / 1000;
      await worker.waitFor((e) => e.id === id && (e.ev === 'result' || e.ev === 'refused'), 60_000);
      return seconds;
    }
    if (reply.code !== 'turn_in_progress' || Date.now() - since > 60_000) {
      throw new Error(`thread ${threadId} refused a turn: ${String(reply.code)} ${String(reply.message)}`);
    }
    await sleep(250);
  }
}

async function invariants() {
  const [row] = await admin.db.execute<Record<string, number>>(sql`
    select
      (select count(*)::int from conversation_branches
        where status = 'pending' and created_at < now() - make_interval(secs => ${PENDING_GRACE_SECONDS + 2})) as pending_past_grace,
      (select count(*)::int from conversations c left join conversation_branches b on b.thread_id = c.thread_id
        where coalesce(b.status, 'active') = 'active'
          and (select count(distinct s.turn_index) from workspace_snapshots s
               where s.thread_id = c.thread_id and s.turn_index > coalesce(b.branch_point_turn, 0))
            <> c.turn_index - coalesce(b.branch_point_turn, 0)) as snapshot_gaps,
      (select count(*)::int from messages u where u.role = 'user' and not exists (select 1 from messages a
        where a.thread_id = u.thread_id and a.turn_index = u.turn_index and a.role = 'assistant')) as questions_without_reply,
      (select count(distinct k.thread_id)::int from langgraph.checkpoints k
        where not exists (select 1 from conversations c where c.thread_id = k.thread_id)) as orphan_checkpointer_threads,
      (select count(*)::int from conversations where lease_owner is not null) as leases_held`);
  return row!;
}

const workers: [Worker, Worker] = [await startWorker(), await startWorker()];
const setup = await workers[0].call({ op: 'setup' });
const userId = String(setup.userId);
const freeSeconds: number[] = [];
const violations: { round: number; [k: string]: number }[] = [];
let restarts = 0;
let interruptedReplies = 0;
const started = Date.now();

try {
  for (let round = 1; round <= ROUNDS; round++) {
    const victimIndex = round % 2;
    const victim = workers[victimIndex]!;
    const survivor = workers[1 - victimIndex]!;
    // Fresh threads with one finished turn, so branches can start from turn 1.
    const threads: string[] = [];
    for (let i = 0; i < THREADS_PER_ROUND; i++) {
      const t = await survivor.call({ op: 'thread', userId });
      threads.push(String(t.threadId));
    }
    await Promise.all(threads.map((threadId) => survivor.call({ op: 'turn', userId, threadId, content: 'warm up' })));

    // In flight on the victim: a turn per thread, two branch creations, an import.
    for (const threadId of threads) victim.send({ op: 'turn', userId, threadId, content: `round ${round}: a long question` });
    const branchIds = [victim.send({ op: 'branch', userId, threadId: threads[0], fromTurn: 1 }), victim.send({ op: 'branch', userId, threadId: threads[1], fromTurn: 0 })];
    victim.send({ op: 'import', userId, transcript: claudeCodeSession() });
    await victim.waitFor((e) => e.ev === 'streaming', 30_000);
    await sleep(100 + Math.floor(Math.random() * 900));
    victim.child.kill('SIGKILL');
    await victim.exited;
    const killedAt = Date.now();
    workers[victimIndex] = await startWorker();
    restarts += 1;

    const touched = [...threads];
    for (const id of branchIds) {
      const made = victim.events.find((e) => e.id === id && e.ev === 'result');
      if (made) touched.push(String(made.threadId));
    }
    const seconds = await Promise.all(touched.map((threadId) => secondsUntilFree(survivor, userId, threadId, killedAt)));
    const worst = Math.max(...seconds);
    freeSeconds.push(worst);

    await sleep((PENDING_GRACE_SECONDS + 3) * 1000); // the pending-branch sweeper's grace, then a sweep
    const found = await invariants();
    const [interrupted] = await admin.db.execute<{ n: number }>(
      sql`select count(*)::int as n from messages where status = 'interrupted' and reason = 'the server stopped during this reply'`,
    );
    interruptedReplies = interrupted?.n ?? 0;
    const bad = Object.entries(found).filter(([, n]) => n > 0);
    if (bad.length > 0 || worst > FREE_WITHIN_SECONDS) violations.push({ round, free_seconds: worst, ...found });
    log(`round ${round}/${ROUNDS}: threads free after ${worst.toFixed(1)} s; ${JSON.stringify(found)}`);
  }
} finally {
  for (const w of workers) w.child.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.exited));
  await admin.close();
  await postgres.stop();
  await rm(dataDir, { recursive: true, force: true });
}

const sorted = [...freeSeconds].sort((a, b) => a - b);
const summary = {
  soak: 'turns-survive-a-crash',
  rounds: ROUNDS,
  restarts,
  sigkills: ROUNDS,
  seconds_until_threads_free: {
    p50: Number((sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(2)),
    max: Number((sorted.at(-1) ?? 0).toFixed(2)),
    goal_max: FREE_WITHIN_SECONDS,
  },
  interrupted_replies_stored: interruptedReplies,
  violations,
  passed: violations.length === 0,
  minutes: Number(((Date.now() - started) / 60_000).toFixed(1)),
};
console.log(JSON.stringify(summary, null, 2));
process.exit(summary.passed ? 0 : 1);
