// Presence across two studio processes (two sets of service deps, each with its own LISTEN and
// its own watch): a heartbeat on one reaches the family streams of the other, and a tab that stops
// sending heartbeats is gone once the window passes — here a 2 s window and a 250 ms sweep, the
// studio's being 20 s and 5 s.
import { OfflineChatModel } from '@trellis/agent';
import type { Presence } from '@trellis/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FamilySignal } from '../live/family-subscription';
import {
  connectAdmin,
  createTestDeps,
  newThread,
  newUser,
  prepareCheckpointer,
  type TestDeps,
} from '../testing/test-harness';
import { getPresence, heartbeatPresence, leavePresence } from './presence';

const admin = connectAdmin();
let one: TestDeps;
let other: TestDeps;
const options = { presence: { windowSeconds: 2, sweepMs: 250 } };

beforeAll(async () => {
  await prepareCheckpointer();
  one = createTestDeps(new OfflineChatModel(), 5, options);
  other = createTestDeps(new OfflineChatModel(), 5, options);
});
afterAll(async () => {
  await Promise.all([one.close(), other.close()]);
  await admin.close();
});

async function watch(
  deps: TestDeps,
  familyId: string,
): Promise<{ latest: () => Presence | null; stop: () => void }> {
  const subscription = await deps.family.subscribe(familyId, null);
  let latest: Presence | null = null;
  subscription.onSignal((signal: FamilySignal) => {
    if (signal.event === 'presence') latest = signal.data as unknown as Presence;
  });
  return { latest: () => latest, stop: () => subscription.end('closed') };
}

describe('presence', () => {
  it('a heartbeat on one process reaches the streams of another, with the path, the step and typing', async () => {
    const actor = await newUser(admin);
    const root = await newThread(one, actor);
    const watcher = await watch(other, root);
    const answer = await heartbeatPresence(one, actor, {
      threadId: root,
      beat: { client_id: 'tab-one-0001', turn_index: null },
    });
    expect(answer.people).toHaveLength(1);
    await expect.poll(() => watcher.latest()?.people.length, { timeout: 5_000 }).toBe(1);
    expect(watcher.latest()!.people[0]).toMatchObject({
      user_id: actor.userId,
      thread_id: root,
      turn_index: null,
      is_typing: false,
    });

    await heartbeatPresence(one, actor, {
      threadId: root,
      beat: { client_id: 'tab-one-0001', is_typing: true },
    });
    await expect.poll(() => watcher.latest()?.people[0]?.is_typing, { timeout: 5_000 }).toBe(true);

    // A second tab, served by the other process, on an earlier step.
    await heartbeatPresence(other, actor, {
      threadId: root,
      beat: { client_id: 'tab-two-0002', turn_index: 0 },
    });
    await expect.poll(() => watcher.latest()?.people.length, { timeout: 5_000 }).toBe(2);
    expect(
      (await getPresence(one, actor, { threadId: root })).people.map((p) => p.turn_index).sort(),
    ).toEqual([0, null]);
    await leavePresence(other, actor, { threadId: root, clientId: 'tab-two-0002' });
    await expect.poll(() => watcher.latest()?.people.length, { timeout: 5_000 }).toBe(1);
    watcher.stop();
  });

  it('a tab that stops sending heartbeats is gone from every stream once the window has passed', async () => {
    const actor = await newUser(admin);
    const root = await newThread(one, actor);
    const watcher = await watch(other, root);
    await heartbeatPresence(one, actor, { threadId: root, beat: { client_id: 'tab-quiet-0001' } });
    await expect.poll(() => watcher.latest()?.people.length, { timeout: 5_000 }).toBe(1);
    const silentSince = Date.now();
    await expect.poll(() => watcher.latest()?.people.length, { timeout: 6_000, interval: 100 }).toBe(0);
    // Gone after the window, not before it.
    expect(Date.now() - silentSince).toBeGreaterThanOrEqual(1_500);
    expect((await getPresence(one, actor, { threadId: root })).people).toEqual([]);
    watcher.stop();
  });

  it('someone else’s family is refused, and a tab cannot take over another person’s entry', async () => {
    const owner = await newUser(admin);
    const stranger = await newUser(admin);
    const root = await newThread(one, owner);
    await expect(getPresence(one, stranger, { threadId: root })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(
      heartbeatPresence(one, stranger, { threadId: root, beat: { client_id: 'tab-owner-0001' } }),
    ).rejects.toMatchObject({
      code: 'forbidden',
    });
  });
});
