// An event stream follows its access and always delivers: a revoked token's stream ends on every
// process at once, a sign-out ends its session's streams and only those, a changed password ends the
// streams whose access no longer stands, a client too far behind is reset (once) instead of being
// dropped on every reconnect, a last id from the future is refused, and one user's streams are capped.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@trellis/domain';
import { testDatabaseUrl } from '@trellis/db/testing';
import { connectAdmin, createTestDeps, newThread, newUser, prepareCheckpointer, type TestDeps } from '../testing/test-harness';
import { createApiToken, findApiToken, revokeApiToken } from '../tokens/api-tokens';
import { appendFamilyEvent } from './family-events';
import { toFamilyEventStream } from './family-event-stream';
import { FamilyHub } from './family-hub';
import type { FamilySubscription } from './family-subscription';
import { subscribeFamilyEvents } from './subscribe-family-events';

const admin = connectAdmin();
let a: TestDeps;
let b: TestDeps;

beforeAll(async () => {
  await prepareCheckpointer();
  a = createTestDeps();
  b = createTestDeps();
  await Promise.all([a.family.start(), b.family.start()]);
});
afterAll(async () => {
  await Promise.all([a, b].map((d) => d.close()));
  await admin.close();
});

/** Resolves with the subscription's end reason, or 'still open' once `ms` ran out. */
async function endOf(subscription: FamilySubscription, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    (async () => {
      for (;;) {
        const next = await subscription.next();
        if (next.done) return subscription.ended ?? 'done';
      }
    })(),
    new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still open'), ms))),
  ]);
  clearTimeout(timer);
  return outcome;
}

/** Reads an SSE body until `until` matches what was read, or `ms` ran out. */
async function readUntil(stream: ReadableStream<Uint8Array>, until: RegExp, ms = 5_000): Promise<{ text: string; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + ms;
  while (!until.test(text) && Date.now() < deadline) {
    let timer: NodeJS.Timeout | undefined;
    const chunk = await Promise.race([
      reader.read(),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), deadline - Date.now()))),
    ]);
    clearTimeout(timer);
    if (chunk === 'timeout' || chunk.done) break;
    text += decoder.decode(chunk.value);
  }
  return { text, reader };
}

describe('a stream ends with its access', () => {
  it('a revoked token’s stream on another process ends within 2 s; the same user’s session stream stays', async () => {
    const actor = await newUser(admin);
    const root = await newThread(a, actor);
    const { token } = await createApiToken(a.db, { userId: actor.userId, via: 'session' }, 'cli', `10.1.${Math.floor(Math.random() * 250)}.1`);
    const found = await findApiToken(a.db, token);
    const byToken = await subscribeFamilyEvents(b, actor, { threadId: root, lastEventId: null, holder: { userId: actor.userId, tokenId: found!.tokenId } });
    const bySession = await subscribeFamilyEvents(b, actor, { threadId: root, lastEventId: null, holder: { userId: actor.userId, sessionId: 'session-1' } });
    await revokeApiToken(a, actor.userId, found!.tokenId);
    expect(await endOf(byToken, 2_000)).toBe('access_revoked');
    expect(bySession.ended).toBeNull();
    bySession.end('closed');
  });

  it('ends streams by session, by user and by user and family, here and on the other process; the stream says why', async () => {
    const actor = await newUser(admin);
    const other = await newUser(admin);
    const root = await newThread(a, actor);
    const second = await newThread(a, actor);
    const open = (deps: TestDeps, threadId: string, sessionId: string, who = actor) =>
      subscribeFamilyEvents(deps, who, { threadId, lastEventId: null, holder: { userId: who.userId, sessionId } });
    const s1 = await open(b, root, 's1');
    const s2 = await open(b, root, 's2');
    const inSecond = await open(b, second, 's2');
    const stranger = await open(b, await newThread(a, other), 'o1', other);
    const body = toFamilyEventStream(s1);
    await a.family.endStreams({ sessionId: 's1' }, 'signed_out');
    const { text } = await readUntil(body, /event: end/, 2_000);
    expect(text).toContain('event: end\ndata: {"reason":"signed_out"}');
    expect([s2.ended, inSecond.ended]).toEqual([null, null]);
    await a.family.endStreams({ userId: actor.userId, familyId: second }, 'access_removed');
    expect(await endOf(inSecond, 2_000)).toBe('access_removed');
    expect(s2.ended).toBeNull();
    await a.family.endStreams({ userId: actor.userId }, 'access_revoked');
    expect(await endOf(s2, 2_000)).toBe('access_revoked');
    expect(stranger.ended).toBeNull();
    stranger.end('closed');
  });

  it('a recheck ends only the streams whose access no longer stands (a changed password keeps the session that changed it)', async () => {
    const actor = await newUser(admin);
    const root = await newThread(a, actor);
    const kept = await subscribeFamilyEvents(b, actor, { threadId: root, lastEventId: null, holder: { userId: actor.userId, sessionId: 'kept' } });
    const lost = await subscribeFamilyEvents(b, actor, { threadId: root, lastEventId: null, holder: { userId: actor.userId, sessionId: 'lost' } });
    kept.recheck = async () => true;
    lost.recheck = async () => false;
    await a.family.recheckStreams({ userId: actor.userId }, 'access_revoked');
    expect(await endOf(lost, 2_000)).toBe('access_revoked');
    expect(kept.ended).toBeNull();
    kept.end('closed');
  });
});

describe('a stream always delivers', () => {
  it('a client 5,000 events behind gets `reset` with the id to resume after, then the live events; resuming there replays nothing', async () => {
    const actor = await newUser(admin);
    const root = await newThread(a, actor);
    const first = await appendFamilyEvent(a.db, { threadId: root, kind: 'workspace_changed', data: { i: 0 } });
    await admin.db.execute(sql`
      insert into family_events (family_id, thread_id, kind, data)
      select ${root}, ${root}, 'workspace_changed', jsonb_build_object('i', g) from generate_series(1, 5000) g`);
    const subscription = await subscribeFamilyEvents(b, actor, { threadId: root, lastEventId: first, holder: { userId: actor.userId } });
    expect(subscription.reset).toMatchObject({ reason: 'too_far_behind', missed: 1_001 });
    const resumeAfter = subscription.reset!.lastEventId;
    const body = toFamilyEventStream(subscription);
    const opened = await readUntil(body, /event: reset/);
    expect(opened.text).toContain(`id: ${resumeAfter}\nevent: reset\n`);
    // Recovers: the next event arrives on the same stream.
    const next = await appendFamilyEvent(a.db, { threadId: root, kind: 'thread_updated', data: {} });
    const decoder = new TextDecoder();
    let more = '';
    while (!more.includes(`id: ${next}\n`)) {
      const chunk = await opened.reader.read();
      if (chunk.done) break;
      more += decoder.decode(chunk.value);
    }
    expect(more).toContain(`id: ${next}\nevent: thread_updated`);
    await opened.reader.cancel();
    // No loop: a reconnect from the reset's id is not reset again, and replays only what followed.
    const again = await subscribeFamilyEvents(b, actor, { threadId: root, lastEventId: resumeAfter, holder: { userId: actor.userId } });
    expect(again.reset).toBeNull();
    expect((await again.next()).value?.id).toBe(next);
    again.end('closed');
  });

  it('a last event id from the future is a 422, not a stream that never delivers', async () => {
    const actor = await newUser(admin);
    const root = await newThread(a, actor);
    const last = await appendFamilyEvent(a.db, { threadId: root, kind: 'workspace_changed', data: {} });
    const error = await subscribeFamilyEvents(b, actor, { threadId: root, lastEventId: (last ?? 0) + 1_000_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('validation_failed');
  });

  it('60 streams of one user: the first is closed (too_many_streams), 50 stay open', async () => {
    const hub = new FamilyHub({ databaseUrl: testDatabaseUrl(), db: a.db, logger: a.logger });
    try {
      const actor = await newUser(admin);
      const root = await newThread(a, actor);
      const streams: FamilySubscription[] = [];
      for (let i = 0; i < 60; i++) streams.push(await hub.subscribe(root, null, { holder: { userId: actor.userId, sessionId: `s${i}` } }));
      expect(streams[0]!.ended).toBe('too_many_streams');
      expect(streams.slice(0, 10).map((s) => s.ended)).toEqual(Array(10).fill('too_many_streams'));
      expect(streams.slice(10).every((s) => s.ended === null)).toBe(true);
      expect(hub.streamsOf(actor.userId)).toBe(50);
    } finally {
      await hub.close();
    }
  });
});
