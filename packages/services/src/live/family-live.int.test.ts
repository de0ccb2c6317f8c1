// Two studio processes on one database, as two sets of service deps: each has its own pools, its
// own LISTEN connection (FamilyHub) and its own running turns (LiveTurns).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflineChatModel } from '@trellis/agent';
import type { FamilyEvent, TurnEvent } from '@trellis/domain';
import { updateConversation } from '../conversations/update-conversation';
import { deleteConversation } from '../conversations/delete-conversation';
import { patchWorkspace } from '../workspace/patch-workspace';
import { createBranch } from '../branching/create-branch';
import { sendTurn } from '../turns/send-turn';
import { connectAdmin, createTestDeps, newThread, newUser, prepareCheckpointer, type TestDeps } from '../testing/test-harness';
import { appendFamilyEvent, lastFamilyEventId } from './family-events';
import type { FamilySubscription } from './family-subscription';
import { followTurn } from './follow-turn';
import { stopTurn } from './stop-turn';
import { subscribeFamilyEvents } from './subscribe-family-events';
import { REASON_STOPPED } from './live-turns';
import { sql } from 'drizzle-orm';

const admin = connectAdmin();
let a: TestDeps;
let b: TestDeps;
let slowA: TestDeps;
let slowB: TestDeps;

beforeAll(async () => {
  await prepareCheckpointer();
  a = createTestDeps();
  b = createTestDeps();
  slowA = createTestDeps(new OfflineChatModel({ chunkDelayMs: 30 }));
  slowB = createTestDeps(new OfflineChatModel({ chunkDelayMs: 30 }));
});
afterAll(async () => {
  await Promise.all([a, b, slowA, slowB].map((d) => d.close()));
  await admin.close();
});

/** The next `n` events of a subscription, or what came before `ms` ran out. */
async function take(subscription: FamilySubscription, n: number, ms = 5_000): Promise<FamilyEvent[]> {
  const events: FamilyEvent[] = [];
  const deadline = Date.now() + ms;
  while (events.length < n) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    let timer: NodeJS.Timeout | undefined;
    const next = await Promise.race([
      subscription.next(),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), left))),
    ]);
    clearTimeout(timer);
    if (next === 'timeout' || next.done) break;
    events.push(next.value);
  }
  return events;
}

/** Reads a subscription until `found` holds for an event (true), or 5 s pass (false). */
async function takeUntil(subscription: FamilySubscription, found: (event: FamilyEvent) => boolean): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const [event] = await take(subscription, 1, deadline - Date.now());
    if (!event) return false;
    if (found(event)) return true;
  }
  return false;
}

async function collectEvents(stream: AsyncIterable<TurnEvent>): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function replyOf(threadId: string, turn: number) {
  const [row] = await admin.db.execute<{ status: string; reason: string | null; content: string }>(sql`
    select status, reason, content from messages where thread_id = ${threadId} and turn_index = ${turn} and role = 'assistant'`);
  return row;
}

describe('the family channel across two processes', () => {
  it('a change committed through one process reaches a subscriber of the other, each kind in order', async () => {
    const actor = await newUser(admin);
    const root = await newThread(a, actor);
    const onB = await subscribeFamilyEvents(b, actor, { threadId: root, lastEventId: null });
    await patchWorkspace(a, actor, { threadId: root, patch: { objective: 'live' } });
    await updateConversation(a, actor, { threadId: root, title: 'Renamed' });
    const events = await take(onB, 2);
    expect(events.map((e) => [e.kind, e.thread_id, e.family_id])).toEqual([
      ['workspace_changed', root, root],
      ['thread_updated', root, root],
    ]);
    expect(events[1]!.data).toEqual({ title: 'Renamed' });
    expect(events[0]!.id).toBeLessThan(events[1]!.id);
    onB.end('closed');
  });

  it('a turn on one process is seen started and finished on the other, and branches and deletes of the family too', async () => {
    const actor = await newUser(admin);
    const root = await newThread(a, actor);
    const onB = await subscribeFamilyEvents(b, actor, { threadId: root, lastEventId: null });
    await collectEvents(await sendTurn(a, actor, { threadId: root, content: 'hello' }));
    const branch = await createBranch(a, actor, { threadId: root, from_turn: 1 });
    // A subscriber of the branch hears the family (the root's events included).
    await deleteConversation(a, actor, { threadId: branch.thread_id });
    const events = await take(onB, 4);
    expect(events.map((e) => e.kind)).toEqual(['turn_started', 'turn_finished', 'branch_created', 'deleted']);
    expect(events[0]!.data).toMatchObject({ turn_index: 1, by: 'user', message_preview: 'hello' });
    expect(events[1]!.data).toMatchObject({ turn_index: 1, status: 'complete', reason: null, message_id: expect.any(String) });
    expect(events[2]).toMatchObject({ thread_id: branch.thread_id, data: { parent_thread_id: root, branch_point_turn: 1 } });
    onB.end('closed');
  });

  it('a subscriber reconnecting with Last-Event-ID receives exactly the missed events, in order', async () => {
    const actor = await newUser(admin);
    const root = await newThread(a, actor);
    const first = await subscribeFamilyEvents(b, actor, { threadId: root, lastEventId: null });
    await updateConversation(a, actor, { threadId: root, title: 'one' });
    const [seen] = await take(first, 1);
    first.end('closed'); // the tab's network drops
    for (const title of ['two', 'three', 'four']) await updateConversation(a, actor, { threadId: root, title });
    await patchWorkspace(b, actor, { threadId: root, patch: { objective: 'five' } });
    const again = await subscribeFamilyEvents(a, actor, { threadId: root, lastEventId: seen!.id });
    const missed = await take(again, 4);
    expect(missed.map((e) => e.data['title'] ?? e.kind)).toEqual(['two', 'three', 'four', 'workspace_changed']);
    expect(missed.map((e) => e.id)).toEqual([...missed.map((e) => e.id)].sort((x, y) => x - y));
    // …and then the live ones, with nothing repeated.
    await updateConversation(b, actor, { threadId: root, title: 'six' });
    expect((await take(again, 1)).map((e) => e.data['title'])).toEqual(['six']);
    expect(await take(again, 1, 300)).toEqual([]);
    again.end('closed');
  });

  it('killing the LISTEN connection and restoring it loses none of the events committed meanwhile', async () => {
    const actor = await newUser(admin);
    const root = await newThread(a, actor);
    const onB = await subscribeFamilyEvents(b, actor, { threadId: root, lastEventId: null });
    const pid = await b.family.listenerPid();
    expect(pid).not.toBeNull();
    const reconnects = b.family.reconnects;
    await admin.db.execute(sql`select pg_terminate_backend(${pid}::int)`);
    // Committed while process B is deaf (the notifications of these are lost to it).
    for (let i = 0; i < 5; i += 1) await appendFamilyEvent(a.db, { threadId: root, kind: 'workspace_changed', data: { i } });
    const events = await take(onB, 5);
    expect(events.map((e) => e.data['i'])).toEqual([0, 1, 2, 3, 4]);
    expect(b.family.reconnects).toBeGreaterThan(reconnects);
    expect(await b.family.listenerPid()).not.toBe(pid);
    onB.end('closed');
  });

  it('ids grow in commit order within a family, whatever the concurrency', async () => {
    const actor = await newUser(admin);
    const root = await newThread(a, actor);
    const onB = await subscribeFamilyEvents(b, actor, { threadId: root, lastEventId: null });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => appendFamilyEvent((i % 2 ? a : b).db, { threadId: root, kind: 'workspace_changed', data: { i } })),
    );
    const events = await take(onB, 20);
    expect(events).toHaveLength(20);
    expect(new Set(events.map((e) => e.data['i'])).size).toBe(20);
    onB.end('closed');
  });

  it('a subscriber that joins while the family’s events flow in is never left deaf', async () => {
    // A read the channel started during a subscribe (for events committed just before it) used to
    // find no subscriber yet and forget the family, so the new stream heard nothing more.
    const actor = await newUser(admin);
    const root = await newThread(a, actor);
    const { FamilyHub } = await import('./family-hub');
    const { testDatabaseUrl } = await import('@trellis/db/testing');
    const hub = new FamilyHub({ databaseUrl: testDatabaseUrl(), db: a.db, logger: a.logger });
    let flowing = true;
    const flow = (async () => {
      while (flowing) await appendFamilyEvent(b.db, { threadId: root, kind: 'workspace_changed', data: { flow: true } });
    })();
    try {
      for (let round = 0; round < 25; round += 1) {
        const lastEventId = await lastFamilyEventId(admin.db, root);
        const subscription = await hub.subscribe(root, Math.max(0, lastEventId - 1));
        const marker = await appendFamilyEvent(b.db, { threadId: root, kind: 'workspace_changed', data: { round } });
        const heard = await takeUntil(subscription, (e) => e.id === marker);
        subscription.end('closed');
        expect(heard, `round ${round}`).toBe(true);
      }
    } finally {
      flowing = false;
      await flow;
      await hub.close();
    }
  });

  it('a read of the family’s events that fails is tried again: the event arrives with no further notification', async () => {
    const actor = await newUser(admin);
    const root = await newThread(a, actor);
    const { FamilyHub } = await import('./family-hub');
    const { testDatabaseUrl } = await import('@trellis/db/testing');
    const failures: unknown[] = [];
    const logger = { ...a.logger, warn: (obj: object, msg?: string) => void (msg?.includes('reading events failed') && failures.push(obj)) };
    const hub = new FamilyHub({ databaseUrl: testDatabaseUrl(), db: a.db, logger, reconnectMs: { first: 50, max: 200 } });
    try {
      const subscription = await hub.subscribe(root, null);
      // A row this process cannot read yet (a time JavaScript has no date for), announced once: the
      // read it starts fails, and fails again while the row stays so.
      const [row] = await admin.db.execute<{ id: string }>(sql`
        insert into family_events (family_id, thread_id, kind, data, created_at)
        values (${root}, ${root}, 'workspace_changed', '{"i": 1}'::jsonb, 'infinity') returning id::text as id`);
      const id = Number(row!.id);
      const notification = JSON.stringify({ family: root, thread: root, event: id, kind: 'workspace_changed' });
      await admin.db.execute(sql`select pg_notify('trellis_family', ${notification})`);
      const deadline = Date.now() + 5_000;
      while (failures.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(failures.length).toBeGreaterThanOrEqual(2);
      // Mended, with no notification: the next try delivers it.
      await admin.db.execute(sql`update family_events set created_at = now() where id = ${id}`);
      const events = await take(subscription, 1);
      expect(events.map((e) => e.id)).toEqual([id]);
      subscription.end('closed');
    } finally {
      await hub.close();
    }
  });

  it('drops a subscriber that does not keep up, and only that one', async () => {
    const actor = await newUser(admin);
    const root = await newThread(a, actor);
    const { FamilyHub } = await import('./family-hub');
    const { testDatabaseUrl } = await import('@trellis/db/testing');
    const hub = new FamilyHub({ databaseUrl: testDatabaseUrl(), db: a.db, logger: a.logger, maxQueued: 3 });
    try {
      const slow = await hub.subscribe(root, null);
      const fast = await hub.subscribe(root, null);
      const read: FamilyEvent[] = [];
      const reading = (async () => {
        for await (const event of fast) {
          read.push(event);
          if (read.length === 6) break;
        }
      })();
      for (let i = 0; i < 6; i += 1) await appendFamilyEvent(a.db, { threadId: root, kind: 'workspace_changed', data: { i } });
      await reading;
      expect(read.map((e) => e.data['i'])).toEqual([0, 1, 2, 3, 4, 5]);
      expect(slow.ended).toBe('slow');
    } finally {
      await hub.close();
    }
  });
});

describe('a reply outlives its tab', () => {
  it('closing the request’s stream does not stop the turn: the reply ends complete', async () => {
    const actor = await newUser(admin);
    const threadId = await newThread(slowA, actor);
    const stream = await sendTurn(slowA, actor, { threadId, content: 'hello' });
    for await (const event of stream) if (event.event === 'token') break; // the tab closes
    expect(await stream.settled).toMatchObject({ status: 'complete' });
    expect(await replyOf(threadId, 1)).toMatchObject({ status: 'complete', reason: null });
  });

  it('a tab on the same process that opens the path mid-reply gets the text so far, then the rest', async () => {
    const actor = await newUser(admin);
    const threadId = await newThread(slowA, actor);
    const stream = await sendTurn(slowA, actor, { threadId, content: 'hello' });
    const iterator = stream[Symbol.asyncIterator]();
    let tokens = 0;
    while (tokens < 3) if ((await iterator.next()).value?.event === 'token') tokens += 1;
    await iterator.return?.();
    const late = await collectEvents(await followTurn(slowA, actor, { threadId, turn: 1 }));
    const text = late.filter((e) => e.event === 'token').map((e) => (e.event === 'token' ? e.data.text : '')).join('');
    expect(late[0]).toMatchObject({ event: 'turn', data: { turn_index: 1 } });
    expect(late.at(-1)).toMatchObject({ event: 'done' });
    expect(text).toBe((await replyOf(threadId, 1))!.content);
  });

  it('a tab on another process follows the running reply from the start to its end', async () => {
    const actor = await newUser(admin);
    const threadId = await newThread(slowA, actor);
    const stream = await sendTurn(slowA, actor, { threadId, content: 'hello' });
    const iterator = stream[Symbol.asyncIterator]();
    let tokens = 0;
    while (tokens < 4) if ((await iterator.next()).value?.event === 'token') tokens += 1;
    const onB = await collectEvents(await followTurn(slowB, actor, { threadId, turn: 1 }));
    await stream.settled;
    const text = onB.filter((e) => e.event === 'token').map((e) => (e.event === 'token' ? e.data.text : '')).join('');
    expect(onB[0]).toMatchObject({ event: 'turn', data: { turn_index: 1 } });
    expect(onB.at(-1)).toMatchObject({ event: 'done' });
    expect(text).toBe((await replyOf(threadId, 1))!.content);
    // it streamed in pieces, not only the stored reply at the end
    expect(onB.filter((e) => e.event === 'token').length).toBeGreaterThan(1);
  });

  it('Stop on the process running the turn: interrupted, "you stopped this reply"', async () => {
    const actor = await newUser(admin);
    const threadId = await newThread(slowA, actor);
    const stream = await sendTurn(slowA, actor, { threadId, content: 'hello' });
    const iterator = stream[Symbol.asyncIterator]();
    while ((await iterator.next()).value?.event !== 'token');
    expect(await stopTurn(slowA, actor, { threadId, turn: 1 })).toEqual({ thread_id: threadId, turn_index: 1, is_running: true });
    expect(await stream.settled).toMatchObject({ status: 'interrupted' });
    expect(await replyOf(threadId, 1)).toMatchObject({ status: 'interrupted', reason: REASON_STOPPED });
    expect(await stopTurn(slowA, actor, { threadId, turn: 1 })).toMatchObject({ is_running: false });
  });

  it('Stop sent to another process stops the turn where it runs, and the family hears `stopped`', async () => {
    const actor = await newUser(admin);
    const threadId = await newThread(slowA, actor);
    const onB = await subscribeFamilyEvents(slowB, actor, { threadId, lastEventId: null });
    const stream = await sendTurn(slowA, actor, { threadId, content: 'hello' });
    const iterator = stream[Symbol.asyncIterator]();
    while ((await iterator.next()).value?.event !== 'token');
    expect(await stopTurn(slowB, actor, { threadId, turn: 1 })).toMatchObject({ is_running: true });
    expect(await stream.settled).toMatchObject({ status: 'interrupted' });
    expect(await replyOf(threadId, 1)).toMatchObject({ status: 'interrupted', reason: REASON_STOPPED });
    const events = await take(onB, 3);
    expect(events.map((e) => e.kind)).toEqual(['turn_started', 'stop_requested', 'turn_finished']);
    expect(events[2]!.data).toMatchObject({ status: 'stopped', reason: REASON_STOPPED });
    onB.end('closed');
  });
});
