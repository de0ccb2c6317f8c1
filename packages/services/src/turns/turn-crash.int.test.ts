// Turns survive a stop or a crash, with
// real child processes: a SIGKILLed process's thread is free again once its
// heartbeat is stale and its dead turn has an `interrupted` reply; a SIGTERMed
// process drains (stores the reply, frees the lease) before its PostgreSQL stops.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OfflineChatModel } from '@trellis/agent';
import { createDb, startEmbeddedPostgres } from '@trellis/db';
import { freePort, testDatabaseUrl } from '@trellis/db/testing';
import { isAppError } from '@trellis/domain';
import { createServiceDeps } from '../deps';
import { collect, connectAdmin, newThread, newUser, prepareCheckpointer } from '../testing/test-harness';
import { spawnWorker, type Worker } from '../testing/worker';
import { sendTurn } from './send-turn';
import { startStudioInstance, type StudioInstance } from './studio-instance';
import { SHUTDOWN_REASON } from './turn-gate';

const admin = connectAdmin();
const workers: Worker[] = [];
const model = new OfflineChatModel();
const deps = createServiceDeps({ databaseUrl: testDatabaseUrl(), model: { instance: model }, instanceId: randomUUID(), poolSize: 4 });
let instance: StudioInstance;

beforeAll(async () => {
  await prepareCheckpointer();
  instance = await startStudioInstance(deps, { sweepEveryMs: 1_000 });
});
afterAll(async () => {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  instance.stop();
  await Promise.all([deps.close(), admin.close()]);
});

/** Sends until the thread accepts (turn_in_progress means its lease is still held) or `deadline` passes. */
async function firstAcceptedTurn(actor: { userId: string }, threadId: string, deadline: number) {
  for (;;) {
    try {
      return await collect(await sendTurn(deps, actor, { threadId, content: 'are you back?' }));
    } catch (error: unknown) {
      if (!(isAppError(error) && error.code === 'turn_in_progress') || Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

it('a thread whose process was SIGKILLed mid-turn accepts a turn from another process within 20 s, and the dead turn has an interrupted reply', { timeout: 90_000 }, async () => {
  const actor = await newUser(admin);
  const threadId = await newThread(deps, actor);
  const worker = spawnWorker({ DATABASE_URL: testDatabaseUrl(), WORKER_CHUNK_DELAY_MS: '300' });
  workers.push(worker);
  await worker.waitFor((e) => e.ev === 'ready');
  const id = worker.send({ op: 'turn', userId: actor.userId, threadId, content: 'a question the crash cuts short' });
  await worker.waitFor((e) => e.id === id && e.ev === 'streaming');

  worker.child.kill('SIGKILL');
  await worker.exited;
  const killedAt = Date.now();
  const events = await firstAcceptedTurn(actor, threadId, killedAt + 20_000);
  expect(events.at(-1)?.event).toBe('done');

  const rows = await admin.db.execute<{ turn_index: number; role: string; status: string; reason: string | null }>(sql`
    select turn_index, role, status, reason from messages where thread_id = ${threadId} order by turn_index, seq`);
  expect(rows).toEqual([
    { turn_index: 1, role: 'user', status: 'complete', reason: null },
    { turn_index: 1, role: 'assistant', status: 'interrupted', reason: SHUTDOWN_REASON },
    { turn_index: 2, role: 'user', status: 'complete', reason: null },
    { turn_index: 2, role: 'assistant', status: 'complete', reason: null },
  ]);
  // The checkpointer agrees with the transcript: the next run saw the dead turn's question.
  const context = model.received.at(-1)?.map((m) => m.text) ?? [];
  expect(context).toContain('a question the crash cuts short');
  const [lease] = await admin.db.execute<{ lease_owner: string | null }>(
    sql`select lease_owner from conversations where thread_id = ${threadId}`,
  );
  expect(lease?.lease_owner).toBeNull();
});

it('SIGTERM mid-turn refuses new turns with unavailable, stores the reply as interrupted, frees the lease, and only then stops PostgreSQL', { timeout: 120_000 }, async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'trellis-drain-'));
  try {
    const port = await freePort();
    const worker = spawnWorker({
      WORKER_PG_DIR: path.join(dataDir, 'pg'),
      WORKER_PG_PORT: String(port),
      WORKER_CHUNK_DELAY_MS: '400',
      // The whole stop fits in the grace period (the process exits when it ends, whatever still runs):
      // the drain gets 6 s (the help reply needs about 24 s, so it is interrupted), storing the
      // interrupted reply and stopping PostgreSQL the 2 s kept in reserve.
      WORKER_GRACE_MS: '8000',
      DATABASE_URL: '',
    });
    workers.push(worker);
    const ready = await worker.waitFor((e) => e.ev === 'ready', 90_000);
    const setup = await worker.call({ op: 'setup' });
    const actor = { userId: String(setup.userId) };
    const threadId = String(setup.threadId);
    const id = worker.send({ op: 'turn', ...actor, threadId, content: 'a question the stop cuts short' });
    await worker.waitFor((e) => e.id === id && e.ev === 'streaming');

    worker.child.kill('SIGTERM');
    await worker.waitFor((e) => e.ev === 'log' && e.msg === 'draining: no new turns; waiting for the turns in flight');
    const refused = await worker.call({ op: 'turn', ...actor, threadId, content: 'sent during the drain' });
    expect(refused).toMatchObject({ ev: 'refused', code: 'unavailable' });
    const settled = await worker.waitFor((e) => e.id === id && e.ev === 'result');
    expect(settled.status).toBe('interrupted');
    const { code } = await worker.exited;
    expect(code).toBe(143);
    const order = worker.events.map((e) => e.ev).filter((ev) => ev === 'drained' || ev === 'pg-stopped');
    expect(order).toEqual(['drained', 'pg-stopped']);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);

    // The stored state, read after a restart of that database.
    expect(String(ready.databaseUrl)).toContain(`:${port}/`);
    const postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port });
    const db = createDb({ url: postgres.url, max: 1 });
    try {
      const rows = await db.db.execute<{ role: string; status: string; reason: string | null; content: string }>(sql`
        select role, status, reason, content from messages where thread_id = ${threadId} order by seq`);
      expect(rows.map(({ role, status, reason }) => ({ role, status, reason }))).toEqual([
        { role: 'user', status: 'complete', reason: null },
        { role: 'assistant', status: 'interrupted', reason: SHUTDOWN_REASON },
      ]);
      expect(rows[1]?.content.length).toBeGreaterThan(0); // the partial reply the person saw
      const [conversation] = await db.db.execute<{ lease_owner: string | null; instances: number }>(sql`
        select lease_owner, (select count(*)::int from studio_instances) as instances from conversations where thread_id = ${threadId}`);
      expect(conversation).toEqual({ lease_owner: null, instances: 0 });
    } finally {
      await db.close();
      await postgres.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
