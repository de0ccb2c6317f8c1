// The instance-named lease: a live
// process's lease outlasts any TTL, however slow its model; a single-process
// studio finishes its previous incarnation's turns at boot.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OfflineChatModel } from '@trellis/agent';
import { testDatabaseUrl } from '@trellis/db/testing';
import { createServiceDeps } from '../deps';
import { collect, connectAdmin, newThread, newUser, prepareCheckpointer } from '../testing/test-harness';
import { reclaimOrphanedTurns } from './reclaim-turns';
import { sendTurn } from './send-turn';
import { startStudioInstance } from './studio-instance';
import { HeldChatModel } from './test-models';
import { SHUTDOWN_REASON } from './turn-gate';

const admin = connectAdmin();
const held = new HeldChatModel();
const slow = createServiceDeps({ databaseUrl: testDatabaseUrl(), model: { instance: held }, instanceId: randomUUID(), poolSize: 3 });
const other = createServiceDeps({
  databaseUrl: testDatabaseUrl(),
  model: { instance: new OfflineChatModel() },
  instanceId: randomUUID(),
  poolSize: 3,
});

beforeAll(prepareCheckpointer);
afterAll(async () => {
  await Promise.all([slow.close(), other.close(), admin.close()]);
});

it('a process whose heartbeat is fresh keeps its lease through a model call far longer than the lease TTL', async () => {
  const instances = await Promise.all([startStudioInstance(slow), startStudioInstance(other)]);
  try {
    const actor = await newUser(admin);
    const threadId = await newThread(slow, actor);
    const turn = await sendTurn(slow, actor, { threadId, content: 'take your time' });
    const events = collect(turn);
    await held.started;
    // A minute of model time, without waiting a minute: the lease's TTL is long gone.
    await admin.db.execute(sql`update conversations set lease_expires_at = now() - interval '60 seconds' where thread_id = ${threadId}`);

    expect(await reclaimOrphanedTurns(other, { instanceId: other.instanceId, staleSeconds: 15 })).toBe(0);
    await expect(sendTurn(other, actor, { threadId, content: 'me too' })).rejects.toMatchObject({ code: 'turn_in_progress' });

    held.release();
    expect((await events).at(-1)?.event).toBe('done');
    expect(await turn.settled).toMatchObject({ status: 'complete' });
    await collect(await sendTurn(other, actor, { threadId, content: 'my turn now' }));
  } finally {
    for (const i of instances) i.stop();
  }
});

it("a single-process studio finishes its previous incarnation's turns at boot, even with a fresh heartbeat", async () => {
  const actor = await newUser(admin);
  const threadId = await newThread(other, actor);
  // What a SIGKILLed process leaves: a fresh instance row, its lease, a question without a reply.
  const previous = randomUUID();
  await admin.db.execute(sql`insert into studio_instances (id, pid, host) values (${previous}, 1, 'gone')`);
  await admin.db.execute(sql`
    with turn as (
      update conversations set lease_owner = ${randomUUID()}, lease_instance = ${previous},
        turn_index = 1, message_count = 1 where thread_id = ${threadId} returning thread_id)
    insert into messages (thread_id, turn_index, role, content) select thread_id, 1, 'user', 'left behind' from turn`);

  const restarted = createServiceDeps({
    databaseUrl: testDatabaseUrl(),
    model: { instance: new OfflineChatModel() },
    instanceId: randomUUID(),
    poolSize: 2,
  });
  const instance = await startStudioInstance(restarted, { singleProcess: true });
  try {
    const rows = await admin.db.execute<{ role: string; status: string; reason: string | null }>(
      sql`select role, status, reason from messages where thread_id = ${threadId} order by seq`,
    );
    expect(rows).toEqual([
      { role: 'user', status: 'complete', reason: null },
      { role: 'assistant', status: 'interrupted', reason: SHUTDOWN_REASON },
    ]);
    const [conversation] = await admin.db.execute<{ lease_owner: string | null; message_count: number }>(
      sql`select lease_owner, message_count from conversations where thread_id = ${threadId}`,
    );
    expect(conversation).toEqual({ lease_owner: null, message_count: 2 });
    expect((await collect(await sendTurn(restarted, actor, { threadId, content: 'again' }))).at(-1)?.event).toBe('done');
  } finally {
    instance.stop();
    await restarted.close();
  }
});
